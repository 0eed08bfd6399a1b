import Crypto
import Foundation
import HTTPTypes
import HearthBase64URL
import HearthFormEncoding
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
/// Each provider's folder says how its page and exchange differ (``SandboxAuthorization``). Codes are
/// single-use and live ten minutes; `redirect_uri` must repeat the authorization request's; a
/// PKCE `code_challenge` (S256 or plain) must be matched by the `code_verifier`.
struct AuthorizationRoutes: Sendable {
    let sandbox: Sandbox
    let provider: SandboxProvider

    /// How long an authorization code can be exchanged.
    static let codeLifetime: TimeInterval = 600

    /// How this provider's page and exchange behave.
    private var behaviour: SandboxAuthorization {
        guard let authorization = provider.definition.authorization else { preconditionFailure("\(provider) has no consent page") }
        return authorization
    }

    func add<Context: RequestContext>(to router: RouterGroup<Context>) {
        for path in behaviour.authorizePaths {
            router.on(RouterPath(path), method: .get) { request, context in
                await self.member(context).authorize(request, tenant: context.parameters.get("tenant"))
            }
            router.on(RouterPath(path), method: .post) { request, context in
                await self.member(context).authorize(request, tenant: context.parameters.get("tenant"))
            }
        }
        for path in behaviour.tokenPaths {
            if behaviour.tokenAcceptsGET {
                router.on(RouterPath(path), method: .get) { request, context in
                    await self.member(context).token(request, tenant: context.parameters.get("tenant"))
                }
            }
            router.on(RouterPath(path), method: .post) { request, context in
                await self.member(context).token(request, tenant: context.parameters.get("tenant"))
            }
        }
    }

    /// The routes of the family member the path names (`:issuer`: issuers come and go at run time, so one
    /// route serves them all); this provider's otherwise.
    private func member<Context: RequestContext>(_ context: Context) -> AuthorizationRoutes {
        guard let name = context.parameters.get("issuer") else { return self }
        return AuthorizationRoutes(sandbox: sandbox, provider: SandboxProvider(id: provider.definition.id + name))
    }

    // MARK: Provider facts

    /// The name on the consent page (a family member's with its name).
    private var name: String {
        provider.memberName.map { "\(provider.definition.name) (\($0))" } ?? provider.definition.name
    }

    private var accent: String { provider.definition.accent }

    /// The secret of a registered client, or `nil` when the client id is unknown.
    private func clientSecret(_ clientID: String) -> String? { behaviour.clientSecret(sandbox, provider, clientID) }

    /// The accounts that may sign in at this page.
    private func identities(tenant: String?) -> [SandboxIdentity] {
        let all = sandbox.identities(for: provider)
        return behaviour.identities?(sandbox, all, tenant) ?? all
    }

    // MARK: Authorize

    func authorize(_ request: Request, tenant: String?) async -> Response {
        var parameters = SandboxHTTP.query(request)
        if request.method == .post, SandboxHTTP.isForm(request), let body = await SandboxHTTP.bodyText(request) {
            parameters.merge(FormEncoding.dictionary(body)) { _, posted in posted }
        }
        sandbox.withState { $0.lastAuthorizationParameters[provider] = parameters.filter { !$0.key.hasPrefix("sandbox_") } }
        if let refusal = behaviour.refusal?(sandbox, tenant) {
            return ConsentPage.refusal(name, title: refusal.title, detail: refusal.detail)
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
        if behaviour.requiresResponseType, parameters["response_type"] != "code" {
            return fail("unsupported_response_type", "response_type must be code.")
        }
        if let failure = behaviour.check?(parameters, scopes, formPost) { return fail(failure.error, failure.description) }
        if let method = parameters["code_challenge_method"], method != "S256", method != "plain" {
            return fail("invalid_request", "code_challenge_method must be S256 or plain.")
        }

        let candidates = identities(tenant: tenant)
        switch parameters["sandbox_decision"] {
        case "cancel":
            sandbox.logger.info("sandbox consent cancelled", metadata: ["provider": "\(provider)"])
            if let fields = behaviour.cancelFields {
                return respond(to: redirectURI, formPost: formPost, fields: fields + (state.map { [("state", $0)] } ?? []))
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
        if let approve = behaviour.approve {
            let fields = approve(
                sandbox, .init(identity: identity, clientID: clientID, redirectURI: redirectURI, scopes: scopes, parameters: parameters))
            return respond(to: redirectURI, formPost: formPost, fields: fields + (state.map { [("state", $0)] } ?? []))
        }
        let nonce = parameters["nonce"].flatMap { $0.isEmpty ? nil : $0 }
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
        guard behaviour.issue != nil, let clientID = form["client_id"], let expected = clientSecret(clientID),
            let given = form["client_secret"], Self.constantTimeEqual(given, expected)
        else {
            sandbox.logger.info("sandbox token endpoint refused the client", metadata: ["provider": "\(provider)"])
            return tokenError("invalid_client", "Client authentication failed.", status: .unauthorized)
        }
        if behaviour.requiresGrantType, form["grant_type"] != "authorization_code" {
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
                guard let issue = behaviour.issue else { return tokenError("unsupported_grant_type", nil, status: .badRequest) }
                return try issue(sandbox, grant, request)
            } catch {
                return tokenError("server_error", "\(error)", status: .internalServerError)
            }
        }
    }

    /// Whether the client asked for JSON (`Accept: application/json`).
    static func wantsJSON(_ request: Request) -> Bool {
        HTTPField.Name("Accept").flatMap { request.headers[$0] }?.contains("json") ?? false
    }

    /// The provider's error shape, else OAuth 2.0's JSON.
    private func tokenError(_ error: String, _ description: String?, status: HTTPResponse.Status) -> Response {
        if let shape = behaviour.tokenError { return shape(error, description, status) }
        var body: [String: SandboxJSON] = ["error": .string(error)]
        if let description { body["error_description"] = .string(description) }
        return SandboxHTTP.json(.object(body), status: status)
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
