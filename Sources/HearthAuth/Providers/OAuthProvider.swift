import Foundation

/// Runs an OAuth provider's interactive sign-in and returns the credential it produced.
///
/// FirebaseAuth's `AuthUIDelegate` presents a web view on iOS; HearthAuth has no hosted sign-in page, so the
/// delegate does the whole interactive part: open the provider's page (ASWebAuthenticationSession, a browser,
/// a device-code flow), and turn what comes back into a credential with ``OAuthProvider``'s `credential(…)`
/// functions. Pass one to ``OAuthProvider/getCredentialWith(_:completion:)`` or set
/// ``Auth/defaultUIDelegate`` for calls that pass `nil`.
public protocol AuthUIDelegate: AnyObject, Sendable {
    /// The credential of a sign-in with `provider` (its ``OAuthProvider/providerID``,
    /// ``OAuthProvider/scopes`` and ``OAuthProvider/customParameters``).
    func credential(for provider: OAuthProvider) async throws -> AuthCredential
}

/// A generic OAuth provider (`"microsoft.com"`, `"twitter.com"`, `"apple.com"`, `"oidc.…"`, …) and the
/// functions that make its credentials.
public final class OAuthProvider: Sendable {
    /// `"OAuth"`
    public static let id = "OAuth"

    /// The provider id.
    public let providerID: String
    /// The ``Auth`` whose ``Auth/defaultUIDelegate`` serves `getCredentialWith(nil)`.
    public let auth: Auth
    private let settings = Locked<(scopes: [String]?, customParameters: [String: String]?)>((nil, nil))

    /// OAuth scopes to ask for beyond the provider's defaults.
    public var scopes: [String]? {
        get { settings.withLock { $0.scopes } }
        set { settings.withLock { $0.scopes = newValue } }
    }

    /// Extra parameters of the provider's authorization request (`prompt`, `login_hint`, `tenant`, `lang`, …).
    /// The reserved OAuth parameters (`client_id`, `redirect_uri`, `response_type`, `scope`, `state`,
    /// `response_mode`) are the server's and a sign-in flow must ignore them; ``reservedParameters`` names them.
    public var customParameters: [String: String]? {
        get { settings.withLock { $0.customParameters } }
        set { settings.withLock { $0.customParameters = newValue } }
    }

    /// Parameters a custom parameter may not override.
    public static let reservedParameters: Set<String> = ["client_id", "redirect_uri", "response_type", "scope", "state", "response_mode"]

    /// ``customParameters`` without the reserved ones.
    public var effectiveCustomParameters: [String: String] {
        (customParameters ?? [:]).filter { !Self.reservedParameters.contains($0.key) }
    }

    /// - Parameters:
    ///   - providerID: `"microsoft.com"`, `"twitter.com"`, …
    ///   - auth: defaults to `Auth.auth()`.
    public init(providerID: String, auth: Auth = Auth.auth()) {
        self.providerID = providerID
        self.auth = auth
    }

    public convenience init(providerID: AuthProviderID, auth: Auth = Auth.auth()) {
        self.init(providerID: providerID.rawValue, auth: auth)
    }

    /// A provider of the default app's ``Auth``.
    public static func provider(providerID: AuthProviderID) -> OAuthProvider { OAuthProvider(providerID: providerID) }

    public static func provider(providerID: AuthProviderID, auth: Auth) -> OAuthProvider {
        OAuthProvider(providerID: providerID, auth: auth)
    }

    // MARK: Interactive sign-in

    /// Runs the interactive sign-in through `uiDelegate` (or ``Auth/defaultUIDelegate`` when nil) and returns the
    /// credential it produced. Fails with ``AuthErrorCode/webSignInUserInteractionFailure`` when there is no delegate.
    public func getCredentialWith(
        _ uiDelegate: (any AuthUIDelegate)?, completion: (@MainActor @Sendable (AuthCredential?, (any Error)?) -> Void)? = nil
    ) {
        complete(completion) { try await self.credential(with: uiDelegate) }
    }

    /// The async form of ``getCredentialWith(_:completion:)``.
    ///
    /// The delegate is `uiDelegate`, else ``Auth/defaultUIDelegate``, else on macOS and Linux
    /// ``LoopbackBrowser/delegate(openBrowser:timeout:)``: the system browser and a loopback redirect.
    public func credential(with uiDelegate: (any AuthUIDelegate)?) async throws -> AuthCredential {
        guard let delegate = try uiDelegate ?? auth.defaultUIDelegate ?? Self.platformDelegate() else {
            throw AuthErrorFactory.error(
                .webSignInUserInteractionFailure,
                message: "No AuthUIDelegate: pass one, or set Auth.defaultUIDelegate, to sign in with \(providerID) interactively.")
        }
        return try await delegate.credential(for: self)
    }

    /// The system browser with a loopback redirect where a process can open one (macOS, Linux); elsewhere
    /// (iOS, tvOS, watchOS) the app must supply the presentation.
    static func platformDelegate() throws -> (any AuthUIDelegate)? {
        #if os(macOS) || os(Linux)
        return try LoopbackBrowser.delegate()
        #else
        return nil
        #endif
    }

    // MARK: Credentials

    /// A credential from an OpenID Connect ID token and the raw nonce whose SHA-256 it carries.
    public static func credential(providerID: AuthProviderID, idToken: String, rawNonce: String, accessToken: String? = nil) -> OAuthCredential {
        OAuthCredential(providerID: providerID.rawValue, idToken: idToken, accessToken: accessToken, rawNonce: rawNonce)
    }

    /// A credential from an OpenID Connect ID token (and access token).
    public static func credential(providerID: AuthProviderID, idToken: String, accessToken: String? = nil) -> OAuthCredential {
        OAuthCredential(providerID: providerID.rawValue, idToken: idToken, accessToken: accessToken)
    }

    /// A credential from an OAuth access token.
    public static func credential(providerID: AuthProviderID, accessToken: String) -> OAuthCredential {
        OAuthCredential(providerID: providerID.rawValue, accessToken: accessToken)
    }

    /// A Sign in with Apple credential: the identity token, the raw nonce (its SHA-256 is the token's `nonce`)
    /// and, on the first sign-in only, the name Apple returned.
    public static func appleCredential(withIDToken idToken: String, rawNonce: String?, fullName: PersonNameComponents?) -> OAuthCredential {
        OAuthCredential(
            providerID: AppleAuthProviderID, idToken: idToken, rawNonce: rawNonce,
            givenName: fullName?.givenName, familyName: fullName?.familyName)
    }

    // MARK: String-typed spellings (FirebaseAuth 10 and 11)

    /// A credential from an ID token, a raw nonce and an access token (FirebaseAuth ≤ 11 spelling).
    @available(*, deprecated, renamed: "credential(providerID:idToken:rawNonce:accessToken:)")
    public static func credential(withProviderID providerID: String, idToken: String, rawNonce: String?, accessToken: String?) -> OAuthCredential {
        OAuthCredential(providerID: providerID, idToken: idToken, accessToken: accessToken, rawNonce: rawNonce)
    }

    /// A credential from an ID token and its raw nonce (FirebaseAuth ≤ 11 spelling, used by Sign in with Apple guides).
    @available(*, deprecated, renamed: "credential(providerID:idToken:rawNonce:accessToken:)")
    public static func credential(withProviderID providerID: String, idToken: String, rawNonce: String?) -> OAuthCredential {
        OAuthCredential(providerID: providerID, idToken: idToken, rawNonce: rawNonce)
    }

    /// A credential from an ID token and an access token (FirebaseAuth ≤ 11 spelling).
    @available(*, deprecated, renamed: "credential(providerID:idToken:accessToken:)")
    public static func credential(withProviderID providerID: String, idToken: String, accessToken: String?) -> OAuthCredential {
        OAuthCredential(providerID: providerID, idToken: idToken, accessToken: accessToken)
    }

    /// A credential from an access token (FirebaseAuth ≤ 11 spelling).
    @available(*, deprecated, renamed: "credential(providerID:accessToken:)")
    public static func credential(withProviderID providerID: String, accessToken: String) -> OAuthCredential {
        OAuthCredential(providerID: providerID, accessToken: accessToken)
    }
}
