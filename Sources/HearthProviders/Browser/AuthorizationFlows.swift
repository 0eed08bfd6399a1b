import AsyncHTTPClient
import Crypto
import Foundation
import HearthBase64URL
import HearthCore
import HearthTelemetry
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
/// A value type: cheap to make per request. The discovery documents come from the ``DiscoveryCache`` it is
/// given (a server gives the one its ``ProviderRegistry`` uses); the Apple client secret is cached
/// process-wide (``AppleClientSecretSigner``).
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
    let discovery: DiscoveryReader
    /// Where SAML sign-ins record the assertions used, so that one response signs in once on every replica (the
    /// store's shared counters); a SAML sign-in fails without one.
    public var replayGuard: (any CredentialReplayGuard)?

    /// - Parameters:
    ///   - configuration: the providers, their secrets and endpoints.
    ///   - httpClient: for the calls to the providers; owned by the caller.
    ///   - logger: receives provider calls (scheme, host and path only); never tokens, codes or secrets.
    ///   - telemetry: counts, times and traces the calls.
    ///   - discovery: the OpenID discovery documents (OIDC providers' and Yahoo's endpoints); pass the server's
    ///     one cache, else each value reads them anew.
    public init(
        configuration: ProvidersConfiguration, httpClient: HTTPClient, clock: WallClock, logger: Logger, telemetry: Telemetry = .off,
        discovery: DiscoveryCache = DiscoveryCache()
    ) {
        self.configuration = configuration
        let http = ProviderHTTP(client: httpClient, network: configuration.network, logger: logger, telemetry: telemetry)
        self.http = http
        self.clock = clock
        self.logger = logger
        self.discovery = DiscoveryReader(cache: discovery, http: http, clock: clock, policy: configuration.keyCaching, logger: logger)
    }

    /// Whether `providerID` can be signed in with through the browser (switched on, with the secrets the
    /// code exchange needs).
    public func supports(_ providerID: String) -> Bool {
        ProviderCatalogue.description(of: providerID)?.browserFlow?.supports(configuration, providerID) ?? false
    }

    // MARK: Start

    /// The provider's authorization URL and the values the handler will need.
    ///
    /// Throws `INVALID_IDP_RESPONSE` when a provider call fails (Twitter's request token, an OIDC discovery
    /// document) and `INVALID_PROVIDER_ID` for a Microsoft tenant the tenant rule does not allow.
    public func start(_ request: AuthorizationRequest) async throws -> AuthorizationStart {
        guard let flow = ProviderCatalogue.description(of: request.providerID)?.browserFlow else {
            throw HearthError(.invalidProviderID, detail: "Provider Id is not supported.")
        }
        let custom = request.customParameters.filter { !Self.reservedParameters.contains($0.key) }
        return try await flow.start(self, request, custom)
    }

    /// The start of an OAuth 2.0 code flow without PKCE (Facebook, GitHub): `client_id`, `redirect_uri`,
    /// `state`, the scopes joined with `separator`, then the custom parameters.
    func plainCodeFlowStart(
        _ request: AuthorizationRequest, endpoint: URL, clientID: String, defaultScopes: [String], separator: String,
        custom: [String: String], extra: [(String, String)] = []
    ) throws -> AuthorizationStart {
        var query: [(String, String)] = [
            ("client_id", clientID), ("redirect_uri", request.redirectURI.absoluteString), ("state", request.state),
        ]
        query += extra
        query.append(("scope", Self.scopes(defaultScopes, adding: request.scopes).joined(separator: separator)))
        query += custom.sorted { $0.key < $1.key }.map { ($0.key, $0.value) }
        return AuthorizationStart(url: try url(endpoint, query), pendingValues: [:])
    }

    /// OAuth 2.0 authorization code with PKCE (S256) and a nonce.
    func codeFlowStart(
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
        guard let flow = ProviderCatalogue.description(of: providerID)?.browserFlow else {
            throw AuthorizationFailure.refused("Unknown provider \(providerID).")
        }
        return try await flow.finish(
            self, AuthorizationCallback(providerID: providerID, fields: callback, pending: pending, redirectURI: redirectURI))
    }

    /// What a code exchange got from the provider's token endpoint.
    struct ExchangedTokens: Sendable {
        var idToken: String?
        var accessToken: String?
        /// The scopes the person granted, space-separated, when the answer names them (`scope`, RFC 6749 §5.1).
        var scope: String?
    }

    /// The end of an OAuth 2.0 code flow: the provider's error, if it sent one, else `exchange` trades the
    /// code for tokens. The granted `scope` of the token response is kept in the credential's
    /// ``FederatedCredential/providerFields`` (Google's `rawUserInfo` shows it as `granted_scopes`).
    func finishCodeFlow(
        _ callback: AuthorizationCallback, exchange: (_ code: String) async throws -> ExchangedTokens
    ) async throws -> FederatedCredential {
        let fields = callback.fields
        if let error = fields["error"] {
            if ["access_denied", "user_cancelled_authorize", "user_denied", "consent_required"].contains(error) {
                throw AuthorizationFailure.cancelled
            }
            if error == "invalid_client" || error == "unauthorized_client" {
                throw AuthorizationFailure.invalidClient(fields["error_description"] ?? error)
            }
            throw AuthorizationFailure.refused([error, fields["error_description"]].compactMap { $0 }.joined(separator: ": "))
        }
        guard let code = fields["code"], !code.isEmpty else {
            throw AuthorizationFailure.refused("The provider's answer has no authorization code.")
        }
        let tokens = try await exchange(code)
        guard tokens.idToken != nil || tokens.accessToken != nil else {
            throw AuthorizationFailure.refused("The provider's token response has no token.")
        }
        return FederatedCredential(
            providerID: callback.providerID, idToken: tokens.idToken, accessToken: tokens.accessToken,
            rawNonce: tokens.idToken == nil ? nil : callback.pending["nonce"], providerFields: tokens.scope.map { ["scope": $0] } ?? [:])
    }

    /// The end of an OAuth 2.0 code flow whose client authenticates with its id and secret in the form
    /// (`client_secret_post`) at `tokenEndpoint`.
    func finishCodeFlow(
        _ callback: AuthorizationCallback, tokenEndpoint: URL, clientID: String, clientSecret: String
    ) async throws -> FederatedCredential {
        try await finishCodeFlow(callback) { code in
            try await exchangeCode(
                code, callback: callback, endpoint: tokenEndpoint, credentials: [("client_id", clientID), ("client_secret", clientSecret)])
        }
    }

    /// The code exchange at `endpoint`: a form POST of the grant, the code, the `redirect_uri`, the PKCE
    /// verifier if the start made one, and the client's `credentials`.
    func exchangeCode(
        _ code: String, callback: AuthorizationCallback, endpoint: URL, credentials: [(String, String)]
    ) async throws -> ExchangedTokens {
        var form: [(String, String)] = [
            ("grant_type", "authorization_code"), ("code", code), ("redirect_uri", callback.redirectURI.absoluteString),
        ]
        if let verifier = callback.pending["code_verifier"] { form.append(("code_verifier", verifier)) }
        form += credentials
        let response = try await call {
            try await http.send(
                .POST, endpoint, headers: [("Content-Type", "application/x-www-form-urlencoded"), ("Accept", "application/json")],
                body: Data(Self.formBody(form).utf8), provider: callback.providerID)
        }
        return try Self.tokens(from: response, provider: callback.providerID)
    }

    /// Reads `access_token`, `id_token` and `scope` from a token response (JSON, or GitHub's form encoding), mapping
    /// the provider's `error` (which GitHub sends with HTTP 200) to a failure.
    static func tokens(from response: ProviderResponse, provider: String) throws -> ExchangedTokens {
        var fields: [String: String] = [:]
        if let object = try? response.jsonObject() {
            for (key, value) in object {
                switch value {
                case .string(let text): fields[key] = text
                case .object(let nested):
                    // Facebook: {"error": {"message": …, "type": "OAuthException"}}
                    if key == "error", case .string(let message)? = nested["message"] {
                        fields["error"] = "invalid_request"
                        fields["error_description"] = message
                    }
                default: continue
                }
            }
        } else {
            fields = formFields(response.body)
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
        func nonEmpty(_ name: String) -> String? { fields[name].flatMap { $0.isEmpty ? nil : $0 } }
        return ExchangedTokens(idToken: nonEmpty("id_token"), accessToken: nonEmpty("access_token"), scope: nonEmpty("scope"))
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
