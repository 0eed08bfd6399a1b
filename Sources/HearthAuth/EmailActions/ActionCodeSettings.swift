import Foundation
import HearthWire

/// Where an e-mail action link leads and which app may open it, for ``Auth/sendPasswordReset(withEmail:actionCodeSettings:)``,
/// ``Auth/sendSignInLink(toEmail:actionCodeSettings:)`` and ``User/sendEmailVerification(with:)``.
///
/// The server checks ``url`` (`continueUrl`): an absolute `http(s)` URL to `localhost`, the server's own host or a
/// host in `email.authorizedDomains`, else ``AuthErrorCode/invalidContinueURI`` or
/// ``AuthErrorCode/unauthorizedDomain``. The other settings travel with the code as FirebaseAuth sends them.
public final class ActionCodeSettings: Sendable {
    private struct Values {
        var url: URL?
        var handleCodeInApp = false
        var iOSBundleID: String?
        var androidPackageName: String?
        var androidMinimumVersion: String?
        var androidInstallIfNotAvailable = false
        var linkDomain: String?
        var dynamicLinkDomain: String?
    }

    private let values = Locked(Values())

    public init() {}

    /// Where the user goes after the action (`continueUrl`); required for e-mail sign-in links.
    public var url: URL? {
        get { values.withLock { $0.url } }
        set { values.withLock { $0.url = newValue } }
    }

    /// Whether the app opens the link itself (`canHandleCodeInApp`); e-mail sign-in links need it.
    public var handleCodeInApp: Bool {
        get { values.withLock { $0.handleCodeInApp } }
        set { values.withLock { $0.handleCodeInApp = newValue } }
    }

    /// The iOS app that may open the link (`iOSBundleId`).
    public var iOSBundleID: String? {
        get { values.withLock { $0.iOSBundleID } }
        set { values.withLock { $0.iOSBundleID = newValue } }
    }

    /// The Android app that may open the link (`androidPackageName`).
    public var androidPackageName: String? {
        get { values.withLock { $0.androidPackageName } }
        set { values.withLock { $0.androidPackageName = newValue } }
    }

    /// The oldest version of the Android app that may open the link (`androidMinimumVersion`).
    public var androidMinimumVersion: String? {
        get { values.withLock { $0.androidMinimumVersion } }
        set { values.withLock { $0.androidMinimumVersion = newValue } }
    }

    /// Whether the Android app is offered for installation when missing (`androidInstallApp`).
    public var androidInstallIfNotAvailable: Bool {
        get { values.withLock { $0.androidInstallIfNotAvailable } }
        set { values.withLock { $0.androidInstallIfNotAvailable = newValue } }
    }

    /// The Firebase Hosting domain of mobile links (`linkDomain`).
    public var linkDomain: String? {
        get { values.withLock { $0.linkDomain } }
        set { values.withLock { $0.linkDomain = newValue } }
    }

    /// The Firebase Dynamic Links domain (`dynamicLinkDomain`); replaced by ``linkDomain``.
    @available(*, deprecated, message: "Firebase Dynamic Links are deprecated; use linkDomain (as in FirebaseAuth).")
    public var dynamicLinkDomain: String? {
        get { values.withLock { $0.dynamicLinkDomain } }
        set { values.withLock { $0.dynamicLinkDomain = newValue } }
    }

    /// Sets ``iOSBundleID``.
    public func setIOSBundleID(_ bundleID: String) {
        iOSBundleID = bundleID
    }

    /// Sets the Android app that may open the link.
    public func setAndroidPackageName(_ androidPackageName: String, installIfNotAvailable: Bool, minimumVersion: String?) {
        values.withLock { values in
            values.androidPackageName = androidPackageName
            values.androidInstallIfNotAvailable = installIfNotAvailable
            values.androidMinimumVersion = minimumVersion
        }
    }

    /// Copies the settings into a `sendOobCode` request. Empty strings are left out, as proto3 reads them.
    func apply(to request: inout SendOobCodeRequest) {
        let values = values.withLock { $0 }
        request.continueUrl = values.url.map(\.absoluteString).nonEmpty
        request.canHandleCodeInApp = values.handleCodeInApp
        request.iOSBundleId = values.iOSBundleID.nonEmpty
        request.androidPackageName = values.androidPackageName.nonEmpty
        if values.androidInstallIfNotAvailable { request.androidInstallApp = true }
        request.androidMinimumVersion = values.androidMinimumVersion.nonEmpty
        request.linkDomain = values.linkDomain.nonEmpty
        request.dynamicLinkDomain = values.dynamicLinkDomain.nonEmpty
    }
}

extension String? {
    /// The string, or nil when it is nil or empty.
    var nonEmpty: String? {
        guard let self, !self.isEmpty else { return nil }
        return self
    }
}
