import Foundation
import HTTPTypes
import Hummingbird
import Logging

/// Yahoo's OpenID Connect endpoints (api.login.yahoo.com): `/.well-known/openid-configuration`,
/// `/openid/v1/certs` (EC P-256 keys) and `/openid/v1/userinfo`. (The authorize page `oauth2/request_auth` and
/// the token endpoint `oauth2/get_token` are ``AuthorizationRoutes``.)
struct YahooRoutes: Sendable {
    let sandbox: Sandbox

    func add<Context: RequestContext>(to router: RouterGroup<Context>) {
        router.get(".well-known/openid-configuration") { _, _ in self.discovery() }
        router.get("openid/v1/certs") { _, _ in self.certs() }
        router.get("openid/v1/userinfo") { request, _ in self.userInfo(request) }
        router.post("openid/v1/userinfo") { request, _ in self.userInfo(request) }
    }

    func discovery() -> Response {
        sandbox.countDiscoveryFetch(.yahoo)
        let base = "\(sandbox.baseURL)/\(SandboxProvider.yahoo.pathPrefix)"
        return SandboxHTTP.json([
            "issuer": .string(Sandbox.yahooIssuer),
            "authorization_endpoint": .string("\(base)/oauth2/request_auth"),
            "token_endpoint": .string("\(base)/oauth2/get_token"),
            "userinfo_endpoint": .string("\(base)/openid/v1/userinfo"),
            "jwks_uri": .string("\(base)/openid/v1/certs"),
            "response_types_supported": ["code", "token", "id_token", "code token", "code id_token", "token id_token", "code token id_token"],
            "subject_types_supported": ["public"],
            "id_token_signing_alg_values_supported": ["ES256"],
            "scopes_supported": ["openid", "email", "profile"],
            "token_endpoint_auth_methods_supported": ["client_secret_basic", "client_secret_post"],
            "claims_supported": [
                "aud", "email", "email_verified", "exp", "family_name", "given_name", "iat", "iss", "locale", "name", "sub",
                "auth_time", "nonce", "nickname", "picture",
            ],
            "grant_types_supported": ["authorization_code", "refresh_token"],
            "code_challenge_methods_supported": ["plain", "S256"],
            "request_uri_parameter_supported": false,
        ])
    }

    func certs() -> Response {
        guard let jwks = try? sandbox.servedJWKS(.yahoo) else {
            return SandboxHTTP.json(["error": "server_error"], status: .internalServerError)
        }
        return SandboxHTTP.json(jwks)
    }

    /// `sub`, then the profile and email claims the token's scopes allow; 401 `invalid_token` for a missing,
    /// unknown, expired or revoked token.
    func userInfo(_ request: Request) -> Response {
        guard let value = SandboxHTTP.authorization(request, schemes: ["bearer"]),
            let token = sandbox.accessToken(value, provider: .yahoo), !token.revoked,
            token.expiresAt.map({ $0 > sandbox.now }) ?? true
        else {
            sandbox.logger.info("yahoo userinfo refused an access token")
            return SandboxHTTP.json(
                ["error": "invalid_token", "error_description": "The access token is invalid or has expired."], status: .unauthorized,
                headers: [.wwwAuthenticate: "Bearer error=\"invalid_token\""])
        }
        let identity = token.identity
        var answer: [String: SandboxJSON] = ["sub": .string(identity.subject)]
        if token.scopes.contains("profile") {
            for (name, value) in Sandbox.yahooProfile(identity) { answer[name] = .string(value) }
        }
        if token.scopes.contains("email"), let email = identity.email {
            answer["email"] = .string(email)
            answer["email_verified"] = .bool(identity.emailVerified)
        }
        return SandboxHTTP.json(.object(answer))
    }
}
