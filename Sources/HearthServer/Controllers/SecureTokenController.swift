import Foundation
import HearthConfiguration
import HearthCore
import HearthTokens
import HearthWire
import HearthWireMapping
import Hummingbird

/// `securetoken.googleapis.com/v1/token`: a refresh token buys a fresh ID token.
struct SecureTokenController<Context: RequestContext>: Sendable {
    let store: any AccountStore
    let idTokens: ServerIDTokens
    let configuration: ServerConfiguration
    let clock: WallClock

    /// A refresh, its body decoded by the route (which read the tenant from it).
    func token(_ input: TokenRequest) async throws -> Response {
        guard let grantType = input.grantType else { throw HearthError(.missingGrantType) }
        guard grantType == "refresh_token" else { throw HearthError(.invalidGrantType) }
        guard let refreshToken = input.refreshToken, !refreshToken.isEmpty else { throw HearthError(.missingRefreshToken) }

        // The session and its user in one read.
        guard refreshToken.utf8.count <= 512,
            let found = try await store.sessionWithUser(tokenHash: RefreshSessionRecord.hash(refreshToken)),
            let user = found.user
        else { throw HearthError(.invalidRefreshToken) }
        let session = found.session
        if user.disabled { throw HearthError(.userDisabled) }
        // A password or e-mail change (or a revocation) moves validSince and ends older sessions.
        if session.createdAt < user.validSince { throw HearthError(.tokenExpired, reason: "session older than validSince") }

        let sessionClaims = session.extraClaims.flatMap(JSONValue.object(fromJSON:)) ?? [:]
        let idToken = try await idTokens.mintIDToken(
            for: user, signInProvider: session.signInProvider, authTime: session.authTime, sessionClaims: sessionClaims,
            secondFactor: session.secondFactor)
        // lastRefreshAt: one small write at most once a minute per user, so most refreshes stay a single cached read.
        let now = clock.now
        if user.recordsRefresh(at: now) { try await store.recordRefresh(uid: user.uid, at: now) }
        return WireCoding.response(
            TokenResponse(
                idToken: idToken, expiresIn: String(Int(configuration.idTokenLifetime)),
                refreshToken: refreshToken, userId: user.uid, projectId: configuration.projectID))
    }
}
