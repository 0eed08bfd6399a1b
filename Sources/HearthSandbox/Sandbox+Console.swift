import Foundation
import HearthFormEncoding
import Hummingbird

/// What an app would hold after a provider's native sign-in: the tokens, and the `postBody` to send to
/// `accounts:signInWithIdp` with them.
public struct SandboxSignInCredential: Sendable, Hashable, Codable {
    /// `apple.com`, `microsoft.com`, …, `yahoo.com`, `oidc.<name>`.
    public var providerId: String
    /// The subject of the identity the tokens are for.
    public var subject: String
    public var idToken: String?
    public var accessToken: String?
    /// Twitter's OAuth 1.0a token secret.
    public var oauthTokenSecret: String?
    /// The raw nonce whose SHA-256 hex the ID token carries (Apple always; others when one was asked for).
    public var rawNonce: String?
    /// `providerId=…&id_token=…&…`, form-encoded, ready for the `postBody` field of `signInWithIdp`.
    public var postBody: String
}

extension Sandbox {
    /// The credential the provider's own SDK would hand an app for `identity`: an ID token (Apple, Microsoft,
    /// Google, Yahoo, OIDC), an access token (Facebook, GitHub) or an OAuth 1.0a token and secret (Twitter).
    ///
    /// Apple's token always carries a nonce (Firebase requires one): `rawNonce`, or a fresh random one, which
    /// the result reports. For the other ID tokens a nonce is added only when `rawNonce` is given.
    public func signInCredential(for identity: SandboxIdentity, rawNonce: String? = nil) throws -> SandboxSignInCredential {
        var credential = SandboxSignInCredential(
            providerId: identity.provider.firebaseProviderID, subject: identity.subject, rawNonce: rawNonce, postBody: "")
        let native = try identity.provider.definition.nativeCredential(self, identity, rawNonce)
        credential.idToken = native.idToken
        credential.accessToken = native.accessToken
        credential.oauthTokenSecret = native.tokenSecret
        if let raw = native.rawNonce { credential.rawNonce = raw }
        let fields: [(String, String?)] = [
            ("providerId", credential.providerId), ("id_token", credential.idToken), ("access_token", credential.accessToken),
            ("oauth_token_secret", credential.oauthTokenSecret), ("nonce", credential.rawNonce),
        ]
        credential.postBody = fields.compactMap { key, value in value.map { "\(key)=\(FormEncoding.percentEncode($0))" } }
            .joined(separator: "&")
        return credential
    }
}

/// A developer's way in: `GET /` lists every provider's test identities, and
/// `GET /credentials/<providerId>?subject=…&nonce=…` mints a credential for one of them (JSON, see
/// ``SandboxSignInCredential``), the first identity of the provider when `subject` is absent; with `as=request`
/// the answer is instead the JSON body of an `accounts:signInWithIdp` request carrying that credential.
struct ConsoleRoutes: Sendable {
    let sandbox: Sandbox

    func add<Context: RequestContext>(to router: RouterGroup<Context>) {
        router.get { _, _ in self.index() }
        router.get("credentials/:provider") { request, context in
            self.credential(request, providerID: context.parameters.get("provider") ?? "")
        }
    }

    func credential(_ request: Request, providerID: String) -> Response {
        guard let provider = SandboxProvider(firebaseProviderID: providerID) else {
            return SandboxHTTP.json(
                [
                    "error": .string(
                        "unknown provider \(providerID); use "
                            + SandboxRegistry.all.map { $0.isFamily ? "\($0.id)<name>" : $0.id }.joined(separator: ", ")
                    )
                ], status: .notFound)
        }
        let query = SandboxHTTP.query(request)
        let identities = sandbox.identities(for: provider)
        let chosen = query["subject"].map { subject in identities.first { $0.subject == subject } } ?? identities.first
        guard let identity = chosen else {
            return SandboxHTTP.json(
                ["error": .string("no identity \(query["subject"] ?? "") for \(providerID); see GET \(sandbox.baseURL)/")], status: .notFound)
        }
        do {
            let credential = try sandbox.signInCredential(for: identity, rawNonce: query["nonce"].flatMap { $0.isEmpty ? nil : $0 })
            if query["as"] == "request" {
                // The body of an `accounts:signInWithIdp` request, for piping into curl.
                let request: SandboxJSON = [
                    "postBody": .string(credential.postBody), "requestUri": "http://localhost", "returnSecureToken": true,
                    "returnIdpCredential": true,
                ]
                return SandboxHTTP.json(request)
            }
            let data = try JSONEncoder().encode(credential)
            return SandboxHTTP.text(String(decoding: data, as: UTF8.self), status: .ok, contentType: "application/json; charset=utf-8")
        } catch {
            return SandboxHTTP.json(["error": .string("\(error)")], status: .badRequest)
        }
    }

    func index() -> Response {
        let base = sandbox.baseURL
        var rows = ""
        let builtIn = SandboxRegistry.all.filter { !$0.isFamily }.map { SandboxProvider(id: $0.id) }
        for provider in builtIn + oidcProviders() {
            for identity in sandbox.identities(for: provider) {
                let link = "\(base)/credentials/\(provider.firebaseProviderID)?subject=\(FormEncoding.percentEncode(identity.subject))"
                rows += "<tr><td>\(Self.escape(provider.firebaseProviderID))</td><td>\(Self.escape(identity.displayName ?? "—"))</td>"
                rows += "<td>\(Self.escape(identity.email ?? "—"))</td><td><a href=\"\(Self.escape(link))\">mint a credential</a></td></tr>\n"
            }
        }
        let page = """
            <!doctype html>
            <html lang="en"><head><meta charset="utf-8"><title>Hearth provider sandbox</title>
            <style>body{font-family:system-ui,sans-serif;margin:2rem;max-width:70rem}td,th{padding:.3rem .8rem;text-align:left}
            tr:nth-child(even){background:#f3f3f3}code{background:#eee;padding:0 .2rem}</style></head>
            <body><h1>Hearth provider sandbox</h1>
            <p>Offline stand-ins for the identity providers, for development mode only. Each link mints the credential the
            provider's SDK would give an app; send its <code>postBody</code> to <code>accounts:signInWithIdp</code>.
            Add <code>&amp;nonce=…</code> to choose the raw nonce.</p>
            <table><tr><th>Provider</th><th>Name</th><th>E-mail</th><th></th></tr>
            \(rows)</table></body></html>
            """
        return SandboxHTTP.text(page, status: .ok, contentType: "text/html; charset=utf-8")
    }

    private func oidcProviders() -> [SandboxProvider] {
        sandbox.withState { state in state.oidcClients.keys.sorted().map(SandboxProvider.oidc) }
    }

    private static func escape(_ text: String) -> String {
        text.replacingOccurrences(of: "&", with: "&amp;").replacingOccurrences(of: "<", with: "&lt;")
            .replacingOccurrences(of: ">", with: "&gt;").replacingOccurrences(of: "\"", with: "&quot;")
    }
}
