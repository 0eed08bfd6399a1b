import Foundation
import HTTPTypes
import HearthFormEncoding
import Hummingbird
import Logging

/// Sign in with Apple's endpoints at `appleid.apple.com`: `/auth/keys`, `/auth/token`, `/auth/revoke` and the
/// discovery document. (`/auth/authorize` is ``AuthorizationRoutes``.)
struct AppleRoutes: Sendable {
    let sandbox: Sandbox

    func add<Context: RequestContext>(to router: RouterGroup<Context>) {
        router.get("auth/keys") { _, _ in self.keys() }
        router.post("auth/token") { request, _ in await self.token(request) }
        router.post("auth/revoke") { request, _ in await self.revoke(request) }
        router.get(".well-known/openid-configuration") { _, _ in self.discovery() }
    }

    func keys() -> Response {
        guard let jwks = try? sandbox.servedJWKS(.apple) else { return Self.error("server_error", status: .internalServerError) }
        return SandboxHTTP.json(jwks)
    }

    func discovery() -> Response {
        sandbox.countDiscoveryFetch(.apple)
        let base = "\(sandbox.baseURL)/\(SandboxProvider.apple.pathPrefix)"
        return SandboxHTTP.json([
            "issuer": .string(Sandbox.appleIssuer),
            "authorization_endpoint": .string("\(base)/auth/authorize"),
            "token_endpoint": .string("\(base)/auth/token"),
            "revocation_endpoint": .string("\(base)/auth/revoke"),
            "jwks_uri": .string("\(base)/auth/keys"),
            "response_types_supported": ["code"],
            "response_modes_supported": ["query", "fragment", "form_post"],
            "subject_types_supported": ["pairwise"],
            "id_token_signing_alg_values_supported": ["RS256"],
            "scopes_supported": ["openid", "email", "name"],
            "token_endpoint_auth_methods_supported": ["client_secret_post"],
            "claims_supported": [
                "aud", "email", "email_verified", "exp", "iat", "is_private_email", "iss", "nonce", "nonce_supported",
                "real_user_status", "sub", "transfer_sub",
            ],
        ])
    }

    /// `POST /auth/token`: authorization-code and refresh-token grants with `client_secret_post`.
    func token(_ request: Request) async -> Response {
        guard SandboxHTTP.isForm(request), let body = await SandboxHTTP.bodyText(request) else {
            return reject("invalid_request", "The request must be application/x-www-form-urlencoded.")
        }
        let form = FormEncoding.dictionary(body)
        guard let grantType = form["grant_type"], !grantType.isEmpty else {
            return reject("invalid_request", "grant_type is missing.")
        }
        guard grantType == "authorization_code" || grantType == "refresh_token" else {
            return reject("unsupported_grant_type", nil)
        }
        if let failure = authenticateClient(form) { return failure }
        let clientID = form["client_id"] ?? ""
        return grantType == "authorization_code" ? redeemCode(form, clientID: clientID) : refresh(form, clientID: clientID)
    }

    private func redeemCode(_ form: [String: String], clientID: String) -> Response {
        guard let code = form["code"], !code.isEmpty else { return reject("invalid_request", "code is missing.") }
        let now = sandbox.now
        let lifetime = sandbox.settings.appleCodeLifetime
        let outcome: Result<AppleGrant, TokenError> = sandbox.withState { state in
            guard var grant = state.appleCodes[code] else {
                return .failure(.init("invalid_grant", "The code has expired or has been revoked."))
            }
            guard !grant.used else { return .failure(.init("invalid_grant", "The code has already been used.")) }
            guard now.timeIntervalSince(grant.issuedAt) <= lifetime else {
                return .failure(.init("invalid_grant", "The code has expired or has been revoked."))
            }
            guard grant.clientID == clientID else {
                return .failure(.init("invalid_grant", "client_id mismatch. The code was not issued to \(clientID)."))
            }
            guard grant.redirectURI == nil || grant.redirectURI == form["redirect_uri"] else {
                return .failure(.init("invalid_grant", "redirect_uri mismatch."))
            }
            grant.used = true
            state.appleCodes[code] = grant
            return .success(grant)
        }
        switch outcome {
        case .failure(let error): return reject(error.error, error.description)
        case .success(let grant):
            let accessToken = "a\(SandboxRandom.hex(bytes: 16)).0.\(SandboxRandom.alphanumeric(4).lowercased()).\(SandboxRandom.base64URL(bytes: 16))"
            let refreshToken =
                "r\(SandboxRandom.hex(bytes: 16)).0.\(SandboxRandom.alphanumeric(4).lowercased()).\(SandboxRandom.base64URL(bytes: 16))"
            _ = sandbox.issueAccessToken(
                accessToken, provider: .apple, identity: grant.identity, clientID: clientID, scopes: [], expiresIn: 3600)
            var refreshGrant = grant
            refreshGrant.used = false
            sandbox.withState { [refreshGrant] in $0.appleRefreshTokens[refreshToken] = refreshGrant }
            guard
                let idToken = try? sandbox.appleIDToken(
                    for: grant.identity, audience: clientID, nonce: grant.nonce, expiresIn: 600, booleansAsStrings: true,
                    accessToken: accessToken, defect: nil, extraClaims: [:], omittedClaims: [])
            else { return Self.error("server_error", status: .internalServerError) }
            return SandboxHTTP.json([
                "access_token": .string(accessToken), "token_type": "Bearer", "expires_in": 3600,
                "refresh_token": .string(refreshToken), "id_token": .string(idToken),
            ])
        }
    }

    private func refresh(_ form: [String: String], clientID: String) -> Response {
        guard let refreshToken = form["refresh_token"], !refreshToken.isEmpty else {
            return reject("invalid_request", "refresh_token is missing.")
        }
        let grant = sandbox.withState { $0.appleRefreshTokens[refreshToken] }
        guard let grant, !grant.used, grant.clientID == clientID else {
            return reject("invalid_grant", "The token has expired or has been revoked.")
        }
        let accessToken = "a\(SandboxRandom.hex(bytes: 16)).0.\(SandboxRandom.alphanumeric(4).lowercased()).\(SandboxRandom.base64URL(bytes: 16))"
        _ = sandbox.issueAccessToken(
            accessToken, provider: .apple, identity: grant.identity, clientID: clientID, scopes: [], expiresIn: 3600)
        return SandboxHTTP.json(["access_token": .string(accessToken), "token_type": "Bearer", "expires_in": 3600])
    }

    /// `POST /auth/revoke` (`client_id`, `client_secret`, `token`, `token_type_hint`): 200 for any token once the
    /// client authenticates (Apple does not reveal whether the token existed); every accepted request is recorded
    /// (``Sandbox/appleRevocations()``).
    func revoke(_ request: Request) async -> Response {
        guard SandboxHTTP.isForm(request), let body = await SandboxHTTP.bodyText(request) else {
            return reject("invalid_request", "The request must be application/x-www-form-urlencoded.")
        }
        let form = FormEncoding.dictionary(body)
        if let failure = authenticateClient(form) { return failure }
        guard let token = form["token"], !token.isEmpty else { return reject("invalid_request", "token is missing.") }
        let clientID = form["client_id"] ?? ""
        let hint = form["token_type_hint"].flatMap { $0.isEmpty ? nil : $0 }
        let now = sandbox.now
        sandbox.withState { state in
            var subject: String?
            if let issued = state.accessTokens[token], issued.provider == .apple, issued.clientID == clientID {
                state.accessTokens[token]?.revoked = true
                subject = issued.identity.subject
            }
            if let grant = state.appleRefreshTokens[token], grant.clientID == clientID {
                // A refresh token takes the access tokens issued with it along.
                state.appleRefreshTokens[token]?.used = true
                for (key, issued) in state.accessTokens
                where issued.provider == .apple && issued.clientID == clientID && issued.identity.subject == grant.identity.subject {
                    state.accessTokens[key]?.revoked = true
                }
                subject = grant.identity.subject
            }
            state.appleRevocations.append(
                AppleRevocation(clientID: clientID, token: token, tokenTypeHint: hint, subject: subject, revokedAt: now))
        }
        return Response(status: .ok)
    }

    /// `client_id` must be the Services ID or a bundle id, `client_secret` a valid ES256 JWT for it.
    private func authenticateClient(_ form: [String: String]) -> Response? {
        let apple = sandbox.credentials.apple
        guard let clientID = form["client_id"], apple.clientIDs.contains(clientID) else {
            return reject("invalid_client", nil, reason: "unknown client_id")
        }
        guard let secret = form["client_secret"] else { return reject("invalid_client", nil, reason: "no client_secret") }
        if let problem = AppleClientSecret.problem(with: secret, clientID: clientID, apple: apple, now: sandbox.now) {
            return reject("invalid_client", nil, reason: problem)
        }
        return nil
    }

    private func reject(_ error: String, _ description: String?, reason: String? = nil) -> Response {
        sandbox.logger.info("apple rejected a request", metadata: ["error": "\(error)", "reason": "\(reason ?? description ?? "")"])
        return Self.error(error, description: description)
    }

    /// Apple's `ErrorResponse`: `{"error": …[, "error_description": …]}` with HTTP 400.
    static func error(_ error: String, description: String? = nil, status: HTTPResponse.Status = .badRequest) -> Response {
        var body: [String: SandboxJSON] = ["error": .string(error)]
        if let description { body["error_description"] = .string(description) }
        return SandboxHTTP.json(.object(body), status: status)
    }

    /// An Apple token-endpoint error.
    struct TokenError: Error {
        let error: String
        let description: String

        init(_ error: String, _ description: String) {
            self.error = error
            self.description = description
        }
    }
}
