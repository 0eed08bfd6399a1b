import AsyncHTTPClient
import Foundation
import HearthCore
import HearthFormEncoding
import HearthTelemetry
import Logging
import NIOHTTP1

/// Revokes a person's Sign in with Apple tokens, as App Store Review Guideline 5.1.1(v) asks of apps that delete
/// accounts (providers.md §2.5): `accounts:revokeToken` hands over an authorization code (redeemed first at
/// Apple's token endpoint) or a refresh or access token, and Hearth posts it to Apple's revoke endpoint with a
/// client secret it signs itself.
///
/// Every failure is `INVALID_IDP_RESPONSE : …` with Apple's `error` and description; tokens, codes and secrets
/// are never logged or repeated.
public struct AppleTokenRevoker: Sendable {
    /// What the app hands over.
    public enum Token: Sendable, Equatable {
        /// An authorization code (`ASAuthorizationAppleIDCredential.authorizationCode`, or the web flow's with the
        /// `redirect_uri` of its authorization request).
        case authorizationCode(String, redirectURI: String?)
        case refreshToken(String)
        case accessToken(String)
    }

    let configuration: ProvidersConfiguration.Apple
    let http: ProviderHTTP
    let clock: WallClock

    /// - Parameters:
    ///   - configuration: the providers; Apple's key, endpoints and client ids are used.
    ///   - httpClient: for the calls to Apple; owned by the caller.
    ///   - logger: receives the calls (scheme, host and path only).
    ///   - telemetry: counts, times and traces the calls.
    public init(
        configuration: ProvidersConfiguration, httpClient: HTTPClient, clock: WallClock, logger: Logger, telemetry: Telemetry = .off
    ) {
        self.configuration = configuration.apple
        self.http = ProviderHTTP(client: httpClient, network: configuration.network, logger: logger, telemetry: telemetry)
        self.clock = clock
    }

    /// Whether revocation can work: Apple switched on, with the key to sign client secrets.
    public var isAvailable: Bool { configuration.isUsable && configuration.signsClientSecrets }

    /// The `client_id` the code or token was issued to: the app's bundle id when it is a configured one (the iOS
    /// SDKs send it as `X-Ios-Bundle-Identifier`), the Services ID for a web flow's code (one with a
    /// `redirect_uri`), else the first bundle id, else the Services ID.
    public func clientID(bundleID: String?, hasRedirectURI: Bool) -> String? {
        if let bundleID, configuration.bundleIDs.contains(bundleID) { return bundleID }
        if hasRedirectURI, let services = configuration.webClientID { return services }
        return configuration.bundleIDs.first ?? configuration.webClientID
    }

    /// Revokes `token` for `clientID`; with an authorization code, revokes the refresh token (else the access
    /// token) Apple issues for it.
    /// - Throws: `INVALID_IDP_RESPONSE` when Apple refuses or cannot be reached.
    public func revoke(_ token: Token, clientID: String) async throws {
        let secret = try AppleClientSecretSigner.secret(for: configuration, clientID: clientID, now: clock.now)
        let credentials = [("client_id", clientID), ("client_secret", secret)]
        let revoked: (token: String, hint: String)
        switch token {
        case .refreshToken(let value): revoked = (value, "refresh_token")
        case .accessToken(let value): revoked = (value, "access_token")
        case .authorizationCode(let code, let redirectURI):
            var form = [("grant_type", "authorization_code"), ("code", code)]
            if let redirectURI { form.append(("redirect_uri", redirectURI)) }
            let response = try await post(configuration.tokenURL, form + credentials)
            let fields = try Self.fields(of: response, step: "redeem the authorization code")
            if let refresh = fields["refresh_token"], !refresh.isEmpty {
                revoked = (refresh, "refresh_token")
            } else if let access = fields["access_token"], !access.isEmpty {
                revoked = (access, "access_token")
            } else {
                throw ProviderFailure.invalid("Apple's token response has no token.")
            }
        }
        let response = try await post(configuration.revokeURL, [("token", revoked.token), ("token_type_hint", revoked.hint)] + credentials)
        _ = try Self.fields(of: response, step: "revoke the token")
    }

    private func post(_ url: URL, _ form: [(String, String)]) async throws -> ProviderResponse {
        try await http.send(
            .POST, url, headers: [("Content-Type", "application/x-www-form-urlencoded"), ("Accept", "application/json")],
            body: Data(Self.formBody(form).utf8), provider: "Apple")
    }

    /// The string fields of a successful JSON answer (Apple's revoke endpoint answers 200 with an empty body);
    /// Apple's `{"error", "error_description"}` or any other failure becomes `INVALID_IDP_RESPONSE`.
    static func fields(of response: ProviderResponse, step: String) throws -> [String: String] {
        var fields: [String: String] = [:]
        if case .object(let object)? = try? JSONDecoder().decode(JSONValue.self, from: response.body) {
            for case let (key, .string(value)) in object { fields[key] = value }
        }
        if let error = fields["error"] {
            let description = fields["error_description"].map { " (\(printable($0)))" } ?? ""
            throw ProviderFailure.invalid(
                "Apple refused to \(step): \(printable(error))\(description)",
                reason: "Apple answered HTTP \(response.status) with \(printable(error))")
        }
        guard response.isSuccess else {
            throw ProviderFailure.invalid("Apple refused to \(step): HTTP \(response.status)", reason: "Apple answered HTTP \(response.status)")
        }
        return fields
    }

    /// Apple's words, printable and short, for an error message.
    static func printable(_ text: String) -> String {
        String(String.UnicodeScalarView(text.unicodeScalars.filter { $0.value >= 0x20 && $0.value != 0x7F }.prefix(200)))
    }

    /// `application/x-www-form-urlencoded`, every byte but the unreserved ones escaped.
    static func formBody(_ pairs: [(String, String)]) -> String { FormEncoding.encode(pairs) }
}
