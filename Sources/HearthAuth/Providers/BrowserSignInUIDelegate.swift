import Foundation

#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// An ``AuthUIDelegate`` that signs in through the Hearth server's browser sign-in (docs/browser-sign-in.md):
/// `accounts:createAuthUri` gives the provider's authorization page, the app shows it in a browser, the
/// server's redirect handler (`/__/auth/handler`) finishes the protocol with the provider and sends the browser
/// to the app's return URL, and the credential returned here makes `signIn(with:)`, `link(with:)` or
/// `reauthenticate(with:)` collect the result. Client secrets and provider tokens never pass through the app.
///
/// The app supplies the browser: `ASWebAuthenticationSession` on Apple platforms, Custom Tabs on Android, the
/// default browser and a loopback listener on a desktop.
///
/// ```swift
/// Auth.auth().defaultUIDelegate = BrowserSignInUIDelegate(returnURL: "com.example.app:/oauth2redirect") { url, returnURL in
///     try await openInBrowserAndWait(url, callbackPrefix: returnURL)   // the URL the browser was sent back to
/// }
/// OAuthProvider(providerID: "microsoft.com").getCredentialWith(nil) { credential, error in … }
/// ```
public final class BrowserSignInUIDelegate: AuthUIDelegate {
    /// Shows `authURL` in a browser and returns the URL the browser was finally sent to, which starts with
    /// `returnURL`. Throw `CancellationError` when the person closed the browser.
    public typealias Presenter = @Sendable (_ authURL: URL, _ returnURL: String) async throws -> URL

    /// The app's return URL: a custom scheme (`com.example.app:/oauth2redirect`) or a loopback address
    /// (`http://127.0.0.1:PORT/callback`) that the server accepts.
    public let returnURL: String
    private let present: Presenter

    /// - Parameters:
    ///   - returnURL: where the server sends the browser at the end.
    ///   - presentBrowser: shows the provider's page and returns the return URL it came back with.
    public init(returnURL: String, presentBrowser: @escaping Presenter) {
        self.returnURL = returnURL
        present = presentBrowser
    }

    private struct StartRequest: Encodable {
        var providerId: String
        var continueUri: String
        var sessionId: String
        var oauthScope: String?
        var customParameter: [String: String]?
        var tenantId: String?
    }

    private struct StartResponse: Decodable {
        var authUri: String?
        var sessionId: String?
    }

    private struct FirebaseError: Decodable {
        var code: String
        var message: String?
    }

    public func credential(for provider: OAuthProvider) async throws -> AuthCredential {
        let auth = provider.auth
        let sessionID = Self.randomSessionID()
        let scopes = (provider.scopes ?? []).filter { !$0.isEmpty }
        let parameters = provider.effectiveCustomParameters
        let started: StartResponse = try await auth.engine.backend.call(
            .createAuthUri,
            StartRequest(
                providerId: provider.providerID, continueUri: returnURL, sessionId: sessionID,
                oauthScope: scopes.isEmpty ? nil : scopes.joined(separator: " "),
                customParameter: parameters.isEmpty ? nil : parameters, tenantId: auth.tenantID))
        guard let authURI = started.authUri, let authURL = URL(string: authURI) else {
            throw AuthErrorFactory.error(.webInternalError, message: "The server started no browser sign-in for \(provider.providerID).")
        }

        let callback: URL
        do {
            callback = try await present(authURL, returnURL)
        } catch is CancellationError {
            throw AuthErrorFactory.error(.webContextCancelled)
        } catch {
            throw AuthErrorFactory.error(.webSignInUserInteractionFailure, underlying: error)
        }
        let items = URLComponents(url: callback, resolvingAgainstBaseURL: false)?.queryItems ?? []
        guard callback.absoluteString.hasPrefix(returnURL) else {
            throw AuthErrorFactory.error(.webSignInUserInteractionFailure, message: "The browser returned to \(callback), not to \(returnURL).")
        }
        if let link = items.first(where: { $0.name == "link" })?.value, !link.isEmpty {
            return OAuthCredential(providerID: provider.providerID, requestURI: link, sessionID: started.sessionId ?? sessionID)
        }
        if let text = items.first(where: { $0.name == "firebaseError" })?.value {
            throw Self.error(fromFirebaseError: text)
        }
        throw AuthErrorFactory.error(.webSignInUserInteractionFailure, message: "The return URL has neither link nor firebaseError.")
    }

    /// The handler's `firebaseError` JSON as FirebaseAuth reads it (`AuthErrorUtils.urlResponseError`).
    static func error(fromFirebaseError text: String) -> NSError {
        guard let error = try? JSONDecoder().decode(FirebaseError.self, from: Data(text.utf8)) else {
            return AuthErrorFactory.error(.webSignInUserInteractionFailure, failureReason: text)
        }
        switch error.code {
        case "auth/web-context-cancelled": return AuthErrorFactory.error(.webContextCancelled, message: error.message)
        case "auth/invalid-oauth-client-id": return AuthErrorFactory.error(.invalidClientID, message: error.message)
        case "auth/network-request-failed": return AuthErrorFactory.error(.webNetworkRequestFailed, message: error.message)
        case "auth/internal-error": return AuthErrorFactory.error(.webInternalError, message: error.message)
        default:
            return AuthErrorFactory.error(.webSignInUserInteractionFailure, failureReason: "[\(error.code)] - \(error.message ?? "")")
        }
    }

    /// 20 random uppercase letters (FirebaseAuth uses 10).
    static func randomSessionID() -> String {
        var generator = SystemRandomNumberGenerator()
        let letters = Array("ABCDEFGHIJKLMNOPQRSTUVWXYZ")
        return String((0..<20).map { _ in letters.randomElement(using: &generator)! })
    }
}
