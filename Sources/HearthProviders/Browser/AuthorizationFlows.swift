import AsyncHTTPClient
import Crypto
import Foundation
import HearthBase64URL
import HearthCore
import Logging
import NIOHTTP1

/// The browser half of federated sign-in: builds each provider's authorization URL and, once the provider
/// has sent the browser back to Hearth's redirect handler, finishes the protocol with the provider and
/// returns the credential (tokens) that `signInWithIdp` then verifies exactly like one an app sends itself.
///
/// | provider | protocol | extras |
/// |---|---|---|
/// | `google.com`, `oidc.<name>` | OAuth 2.0 code + PKCE (S256) + nonce | OIDC endpoints from discovery |
/// | `microsoft.com` | code + PKCE + nonce | tenant from the `tenant` custom parameter, checked against the tenant rule |
/// | `apple.com` | code, `response_mode=form_post`, nonce | ES256 client secret signed and renewed by Hearth; first-time `user` JSON |
/// | `facebook.com`, `github.com` | code (no PKCE) | GitHub answers errors with HTTP 200 |
/// | `twitter.com` | OAuth 1.0a: request token → authenticate → access token | token secret kept for the credential |
///
/// Custom parameters pass through to the provider, except the names Hearth sets itself
/// (``reservedParameters``), which an app can never override. Scopes are added to each provider's defaults.
/// A value type: cheap to make per request. The Apple client secret is cached process-wide
/// (``AppleClientSecretSigner``).
public struct AuthorizationFlows: Sendable {
    /// Parameters only Hearth sets: OAuth 2.0's own plus PKCE, nonce and OAuth 1.0a's.
    public static let reservedParameters: Set<String> = [
        "client_id", "redirect_uri", "response_type", "scope", "state", "response_mode", "code_challenge",
        "code_challenge_method", "nonce", "oauth_token", "oauth_callback",
    ]

    public let configuration: ProvidersConfiguration
    let http: ProviderHTTP
    let clock: WallClock
    let logger: Logger

    /// - Parameters:
    ///   - configuration: the providers, their secrets and endpoints.
    ///   - httpClient: for the calls to the providers; owned by the caller.
    ///   - logger: receives provider calls (scheme, host and path only); never tokens, codes or secrets.
    public init(configuration: ProvidersConfiguration, httpClient: HTTPClient, clock: WallClock, logger: Logger) {
        self.configuration = configuration
        self.http = ProviderHTTP(client: httpClient, network: configuration.network, logger: logger)
        self.clock = clock
        self.logger = logger
    }

    /// Whether `providerID` can be signed in with through the browser (switched on, with the secrets the
    /// code exchange needs).
    public func supports(_ providerID: String) -> Bool {
        switch providerID {
        case "google.com": configuration.google.supportsBrowserSignIn
        case "microsoft.com": configuration.microsoft.supportsBrowserSignIn
        case "apple.com": configuration.apple.supportsBrowserSignIn
        case "facebook.com": configuration.facebook.supportsBrowserSignIn
        case "github.com": configuration.gitHub.supportsBrowserSignIn
        case "twitter.com": configuration.twitter.isUsable
        default: oidcConfiguration(providerID)?.supportsBrowserSignIn ?? false
        }
    }

    // MARK: Start

    /// The provider's authorization URL and the values the handler will need.
    ///
    /// Throws `INVALID_IDP_RESPONSE` when a provider call fails (Twitter's request token, an OIDC discovery
    /// document) and `INVALID_PROVIDER_ID` for a Microsoft tenant the tenant rule does not allow.
    public func start(_ request: AuthorizationRequest) async throws -> AuthorizationStart {
        let custom = request.customParameters.filter { !Self.reservedParameters.contains($0.key) }
        switch request.providerID {
        case "twitter.com":
            return try await startTwitter(request, custom: custom)
        case "apple.com":
            let apple = configuration.apple
            let nonce = Self.randomToken()
            var query: [(String, String)] = [
                ("client_id", apple.webClientID ?? ""), ("redirect_uri", request.redirectURI.absoluteString),
                ("response_type", "code"), ("response_mode", "form_post"),
                ("scope", Self.scopes(["name", "email"], adding: request.scopes).joined(separator: " ")),
                ("state", request.state), ("nonce", Self.sha256Hex(nonce)),
            ]
            query += custom.sorted { $0.key < $1.key }.map { ($0.key, $0.value) }
            return AuthorizationStart(url: try url(apple.authorizationURL, query), pendingValues: ["nonce": nonce])
        case "facebook.com":
            let facebook = configuration.facebook
            var query: [(String, String)] = [
                ("client_id", facebook.appID), ("redirect_uri", request.redirectURI.absoluteString), ("state", request.state),
                ("response_type", "code"),
                ("scope", Self.scopes(["email", "public_profile"], adding: request.scopes).joined(separator: ",")),
            ]
            query += custom.sorted { $0.key < $1.key }.map { ($0.key, $0.value) }
            return AuthorizationStart(url: try url(facebook.dialogURL, query), pendingValues: [:])
        case "github.com":
            let gitHub = configuration.gitHub
            var query: [(String, String)] = [
                ("client_id", gitHub.clientID ?? ""), ("redirect_uri", request.redirectURI.absoluteString),
                ("scope", Self.scopes(["read:user", "user:email"], adding: request.scopes).joined(separator: " ")),
                ("state", request.state),
            ]
            query += custom.sorted { $0.key < $1.key }.map { ($0.key, $0.value) }
            return AuthorizationStart(url: try url(gitHub.authorizationURL, query), pendingValues: [:])
        case "google.com":
            let google = configuration.google
            return try codeFlowStart(
                request, endpoint: google.authorizationURL, clientID: google.clientIDs.first ?? "",
                defaultScopes: ["openid", "email", "profile"], custom: custom, extra: [:])
        case "microsoft.com":
            let tenant = try microsoftTenant(request.customParameters["tenant"])
            let endpoint = try templateURL(configuration.microsoft.authorizationURLTemplate, tenant: tenant)
            var withoutTenant = custom
            withoutTenant["tenant"] = nil
            return try codeFlowStart(
                request, endpoint: endpoint, clientID: configuration.microsoft.clientIDs.first ?? "",
                defaultScopes: ["openid", "profile", "email"], custom: withoutTenant, extra: ["tenant": tenant],
                responseMode: "query")
        default:
            guard let oidc = oidcConfiguration(request.providerID) else {
                throw HearthError(.invalidProviderID, detail: "Provider Id is not supported.")
            }
            let endpoints = try await oidcEndpoints(oidc, providerID: request.providerID)
            return try codeFlowStart(
                request, endpoint: endpoints.authorization, clientID: oidc.clientIDs.first ?? "",
                defaultScopes: ["openid", "email", "profile"], custom: custom, extra: [:])
        }
    }

    /// OAuth 2.0 authorization code with PKCE (S256) and a nonce.
    private func codeFlowStart(
        _ request: AuthorizationRequest, endpoint: URL, clientID: String, defaultScopes: [String], custom: [String: String],
        extra: [String: String], responseMode: String? = nil
    ) throws -> AuthorizationStart {
        let verifier = Self.randomToken()
        let nonce = Self.randomToken()
        var query: [(String, String)] = [
            ("client_id", clientID), ("redirect_uri", request.redirectURI.absoluteString), ("response_type", "code"),
            ("scope", Self.scopes(defaultScopes, adding: request.scopes).joined(separator: " ")), ("state", request.state),
            ("nonce", Self.sha256Hex(nonce)), ("code_challenge", Self.codeChallenge(verifier)), ("code_challenge_method", "S256"),
        ]
        if let responseMode { query.append(("response_mode", responseMode)) }
        query += custom.sorted { $0.key < $1.key }.map { ($0.key, $0.value) }
        var pending = extra
        pending["code_verifier"] = verifier
        pending["nonce"] = nonce
        return AuthorizationStart(url: try url(endpoint, query), pendingValues: pending)
    }

    // MARK: Finish

    /// Finishes the protocol with the provider from what it sent to the redirect handler (`callback`: the
    /// query and form fields) and the values ``start(_:)`` asked to keep.
    ///
    /// - Throws: ``AuthorizationFailure``.
    public func finish(
        providerID: String, callback: [String: String], pending: [String: String], redirectURI: URL
    ) async throws -> FederatedCredential {
        if providerID == "twitter.com" {
            return try await finishTwitter(callback: callback, pending: pending)
        }
        if let error = callback["error"] {
            if ["access_denied", "user_cancelled_authorize", "user_denied", "consent_required"].contains(error) {
                throw AuthorizationFailure.cancelled
            }
            if error == "invalid_client" || error == "unauthorized_client" {
                throw AuthorizationFailure.invalidClient(callback["error_description"] ?? error)
            }
            throw AuthorizationFailure.refused([error, callback["error_description"]].compactMap { $0 }.joined(separator: ": "))
        }
        guard let code = callback["code"], !code.isEmpty else {
            throw AuthorizationFailure.refused("The provider's answer has no authorization code.")
        }
        let tokens = try await exchange(providerID: providerID, code: code, pending: pending, redirectURI: redirectURI)
        guard tokens.idToken != nil || tokens.accessToken != nil else {
            throw AuthorizationFailure.refused("The provider's token response has no token.")
        }
        return FederatedCredential(
            providerID: providerID, idToken: tokens.idToken, accessToken: tokens.accessToken,
            rawNonce: tokens.idToken == nil ? nil : pending["nonce"],
            appleUser: providerID == "apple.com" ? callback["user"].flatMap { $0.isEmpty ? nil : $0 } : nil)
    }

    /// The code exchange at the provider's token endpoint.
    private func exchange(providerID: String, code: String, pending: [String: String], redirectURI: URL) async throws
        -> (idToken: String?, accessToken: String?)
    {
        var form: [(String, String)] = [
            ("grant_type", "authorization_code"), ("code", code), ("redirect_uri", redirectURI.absoluteString),
        ]
        if let verifier = pending["code_verifier"] { form.append(("code_verifier", verifier)) }
        let endpoint: URL
        switch providerID {
        case "google.com":
            endpoint = configuration.google.tokenURL
            form += [("client_id", configuration.google.clientIDs.first ?? ""), ("client_secret", configuration.google.clientSecret.value)]
        case "microsoft.com":
            endpoint = try failing { try templateURL(configuration.microsoft.tokenURLTemplate, tenant: pending["tenant"] ?? configuration.microsoft.tenant) }
            form += [
                ("client_id", configuration.microsoft.clientIDs.first ?? ""),
                ("client_secret", configuration.microsoft.clientSecret.value),
            ]
        case "apple.com":
            let apple = configuration.apple
            let clientID = apple.webClientID ?? ""
            let secret = try failing { try AppleClientSecretSigner.secret(for: apple, clientID: clientID, now: clock.now) }
            endpoint = apple.tokenURL
            form += [("client_id", clientID), ("client_secret", secret)]
        case "facebook.com":
            let facebook = configuration.facebook
            let url = facebook.graphURL("/oauth/access_token").appendingQuery([
                ("client_id", facebook.appID), ("redirect_uri", redirectURI.absoluteString),
                ("client_secret", facebook.appSecret.value), ("code", code),
            ])
            guard let url else { throw AuthorizationFailure.refused("The Facebook token URL is invalid.") }
            let response = try await call { try await http.get(url, provider: "Facebook") }
            return try Self.tokens(from: response, provider: "Facebook")
        case "github.com":
            endpoint = configuration.gitHub.tokenURL
            form += [("client_id", configuration.gitHub.clientID ?? ""), ("client_secret", configuration.gitHub.clientSecret?.value ?? "")]
        default:
            guard let oidc = oidcConfiguration(providerID) else { throw AuthorizationFailure.refused("Unknown provider \(providerID).") }
            endpoint = try await failing { try await oidcEndpoints(oidc, providerID: providerID).token }
            form += [("client_id", oidc.clientIDs.first ?? ""), ("client_secret", oidc.clientSecret.value)]
        }
        let body = Data(form.map { OAuth1Signer.percentEncode($0.0) + "=" + OAuth1Signer.percentEncode($0.1) }.joined(separator: "&").utf8)
        let response = try await call {
            try await http.send(
                .POST, endpoint, headers: [("Content-Type", "application/x-www-form-urlencoded"), ("Accept", "application/json")],
                body: body, provider: providerID)
        }
        return try Self.tokens(from: response, provider: providerID)
    }

    /// Reads `access_token` and `id_token` from a token response (JSON, or GitHub's form encoding), mapping
    /// the provider's `error` (which GitHub sends with HTTP 200) to a failure.
    static func tokens(from response: ProviderResponse, provider: String) throws -> (idToken: String?, accessToken: String?) {
        var fields: [String: String] = [:]
        if let object = try? response.jsonObject() {
            for (key, value) in object {
                switch value {
                case .string(let text): fields[key] = text
                case .object(let nested):
                    // Facebook: {"error": {"message": …, "type": "OAuthException"}}
                    if key == "error", case .string(let message)? = nested["message"] { fields["error"] = "invalid_request"; fields["error_description"] = message }
                default: continue
                }
            }
        } else {
            for pair in String(decoding: response.body, as: UTF8.self).split(separator: "&") {
                let kv = pair.split(separator: "=", maxSplits: 1).map(String.init)
                if kv.count == 2 { fields[kv[0]] = kv[1].replacingOccurrences(of: "+", with: " ").removingPercentEncoding ?? kv[1] }
            }
        }
        if let error = fields["error"] {
            let detail = [error, fields["error_description"]].compactMap { $0 }.joined(separator: ": ")
            // GitHub names a wrong client id or secret `incorrect_client_credentials` (with HTTP 200).
            if ["invalid_client", "unauthorized_client", "incorrect_client_credentials"].contains(error) {
                throw AuthorizationFailure.invalidClient(detail)
            }
            throw AuthorizationFailure.refused("\(provider): \(detail)")
        }
        guard response.isSuccess else { throw AuthorizationFailure.refused("\(provider) answered HTTP \(response.status).") }
        return (fields["id_token"].flatMap { $0.isEmpty ? nil : $0 }, fields["access_token"].flatMap { $0.isEmpty ? nil : $0 })
    }

    // MARK: Microsoft tenant

    /// The tenant segment of the sign-in: the `tenant` custom parameter, else the configured one; refused
    /// when the configured rule (``ProvidersConfiguration/Microsoft/tenant`` and
    /// ``ProvidersConfiguration/Microsoft/allowedTenantIDs``) could never accept its accounts.
    func microsoftTenant(_ requested: String?) throws -> String {
        let configured = configuration.microsoft.tenant
        guard let requested = requested?.trimmingCharacters(in: .whitespaces).lowercased(), !requested.isEmpty else { return configured }
        func refuse() -> HearthError {
            HearthError(
                .invalidProviderID, detail: "The Microsoft tenant \(requested) is not allowed for this app.",
                reason: "tenant custom parameter \(requested) against tenant rule \(configured)")
        }
        guard requested.allSatisfy({ $0.isLetter || $0.isNumber || $0 == "-" || $0 == "." }) else { throw refuse() }
        let requestedRule = MicrosoftTenantRule(requested)
        let consumers = ProvidersConfiguration.Microsoft.consumersTenantID
        switch MicrosoftTenantRule(configured) {
        case .common: break
        case .organizations:
            if requestedRule == .consumers { throw refuse() }
        case .consumers:
            if requestedRule != .consumers { throw refuse() }
        case .tenant(let allowed):
            if requested != allowed { throw refuse() }
        case .domain(let domain):
            if requested != domain { throw refuse() }
        }
        let allowedTenants = configuration.microsoft.allowedTenantIDs.map { $0.lowercased() }
        if !allowedTenants.isEmpty {
            switch requestedRule {
            case .tenant(let id): if !allowedTenants.contains(id) { throw refuse() }
            case .consumers: if !allowedTenants.contains(consumers) { throw refuse() }
            default: break
            }
        }
        return requested
    }

    // MARK: OIDC

    func oidcConfiguration(_ providerID: String) -> ProvidersConfiguration.OIDC? {
        guard providerID.hasPrefix("oidc.") else { return nil }
        return configuration.oidc[String(providerID.dropFirst(5))]
    }

    /// `authorization_endpoint` and `token_endpoint` from the issuer's discovery document.
    private func oidcEndpoints(_ oidc: ProvidersConfiguration.OIDC, providerID: String) async throws -> (authorization: URL, token: URL) {
        guard let discovery = oidc.resolvedDiscoveryURL else { throw ProviderFailure.invalid("The \(providerID) discovery URL is invalid.") }
        let response = try await http.get(discovery, provider: providerID)
        guard response.isSuccess, let object = try? response.jsonObject(),
            case .string(let authorization)? = object["authorization_endpoint"], let authorizationURL = URL(string: authorization),
            case .string(let token)? = object["token_endpoint"], let tokenURL = URL(string: token)
        else { throw ProviderFailure.invalid("The \(providerID) discovery document names no authorization and token endpoints.") }
        return (authorizationURL, tokenURL)
    }

    // MARK: Helpers

    /// `defaults` followed by the app's scopes that are not among them.
    static func scopes(_ defaults: [String], adding extra: [String]) -> [String] {
        var result = defaults
        for scope in extra where !scope.isEmpty && !result.contains(scope) { result.append(scope) }
        return result
    }

    func url(_ endpoint: URL, _ query: [(String, String)]) throws -> URL {
        guard let url = endpoint.appendingQuery(query) else {
            throw HearthError(.internalError, reason: "cannot build an authorization URL on \(endpoint.redactedForLogs)")
        }
        return url
    }

    func templateURL(_ template: String, tenant: String) throws -> URL {
        guard let url = URL(string: template.replacingOccurrences(of: "{tenant}", with: tenant)), url.scheme != nil else {
            throw HearthError(.internalError, reason: "bad Microsoft URL template \(template)")
        }
        return url
    }

    /// Runs a provider call, turning Hearth's own errors into ``AuthorizationFailure/network(_:)``.
    func call<T: Sendable>(_ body: () async throws -> T) async throws -> T {
        do {
            return try await body()
        } catch let error as HearthError {
            throw AuthorizationFailure.network(error.detail ?? "The identity provider could not be reached.")
        }
    }

    func failing<T>(_ body: () throws -> T) throws -> T {
        do { return try body() } catch let error as HearthError { throw AuthorizationFailure.refused(error.detail ?? error.code.rawValue) }
    }

    func failing<T: Sendable>(_ body: () async throws -> T) async throws -> T {
        do { return try await body() } catch let error as HearthError { throw AuthorizationFailure.network(error.detail ?? error.code.rawValue) }
    }

    /// 32 random bytes, base64url (43 characters): PKCE verifiers, nonces, OAuth 1.0a nonces.
    static func randomToken() -> String {
        var generator = SystemRandomNumberGenerator()
        var bytes: [UInt8] = []
        for _ in 0..<4 { withUnsafeBytes(of: generator.next() as UInt64) { bytes.append(contentsOf: $0) } }
        return Base64URL.encode(Data(bytes))
    }

    /// PKCE S256: base64url(SHA-256(verifier)).
    static func codeChallenge(_ verifier: String) -> String {
        Base64URL.encode(Data(SHA256.hash(data: Data(verifier.utf8))))
    }

    /// Lower-case hex SHA-256: what the provider puts in the ID token's `nonce` claim.
    static func sha256Hex(_ text: String) -> String {
        SHA256.hash(data: Data(text.utf8)).lowercaseHex
    }
}
