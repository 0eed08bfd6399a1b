import AsyncHTTPClient
import Foundation
import HTTPTypes
import HearthConfiguration
import HearthCore
import HearthProviders
import HearthTelemetry
import HearthWire
import HearthWireMapping
import Hummingbird
import Logging

/// `POST /v2/accounts:revokeToken`: a signed-in user has Hearth revoke their Sign in with Apple tokens, as
/// apps must when they delete an account (App Store Review Guideline 5.1.1(v)). With `tokenType` `CODE` Hearth
/// redeems the authorization code at Apple's token endpoint first, then revokes the refresh token it got;
/// `REFRESH_TOKEN` and `ACCESS_TOKEN` go to Apple's revoke endpoint as they are.
struct RevokeTokenController<Context: RequestContext>: Sendable {
    let idTokens: ServerIDTokens
    let identityVerifier: any IdentityVerifier
    /// The providers in effect, read after ``identityVerifier`` refreshed them.
    let providers: @Sendable () -> ProvidersConfiguration
    let httpClient: HTTPClient
    let clock: WallClock
    let logger: Logger
    let telemetry: Telemetry
    let configuration: ServerConfiguration

    /// The longest token or code accepted (Apple's are about 70 characters).
    static var maximumTokenLength: Int { 4096 }

    func addRoutes(to group: RouterGroup<Context>) {
        group.post("accounts:revokeToken", use: revokeToken)
    }

    /// Errors: `MISSING_ID_TOKEN`, those of the ID token (`INVALID_ID_TOKEN`, `TOKEN_EXPIRED`, `USER_NOT_FOUND`,
    /// `USER_DISABLED`), `INVALID_PROVIDER_ID : Provider Id is not supported.` (anything but `apple.com`),
    /// `INVALID_ARGUMENT` (no `tokenType` or `token`, an oversized or unprintable one, a bad `redirectUri`),
    /// `OPERATION_NOT_ALLOWED` (Apple off or without its key), `INVALID_IDP_RESPONSE : …` (Apple refused).
    @Sendable func revokeToken(_ request: Request, context: Context) async throws -> Response {
        let input = try await WireCoding.decode(RevokeTokenRequest.self, from: request, limit: configuration.maxBodyBytes)
        guard let idToken = input.idToken, !idToken.isEmpty else { throw HearthError(.missingIDToken) }
        guard ProviderCatalogue.revokesTokens(input.providerId) else {
            throw HearthError(.invalidProviderID, detail: "Provider Id is not supported.")
        }
        guard let tokenType = input.tokenType, tokenType.name != RevokeTokenTypeNames.names[0] else {
            throw HearthError(.invalidArgument, detail: "tokenType is required.")
        }
        guard let value = input.token, !value.isEmpty else { throw HearthError(.invalidArgument, detail: "token is required.") }
        guard value.utf8.count <= Self.maximumTokenLength else { throw HearthError(.invalidArgument, detail: "token is too long.") }
        // Apple's codes and tokens are printable ASCII.
        guard value.utf8.allSatisfy({ $0 > 0x20 && $0 < 0x7F }) else { throw HearthError(.invalidArgument, detail: "token is not valid.") }
        let redirectURI = try input.redirectUri.flatMap { try Self.redirectURI($0) }
        let token: AppleTokenRevoker.Token =
            switch tokenType.name {
            case "REFRESH_TOKEN": .refreshToken(value)
            case "ACCESS_TOKEN": .accessToken(value)
            default: .authorizationCode(value, redirectURI: redirectURI)
            }
        _ = try await idTokens.verify(idToken)

        try await identityVerifier.refresh()
        let revoker = AppleTokenRevoker(
            configuration: providers(), httpClient: httpClient, clock: clock, logger: logger, telemetry: telemetry)
        let bundleID = request.headers[HTTPField.Name("X-Ios-Bundle-Identifier")!]
        guard revoker.isAvailable, let clientID = revoker.clientID(bundleID: bundleID, hasRedirectURI: redirectURI != nil) else {
            throw HearthError(.operationNotAllowed, reason: "apple.com is off or has no team ID, key ID and .p8 key")
        }
        try await revoker.revoke(token, clientID: clientID)
        return WireCoding.response(RevokeTokenResponse())
    }

    /// A `redirectUri`: an absolute `http(s)` URL of printable ASCII, at most 2048 characters.
    static func redirectURI(_ text: String) throws -> String? {
        if text.isEmpty { return nil }
        guard text.utf8.count <= 2048, text.utf8.allSatisfy({ $0 > 0x20 && $0 < 0x7F }), let url = URL(string: text),
            ["http", "https"].contains(url.scheme?.lowercased() ?? ""), url.host?.isEmpty == false
        else { throw HearthError(.invalidArgument, detail: "redirectUri is not a valid URL.") }
        return text
    }
}
