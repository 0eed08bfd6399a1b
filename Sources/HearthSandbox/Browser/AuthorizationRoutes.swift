import Crypto
import Foundation
import HTTPTypes
import HearthBase64URL
import Hummingbird
import Logging

/// The browser half of the OAuth 2.0 providers: the authorization (sign-in and consent) page and the code
/// exchange, each checking what the relying party sends as the real provider does.
///
/// | provider | authorize | token |
/// |---|---|---|
/// | Google | `o/oauth2/v2/auth` | `token` (client secret post or basic, PKCE) |
/// | Microsoft | `{tenant}/oauth2/v2.0/authorize` (accounts of that tenant) | `{tenant}/oauth2/v2.0/token` |
/// | Apple | `auth/authorize` (`form_post` with `user` JSON the first time) | the existing `auth/token` (ES256 client secret) |
/// | Facebook | `[vXX.X/]dialog/oauth` | `[vXX.X/]oauth/access_token` (app secret) |
/// | GitHub | `login/oauth/authorize` | `login/oauth/access_token` (errors with HTTP 200) |
/// | Yahoo | `oauth2/request_auth` | `oauth2/get_token` (client secret post or basic, PKCE) |
/// | OIDC | `oidc/<name>/authorize` | `oidc/<name>/token` |
///
/// Codes are single-use and live ten minutes; `redirect_uri` must repeat the authorization request's; a
/// PKCE `code_challenge` (S256 or plain) must be matched by the `code_verifier`.
struct AuthorizationRoutes: Sendable {
    let sandbox: Sandbox
    let provider: SandboxProvider

    /// How long an authorization code can be exchanged.
    static let codeLifetime: TimeInterval = 600

    func add<Context: RequestContext>(to router: RouterGroup<Context>) {
        switch provider {
        case .google:
            router.on("o/oauth2/v2/auth", method: .get) { request, _ in await self.authorize(request, tenant: nil) }
            router.on("o/oauth2/v2/auth", method: .post) { request, _ in await self.authorize(request, tenant: nil) }
            router.post("token") { request, _ in await self.token(request, tenant: nil) }
        case .microsoft:
            router.on(":tenant/oauth2/v2.0/authorize", method: .get) { request, context in
                await self.authorize(request, tenant: context.parameters.get("tenant"))
            }
            router.on(":tenant/oauth2/v2.0/authorize", method: .post) { request, context in
                await self.authorize(request, tenant: context.parameters.get("tenant"))
            }
            router.post(":tenant/oauth2/v2.0/token") { request, context in await self.token(request, tenant: context.parameters.get("tenant")) }
        case .apple:
            router.on("auth/authorize", method: .get) { request, _ in await self.authorize(request, tenant: nil) }
            router.on("auth/authorize", method: .post) { request, _ in await self.authorize(request, tenant: nil) }
        case .facebook:
            for path in ["dialog/oauth", ":version/dialog/oauth"] {
                router.on(RouterPath(path), method: .get) { request, _ in await self.authorize(request, tenant: nil) }
                router.on(RouterPath(path), method: .post) { request, _ in await self.authorize(request, tenant: nil) }
            }
            for path in ["oauth/access_token", ":version/oauth/access_token"] {
                router.on(RouterPath(path), method: .get) { request, _ in await self.token(request, tenant: nil) }
                router.on(RouterPath(path), method: .post) { request, _ in await self.token(request, tenant: nil) }
            }
        case .github:
            router.on("login/oauth/authorize", method: .get) { request, _ in await self.authorize(request, tenant: nil) }
            router.on("login/oauth/authorize", method: .post) { request, _ in await self.authorize(request, tenant: nil) }
            router.post("login/oauth/access_token") { request, _ in await self.token(request, tenant: nil) }
        case .yahoo:
            router.on("oauth2/request_auth", method: .get) { request, _ in await self.authorize(request, tenant: nil) }
            router.on("oauth2/request_auth", method: .post) { request, _ in await self.authorize(request, tenant: nil) }
            router.post("oauth2/get_token") { request, _ in await self.token(request, tenant: nil) }
        case .twitter:
            break
        case .oidc:
            // Issuers come and go at run time: one route for all, the issuer from the path.
            router.on(":issuer/authorize", method: .get) { request, context in
                await self.issuer(context.parameters.get("issuer")).authorize(request, tenant: nil)
            }
            router.on(":issuer/authorize", method: .post) { request, context in
                await self.issuer(context.parameters.get("issuer")).authorize(request, tenant: nil)
            }
            router.post(":issuer/token") { request, context in await self.issuer(context.parameters.get("issuer")).token(request, tenant: nil) }
        }
    }

    /// The routes of the generic OIDC issuer `name`.
    private func issuer(_ name: String?) -> AuthorizationRoutes {
        AuthorizationRoutes(sandbox: sandbox, provider: .oidc(name ?? ""))
    }

    // MARK: Provider facts

    private var name: String {
        switch provider {
        case .apple: "Apple"
        case .microsoft: "Microsoft"
        case .google: "Google"
        case .facebook: "Facebook"
        case .github: "GitHub"
        case .twitter: "Twitter"
        case .yahoo: "Yahoo"
        case .oidc(let name): "OIDC (\(name))"
        }
    }

    private var accent: String {
        switch provider {
        case .apple: "#1d1d1f"
        case .microsoft: "#2f6fb5"
        case .google: "#1a73e8"
        case .facebook: "#1877f2"
        case .github: "#24292f"
        case .twitter: "#1d9bf0"
        case .yahoo: "#6001d2"
        case .oidc: "#5b4fc4"
        }
    }

    /// The secret of a registered client, or `nil` when the client id is unknown.
    private func clientSecret(_ clientID: String) -> String? {
        let credentials = sandbox.credentials
        switch provider {
        case .google:
            return credentials.google.clientIDs.contains(clientID) ? credentials.google.webClientSecret : nil
        case .microsoft:
            return clientID == credentials.microsoft.clientID ? credentials.microsoft.clientSecret : nil
        case .apple:
            return credentials.apple.clientIDs.contains(clientID) ? "" : nil
        case .facebook:
            return sandbox.facebookApp(clientID)?.secret
        case .github:
            return sandbox.githubSecret(clientID)
        case .yahoo:
            return sandbox.yahooSecret(clientID)
        case .twitter:
            return nil
        case .oidc(let name):
            guard let client = sandbox.oidcClient(name), client.clientID == clientID else { return nil }
            return client.clientSecret
        }
    }

    /// The accounts that may sign in at this page (Microsoft: those of the URL's tenant).
    private func identities(tenant: String?) -> [SandboxIdentity] {
        let all = sandbox.identities(for: provider)
        guard case .microsoft = provider, let tenant else { return all }
        switch tenant.lowercased() {
        case "common": return all
        case "organizations": return all.filter { !$0.isMicrosoftPersonalAccount }
        default:
            guard case .success(let id?) = sandbox.microsoftTenant(tenant) else { return [] }
            return all.filter { $0.tenantID?.lowercased() == id.lowercased() }
        }
    }

    // MARK: Authorize

    func authorize(_ request: Request, tenant: String?) async -> Response {
        var parameters = SandboxHTTP.query(request)
        if request.method == .post, SandboxHTTP.isForm(request), let body = await SandboxHTTP.bodyText(request) {
            parameters.merge(FormEncoding.dictionary(body)) { _, posted in posted }
        }
        sandbox.withState { $0.lastAuthorizationParameters[provider] = parameters.filter { !$0.key.hasPrefix("sandbox_") } }
        if case .microsoft = provider, let tenant, case .failure = sandbox.microsoftTenant(tenant) {
            return ConsentPage.refusal(name, title: "AADSTS90002", detail: "Tenant '\(tenant)' not found.")
        }
        guard let clientID = parameters["client_id"], !clientID.isEmpty, clientSecret(clientID) != nil else {
            sandbox.logger.info("sandbox authorize refused an unknown client", metadata: ["provider": "\(provider)"])
            return ConsentPage.refusal(name, title: "invalid_client", detail: "The OAuth client was not found.")
        }
        guard let redirectURI = parameters["redirect_uri"], let redirect = URL(string: redirectURI), redirect.scheme != nil else {
            return ConsentPage.refusal(name, title: "invalid_request", detail: "redirect_uri is missing or not absolute.")
        }
        let state = parameters["state"]
        let scopes = (parameters["scope"] ?? "").split(whereSeparator: { $0 == " " || $0 == "," }).map(String.init)
        let formPost = parameters["response_mode"] == "form_post"
        func fail(_ error: String, _ description: String) -> Response {
            respond(
                to: redirectURI, formPost: formPost,
                fields: [("error", error), ("error_description", description)] + (state.map { [("state", $0)] } ?? []))
        }
        if provider != .github, parameters["response_type"] != "code" {
            return fail("unsupported_response_type", "response_type must be code.")
        }
        if provider == .apple, !formPost, scopes.contains(where: { $0 == "name" || $0 == "email" }) {
            return fail("invalid_request", "response_mode must be form_post when name or email scope is requested.")
        }
        if let method = parameters["code_challenge_method"], method != "S256", method != "plain" {
            return fail("invalid_request", "code_challenge_method must be S256 or plain.")
        }

        let candidates = identities(tenant: tenant)
        switch parameters["sandbox_decision"] {
        case "cancel":
            sandbox.logger.info("sandbox consent cancelled", metadata: ["provider": "\(provider)"])
            if provider == .apple {
                return respond(
                    to: redirectURI, formPost: formPost, fields: [("error", "user_cancelled_authorize")] + (state.map { [("state", $0)] } ?? []))
            }
            return fail("access_denied", "The user denied the request.")
        case "approve":
            guard let subject = parameters["sandbox_subject"], let identity = candidates.first(where: { $0.subject == subject }) else {
                return ConsentPage.refusal(name, title: "Unknown account", detail: "Choose one of the accounts offered on the sign-in page.")
            }
            return approve(identity, clientID: clientID, redirectURI: redirectURI, scopes: scopes, parameters: parameters, formPost: formPost)
        default:
            let hint = parameters["login_hint"]?.lowercased()
            let preselected = hint.flatMap { hint in candidates.first { $0.email?.lowercased() == hint || $0.preferredUsername?.lowercased() == hint }
            }
            let passed = parameters.filter { !ConsentPage.protocolParameters.contains($0.key) }.sorted { $0.key < $1.key }.map { ($0.key, $0.value) }
            return ConsentPage(
                providerName: name, accent: accent, clientID: clientID, redirectURI: redirectURI, scopes: scopes,
                passedParameters: passed, identities: candidates, preselected: preselected?.subject,
                hiddenFields: parameters.filter { !$0.key.hasPrefix("sandbox_") }.sorted { $0.key < $1.key }.map { ($0.key, $0.value) },
                note: tenant.map { "Tenant: \($0)" }
            ).response
        }
    }

    private func approve(
        _ identity: SandboxIdentity, clientID: String, redirectURI: String, scopes: [String], parameters: [String: String], formPost: Bool
    ) -> Response {
        let state = parameters["state"]
        let nonce = parameters["nonce"].flatMap { $0.isEmpty ? nil : $0 }
        if provider == .apple {
            let code =
                "c\(SandboxRandom.hex(bytes: 16)).0.\(SandboxRandom.string(4, from: "abcdefghijklmnopqrstuvwxyz")).\(SandboxRandom.base64URL(bytes: 16))"
            let grant = AppleGrant(
                identity: identity, clientID: clientID, redirectURI: redirectURI, nonce: nonce.map(SandboxNonce.claim), issuedAt: sandbox.now)
            // Apple sends the name (and e-mail) only the first time an account approves an app.
            let firstTime = sandbox.withState { state -> Bool in
                state.appleCodes[code] = grant
                return state.appleConsents.insert("\(clientID)|\(identity.subject)").inserted
            }
            var fields: [(String, String)] = [("code", code)]
            if let state { fields.append(("state", state)) }
            if firstTime, scopes.contains("name") || scopes.contains("email") {
                var user: [String: SandboxJSON] = [:]
                if scopes.contains("name") {
                    var name: [String: SandboxJSON] = [:]
                    if let first = identity.givenName { name["firstName"] = .string(first) }
                    if let last = identity.familyName { name["lastName"] = .string(last) }
                    user["name"] = .object(name)
                }
                if scopes.contains("email"), let email = identity.email { user["email"] = .string(email) }
                fields.append(("user", String(decoding: SandboxJSON.object(user).jsonData, as: UTF8.self)))
            }
            return respond(to: redirectURI, formPost: formPost, fields: fields)
        }
        let code = SandboxRandom.base64URL(bytes: 24)
        let grant = AuthorizationGrant(
            provider: provider, identity: identity, clientID: clientID, redirectURI: redirectURI, scopes: scopes, nonce: nonce,
            codeChallenge: parameters["code_challenge"].flatMap { $0.isEmpty ? nil : $0 },
            codeChallengeMethod: parameters["code_challenge_method"], issuedAt: sandbox.now)
        sandbox.withState { $0.authorizationCodes[code] = grant }
        return respond(to: redirectURI, formPost: formPost, fields: [("code", code)] + (state.map { [("state", $0)] } ?? []))
    }

    /// Sends the browser back: a 303 with the fields in the query, or an auto-submitting `form_post` page.
    private func respond(to redirectURI: String, formPost: Bool, fields: [(String, String)]) -> Response {
        if formPost { return ConsentPage.formPost(action: redirectURI, fields: fields) }
        let separator = redirectURI.contains("?") ? "&" : "?"
        let location = redirectURI + separator + FormEncoding.encode(fields)
        return Response(status: .seeOther, headers: [.location: location])
    }

    // MARK: Token

    func token(_ request: Request, tenant: String?) async -> Response {
        var form = SandboxHTTP.query(request)
        if SandboxHTTP.isForm(request), let body = await SandboxHTTP.bodyText(request) {
            form.merge(FormEncoding.dictionary(body)) { _, posted in posted }
        }
        if let basic = SandboxHTTP.basicCredentials(request) {
            form["client_id"] = FormEncoding.percentDecode(basic.user, plusIsSpace: true) ?? basic.user
            form["client_secret"] = FormEncoding.percentDecode(basic.password, plusIsSpace: true) ?? basic.password
        }
        guard let clientID = form["client_id"], let expected = clientSecret(clientID), provider != .apple,
            let given = form["client_secret"], Self.constantTimeEqual(given, expected)
        else {
            sandbox.logger.info("sandbox token endpoint refused the client", metadata: ["provider": "\(provider)"])
            return tokenError("invalid_client", "Client authentication failed.", status: .unauthorized)
        }
        if provider != .github, provider != .facebook, form["grant_type"] != "authorization_code" {
            return tokenError("unsupported_grant_type", "grant_type must be authorization_code.", status: .badRequest)
        }
        guard let code = form["code"], !code.isEmpty else { return tokenError("invalid_request", "code is missing.", status: .badRequest) }
        let now = sandbox.now
        let provider = self.provider
        let outcome: Result<AuthorizationGrant, TokenFailure> = sandbox.withState { state in
            guard var grant = state.authorizationCodes[code], grant.provider == provider else {
                return .failure(.init("invalid_grant", "The code is unknown."))
            }
            guard !grant.used else { return .failure(.init("invalid_grant", "The code has already been used.")) }
            guard now.timeIntervalSince(grant.issuedAt) <= Self.codeLifetime else { return .failure(.init("invalid_grant", "The code has expired.")) }
            guard grant.clientID == clientID else { return .failure(.init("invalid_grant", "The code was issued to another client.")) }
            guard form["redirect_uri"] == grant.redirectURI else { return .failure(.init("invalid_grant", "redirect_uri mismatch.")) }
            if let challenge = grant.codeChallenge {
                guard let verifier = form["code_verifier"], !verifier.isEmpty else {
                    return .failure(.init("invalid_grant", "code_verifier is missing (PKCE)."))
                }
                let computed = grant.codeChallengeMethod == "plain" ? verifier : Base64URL.encode(SHA256.hash(data: Data(verifier.utf8)))
                guard computed == challenge else {
                    return .failure(.init("invalid_grant", "code_verifier does not match the code_challenge (PKCE)."))
                }
            }
            grant.used = true
            state.authorizationCodes[code] = grant
            return .success(grant)
        }
        switch outcome {
        case .failure(let failure):
            sandbox.logger.info("sandbox token endpoint refused a code", metadata: ["provider": "\(provider)", "reason": "\(failure.description)"])
            return tokenError(failure.error, failure.description, status: .badRequest)
        case .success(let grant):
            do {
                return try issue(grant, request: request)
            } catch {
                return tokenError("server_error", "\(error)", status: .internalServerError)
            }
        }
    }

    private func issue(_ grant: AuthorizationGrant, request: Request) throws -> Response {
        let nonce = grant.nonce.map(SandboxNonce.claim)
        let scope = grant.scopes.joined(separator: " ")
        switch provider {
        case .google:
            let scopes = grant.scopes.map {
                $0 == "email"
                    ? "https://www.googleapis.com/auth/userinfo.email" : $0 == "profile" ? "https://www.googleapis.com/auth/userinfo.profile" : $0
            }
            let accessToken = try sandbox.googleAccessToken(for: grant.identity, clientID: grant.clientID, scopes: scopes)
            let idToken = try sandbox.googleIDToken(
                for: grant.identity, audience: grant.clientID, nonce: nonce, includeProfile: grant.scopes.contains("profile"),
                accessToken: accessToken)
            return SandboxHTTP.json([
                "access_token": .string(accessToken), "expires_in": 3599, "scope": .string(scopes.joined(separator: " ")),
                "token_type": "Bearer", "id_token": .string(idToken),
            ])
        case .microsoft:
            let accessToken = sandbox.issueAccessToken(
                "EwB\(SandboxRandom.alphanumeric(120))", provider: .microsoft, identity: grant.identity, clientID: grant.clientID,
                scopes: grant.scopes, expiresIn: 3599)
            let idToken = try sandbox.microsoftIDToken(for: grant.identity, clientID: grant.clientID, nonce: nonce)
            return SandboxHTTP.json([
                "token_type": "Bearer", "scope": .string(scope), "expires_in": 3599, "ext_expires_in": 3599,
                "access_token": .string(accessToken), "id_token": .string(idToken),
            ])
        case .oidc(let name):
            let accessToken = sandbox.issueAccessToken(
                SandboxRandom.base64URL(bytes: 32), provider: provider, identity: grant.identity, clientID: grant.clientID,
                scopes: grant.scopes, expiresIn: 3600)
            let idToken = try sandbox.oidcIDToken(for: grant.identity, issuerName: name, clientID: grant.clientID, nonce: nonce)
            return SandboxHTTP.json([
                "access_token": .string(accessToken), "token_type": "Bearer", "expires_in": 3600, "id_token": .string(idToken),
                "scope": .string(scope),
            ])
        case .yahoo:
            let accessToken = try sandbox.yahooAccessToken(for: grant.identity, clientID: grant.clientID, scopes: grant.scopes)
            let idToken = try sandbox.yahooIDToken(for: grant.identity, clientID: grant.clientID, nonce: nonce, accessToken: accessToken)
            return SandboxHTTP.json([
                "access_token": .string(accessToken), "token_type": "bearer", "expires_in": 3600,
                "refresh_token": .string(SandboxRandom.base64URL(bytes: 48)), "xoauth_yahoo_guid": .string(grant.identity.subject),
                "id_token": .string(idToken),
            ])
        case .facebook:
            let accessToken = try sandbox.facebookAccessToken(for: grant.identity, appID: grant.clientID, scopes: grant.scopes)
            return SandboxHTTP.json(["access_token": .string(accessToken), "token_type": "bearer", "expires_in": 5_183_944])
        case .github:
            let accessToken = try sandbox.githubAccessToken(for: grant.identity, clientID: grant.clientID, scopes: grant.scopes)
            let fields = [("access_token", accessToken), ("scope", grant.scopes.joined(separator: ",")), ("token_type", "bearer")]
            if wantsJSON(request) {
                return SandboxHTTP.json(.object(Dictionary(uniqueKeysWithValues: fields.map { ($0.0, SandboxJSON.string($0.1)) })))
            }
            return SandboxHTTP.text(FormEncoding.encode(fields), status: .ok, contentType: "application/x-www-form-urlencoded; charset=utf-8")
        case .apple, .twitter:
            return tokenError("unsupported_grant_type", nil, status: .badRequest)
        }
    }

    private func wantsJSON(_ request: Request) -> Bool {
        HTTPField.Name("Accept").flatMap { request.headers[$0] }?.contains("json") ?? false
    }

    /// The provider's error shape: GitHub answers HTTP 200 with `error`; Facebook a Graph error object.
    private func tokenError(_ error: String, _ description: String?, status: HTTPResponse.Status) -> Response {
        switch provider {
        case .github:
            let code = error == "invalid_client" ? "incorrect_client_credentials" : error == "invalid_grant" ? "bad_verification_code" : error
            return SandboxHTTP.json([
                "error": .string(code), "error_description": .string(description ?? code),
                "error_uri": "https://docs.github.com/apps/managing-oauth-apps/troubleshooting-oauth-app-access-token-request-errors",
            ])
        case .facebook:
            return FacebookRoutes.graphError(description ?? error, code: error == "invalid_client" ? 1 : 100)
        case .microsoft:
            let prefix =
                error == "invalid_client"
                ? "AADSTS7000215: Invalid client secret provided."
                : "AADSTS70008: The provided authorization code or refresh token has expired due to inactivity."
            return SandboxHTTP.json(["error": .string(error), "error_description": .string("\(prefix) \(description ?? "")")], status: status)
        default:
            var body: [String: SandboxJSON] = ["error": .string(error)]
            if let description { body["error_description"] = .string(description) }
            return SandboxHTTP.json(.object(body), status: status)
        }
    }

    private static func constantTimeEqual(_ left: String, _ right: String) -> Bool {
        let a = Array(left.utf8)
        let b = Array(right.utf8)
        guard a.count == b.count else { return false }
        return zip(a, b).reduce(UInt8(0)) { $0 | ($1.0 ^ $1.1) } == 0
    }

    struct TokenFailure: Error {
        let error: String
        let description: String
        init(_ error: String, _ description: String) {
            self.error = error
            self.description = description
        }
    }
}
