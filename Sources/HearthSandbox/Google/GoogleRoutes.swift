import Foundation
import HTTPTypes
import HearthFormEncoding
import Hummingbird
import Logging

/// Google's verification endpoints, all under one prefix although Google spreads them over several hosts:
/// `/oauth2/v3/certs` (www.googleapis.com), `/tokeninfo` (oauth2.googleapis.com, also `/oauth2/v3/tokeninfo`),
/// `/oauth2/v3/userinfo` and `/v1/userinfo` (OIDC userinfo), `/oauth2/v2/userinfo` and `/userinfo/v2/me`
/// (legacy v2 shape) and `/.well-known/openid-configuration`. (The authorize page and token endpoint are
/// ``AuthorizationRoutes``.)
struct GoogleRoutes: Sendable {
    let sandbox: Sandbox

    func add<Context: RequestContext>(to router: RouterGroup<Context>) {
        router.get("oauth2/v3/certs") { _, _ in self.certs() }
        for path in ["tokeninfo", "oauth2/v3/tokeninfo"] {
            router.get(RouterPath(path)) { request, _ in await self.tokenInfo(request) }
            router.post(RouterPath(path)) { request, _ in await self.tokenInfo(request) }
        }
        for path in ["oauth2/v3/userinfo", "v1/userinfo"] {
            router.get(RouterPath(path)) { request, _ in self.userInfo(request) }
        }
        for path in ["oauth2/v2/userinfo", "userinfo/v2/me"] {
            router.get(RouterPath(path)) { request, _ in self.userInfoV2(request) }
        }
        router.get(".well-known/openid-configuration") { _, _ in self.discovery() }
    }

    func certs() -> Response {
        guard let jwks = try? sandbox.servedJWKS(.google) else {
            return SandboxHTTP.json(["error": "internal_failure"], status: .internalServerError)
        }
        var headers: HTTPFields = [:]
        if let maxAge = sandbox.settings.jwksMaxAge {
            headers[.cacheControl] = "public, max-age=\(maxAge), must-revalidate, no-transform"
        }
        return SandboxHTTP.json(jwks, headers: headers)
    }

    func discovery() -> Response {
        sandbox.countDiscoveryFetch(.google)
        let base = "\(sandbox.baseURL)/\(SandboxProvider.google.pathPrefix)"
        return SandboxHTTP.json([
            "issuer": .string(Sandbox.googleIssuer),
            "authorization_endpoint": .string("\(base)/o/oauth2/v2/auth"),
            "token_endpoint": .string("\(base)/token"),
            "userinfo_endpoint": .string("\(base)/v1/userinfo"),
            "revocation_endpoint": .string("\(base)/revoke"),
            "jwks_uri": .string("\(base)/oauth2/v3/certs"),
            "response_types_supported": [
                "code", "token", "id_token", "code token", "code id_token", "token id_token", "code token id_token", "none",
            ],
            "subject_types_supported": ["public"],
            "id_token_signing_alg_values_supported": ["RS256"],
            "scopes_supported": ["openid", "email", "profile"],
            "token_endpoint_auth_methods_supported": ["client_secret_post", "client_secret_basic"],
            "claims_supported": ["aud", "email", "email_verified", "exp", "family_name", "given_name", "iat", "iss", "name", "picture", "sub"],
            "code_challenge_methods_supported": ["plain", "S256"],
            "grant_types_supported": [
                "authorization_code", "refresh_token", "urn:ietf:params:oauth:grant-type:device_code",
                "urn:ietf:params:oauth:grant-type:jwt-bearer",
            ],
        ])
    }

    /// `tokeninfo?id_token=…` answers the verified claims, all as strings, plus `alg`, `kid`, `typ`;
    /// `tokeninfo?access_token=…` answers `azp`, `aud`, `sub`, `scope`, `exp`, `expires_in`, `email`,
    /// `email_verified`, `access_type`. Anything invalid: 400 `invalid_token` / `Invalid Value`.
    func tokenInfo(_ request: Request) async -> Response {
        var parameters = SandboxHTTP.query(request)
        if request.method == .post, SandboxHTTP.isForm(request), let body = await SandboxHTTP.bodyText(request) {
            parameters.merge(FormEncoding.dictionary(body)) { query, _ in query }
        }
        if let idToken = parameters["id_token"] {
            guard let (header, claims) = sandbox.verifiedClaims(idToken, provider: .google), let object = claims.objectValue else {
                return invalidValue()
            }
            var answer = object.mapValues { SandboxJSON.string(Self.text($0)) }
            for name in ["alg", "kid", "typ"] {
                if let value = header[name] { answer[name] = .string(Self.text(value)) }
            }
            return SandboxHTTP.json(.object(answer))
        }
        if let accessToken = parameters["access_token"] {
            guard let token = validAccessToken(accessToken), let expiresAt = token.expiresAt else { return invalidValue() }
            var answer: [String: SandboxJSON] = [
                "azp": .string(token.clientID), "aud": .string(token.clientID), "sub": .string(token.identity.subject),
                "scope": .string(token.scopes.joined(separator: " ")),
                "exp": .string(String(Sandbox.seconds(expiresAt))),
                "expires_in": .string(String(max(0, Int(expiresAt.timeIntervalSince(sandbox.now))))),
                "access_type": "online",
            ]
            if token.scopes.contains(where: Self.isEmailScope), let email = token.identity.email {
                answer["email"] = .string(email)
                answer["email_verified"] = .string(token.identity.emailVerified ? "true" : "false")
            }
            return SandboxHTTP.json(.object(answer))
        }
        return invalidValue()
    }

    /// OIDC userinfo: `sub`, then profile and email fields according to the token's scopes.
    func userInfo(_ request: Request) -> Response {
        guard let token = bearerToken(request).flatMap(validAccessToken) else {
            return SandboxHTTP.json(
                ["error": "invalid_request", "error_description": "Invalid Credentials"], status: .unauthorized,
                headers: [.wwwAuthenticate: "Bearer realm=\"https://accounts.google.com/\", error=\"invalid_token\""])
        }
        let identity = token.identity
        var answer: [String: SandboxJSON] = ["sub": .string(identity.subject)]
        if token.scopes.contains(where: Self.isProfileScope) {
            for (name, value) in [
                ("name", identity.displayName), ("given_name", identity.givenName), ("family_name", identity.familyName),
                ("picture", identity.photoURL), ("locale", identity.locale),
            ] {
                if let value { answer[name] = .string(value) }
            }
        }
        if token.scopes.contains(where: Self.isEmailScope), let email = identity.email {
            answer["email"] = .string(email)
            answer["email_verified"] = .bool(identity.emailVerified)
        }
        if let domain = identity.hostedDomain { answer["hd"] = .string(domain) }
        return SandboxHTTP.json(.object(answer))
    }

    /// Legacy v2 userinfo: `id`, `email`, `verified_email`, `name`, `given_name`, `family_name`, `picture`,
    /// `locale`, `hd`.
    func userInfoV2(_ request: Request) -> Response {
        guard let token = bearerToken(request).flatMap(validAccessToken) else {
            return SandboxHTTP.json(
                [
                    "error": [
                        "code": 401,
                        "message":
                            "Request had invalid authentication credentials. Expected OAuth 2 access token, login cookie or other valid authentication credential. See https://developers.google.com/identity/sign-in/web/devconsole-project.",
                        "status": "UNAUTHENTICATED",
                    ]
                ], status: .unauthorized, headers: [.wwwAuthenticate: "Bearer realm=\"https://accounts.google.com/\", error=\"invalid_token\""])
        }
        let identity = token.identity
        var answer: [String: SandboxJSON] = ["id": .string(identity.subject)]
        if token.scopes.contains(where: Self.isEmailScope), let email = identity.email {
            answer["email"] = .string(email)
            answer["verified_email"] = .bool(identity.emailVerified)
        }
        if token.scopes.contains(where: Self.isProfileScope) {
            for (name, value) in [
                ("name", identity.displayName), ("given_name", identity.givenName), ("family_name", identity.familyName),
                ("picture", identity.photoURL), ("locale", identity.locale),
            ] {
                if let value { answer[name] = .string(value) }
            }
        }
        if let domain = identity.hostedDomain { answer["hd"] = .string(domain) }
        return SandboxHTTP.json(.object(answer))
    }

    private func bearerToken(_ request: Request) -> String? {
        SandboxHTTP.authorization(request, schemes: ["bearer"]) ?? SandboxHTTP.query(request)["access_token"]
    }

    private func validAccessToken(_ value: String) -> IssuedAccessToken? {
        guard let token = sandbox.accessToken(value, provider: .google), !token.revoked,
            token.expiresAt.map({ $0 > sandbox.now }) ?? true
        else { return nil }
        return token
    }

    private func invalidValue() -> Response {
        sandbox.logger.info("google tokeninfo rejected a token")
        return SandboxHTTP.json(["error": "invalid_token", "error_description": "Invalid Value"], status: .badRequest)
    }

    private static func isEmailScope(_ scope: String) -> Bool {
        scope == "email" || scope == "https://www.googleapis.com/auth/userinfo.email"
    }

    private static func isProfileScope(_ scope: String) -> Bool {
        scope == "profile" || scope == "https://www.googleapis.com/auth/userinfo.profile"
    }

    /// A claim as tokeninfo renders it: strings as is, everything else as its JSON text.
    private static func text(_ value: SandboxJSON) -> String {
        switch value {
        case .string(let text): text
        case .bool(let flag): flag ? "true" : "false"
        case .int(let number): String(number)
        default: String(decoding: value.jsonData, as: UTF8.self)
        }
    }
}
