import Foundation
import HTTPTypes
import Hummingbird
import Logging

/// Generic OpenID Connect issuers at `oidc/<name>`: the discovery document at
/// `<issuer>/.well-known/openid-configuration` and the JWKS at `<issuer>/jwks`. (The authorize and token
/// endpoints the discovery document names are ``AuthorizationRoutes``.)
struct OIDCRoutes: Sendable {
    let sandbox: Sandbox

    func add<Context: RequestContext>(to router: RouterGroup<Context>) {
        router.get(":issuer/.well-known/openid-configuration") { _, context in
            self.discovery(context.parameters.get("issuer") ?? "")
        }
        router.get(":issuer/jwks") { _, context in self.jwks(context.parameters.get("issuer") ?? "") }
    }

    func discovery(_ name: String) -> Response {
        guard sandbox.oidcClient(name) != nil else { return notFound() }
        sandbox.countDiscoveryFetch(.oidc(name))
        let issuer = sandbox.oidcIssuer(name)
        return SandboxHTTP.json([
            "issuer": .string(issuer),
            "authorization_endpoint": .string("\(issuer)/authorize"),
            "token_endpoint": .string("\(issuer)/token"),
            "jwks_uri": .string("\(issuer)/jwks"),
            "response_types_supported": ["code", "id_token", "code id_token"],
            "response_modes_supported": ["query", "fragment", "form_post"],
            "subject_types_supported": ["public"],
            "id_token_signing_alg_values_supported": ["RS256"],
            "scopes_supported": ["openid", "email", "profile"],
            "token_endpoint_auth_methods_supported": ["client_secret_post", "client_secret_basic"],
            "grant_types_supported": ["authorization_code", "implicit"],
            "claims_supported": [
                "iss", "aud", "sub", "iat", "exp", "auth_time", "nonce", "email", "email_verified", "name",
                "given_name", "family_name", "picture", "locale",
            ],
        ])
    }

    func jwks(_ name: String) -> Response {
        guard sandbox.oidcClient(name) != nil else { return notFound() }
        guard let jwks = try? sandbox.servedJWKS(.oidc(name)) else {
            return SandboxHTTP.json(["error": "server_error"], status: .internalServerError)
        }
        return SandboxHTTP.json(jwks)
    }

    private func notFound() -> Response {
        SandboxHTTP.json(["error": "not_found", "error_description": "No such issuer."], status: .notFound)
    }
}
