import Foundation

#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// An ``AuthUIDelegate`` for development: instead of showing the provider's sign-in page, it asks the provider
/// sandbox of a Hearth server in development mode (`GET /sandbox/credentials/<provider>`) for the credential
/// that provider's SDK would hand the app, the way the Firebase emulator's fake sign-in page stands in for real
/// providers. No provider page is visited, so ``OAuthProvider/customParameters`` and ``OAuthProvider/scopes``
/// are not sent anywhere; use ``BrowserSignInUIDelegate`` to run the real flow. A production server does not serve
/// the sandbox: use a real delegate there.
///
/// ```swift
/// Auth.auth().defaultUIDelegate = SandboxConsoleUIDelegate()
/// OAuthProvider(providerID: "twitter.com").getCredentialWith(nil) { credential, error in … }
/// ```
public final class SandboxConsoleUIDelegate: AuthUIDelegate {
    /// The sandbox identity to sign in as (its subject), or nil for the provider's first identity.
    public let subject: String?
    /// The raw nonce to put (hashed) in ID tokens; Apple tokens get a fresh one when nil.
    public let rawNonce: String?

    /// - Parameters:
    ///   - subject: the sandbox identity's subject; nil for the first identity of the provider.
    ///   - rawNonce: the raw nonce for ID tokens.
    public init(subject: String? = nil, rawNonce: String? = nil) {
        self.subject = subject
        self.rawNonce = rawNonce
    }

    private struct ConsoleCredential: Decodable {
        var providerId: String
        var idToken: String?
        var accessToken: String?
        var oauthTokenSecret: String?
        var rawNonce: String?
    }

    public func credential(for provider: OAuthProvider) async throws -> AuthCredential {
        let base = provider.auth.serverURL
        guard var components = URLComponents(string: "\(base)/sandbox/credentials/\(provider.providerID)") else {
            throw AuthErrorFactory.error(.invalidProviderID)
        }
        var query: [URLQueryItem] = []
        if let subject { query.append(URLQueryItem(name: "subject", value: subject)) }
        if let rawNonce { query.append(URLQueryItem(name: "nonce", value: rawNonce)) }
        components.queryItems = query.isEmpty ? nil : query
        guard let url = components.url else { throw AuthErrorFactory.error(.invalidProviderID) }
        let (data, response): (Data, HTTPURLResponse)
        do {
            (data, response) = try await provider.auth.engine.options.transport.send(URLRequest(url: url))
        } catch {
            throw AuthErrorFactory.error(.webNetworkRequestFailed, underlying: error)
        }
        guard response.statusCode == 200, let console = try? JSONDecoder().decode(ConsoleCredential.self, from: data) else {
            let text = String(decoding: data.prefix(300), as: UTF8.self)
            throw AuthErrorFactory.error(
                .webSignInUserInteractionFailure,
                message: "The server's provider sandbox gave no credential for \(provider.providerID) (HTTP \(response.statusCode)): \(text)")
        }
        return OAuthCredential(
            providerID: console.providerId, idToken: console.idToken, accessToken: console.accessToken,
            secret: console.oauthTokenSecret, rawNonce: console.rawNonce)
    }
}
