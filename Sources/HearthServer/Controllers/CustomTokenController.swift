import Foundation
import HearthCore
import HearthTokens
import HearthWire
import Hummingbird

/// `accounts:signInWithCustomToken` (legacy `verifyCustomToken`): signs in the uid a backend vouches for,
/// creating the account on first use. The token's developer claims ride in every ID token of the session,
/// refreshes included.
struct CustomTokenController<Context: RequestContext>: Sendable {
    let services: HearthServices

    @Sendable func signInWithCustomToken(_ request: Request, context: Context) async throws -> Response {
        RequestRecord.noteSignInAttempt(provider: "custom", signUp: false)
        let configuration = services.configuration
        let input = try await WireCoding.decode(SignInWithCustomTokenRequest.self, from: request, limit: configuration.maxBodyBytes)
        guard let token = input.token, !token.isEmpty else { throw HearthError(.missingCustomToken) }
        let now = services.clock.now
        // Service-account keys made by `hearth admin create-key` sign custom tokens too (read per request: every replica
        // sees a new or deleted key at once).
        let storedSigners = token.hasPrefix("{") ? [] : try await ServiceAccountKeys(store: services.store).customTokenSigners()
        let verified = try services.customTokens.verify(token, now: now, storedSigners: storedSigners)
        let claimsText = verified.claims.isEmpty ? nil : JSONValue.object(verified.claims).jsonText
        let session = RefreshSessionRecord.issue(uid: verified.uid, signInProvider: "custom", authTime: now, now: now, extraClaims: claimsText)

        var isNewUser = false
        let user: UserRecord
        if try await services.store.user(uid: verified.uid) != nil {
            user = try await services.store.updateUser(uid: verified.uid, session: session.record) { user in
                if user.disabled { throw HearthError(.userDisabled) }
                user.customAuth = true
                user.lastLoginAt = now
            }
        } else {
            let created = UserRecord(uid: verified.uid, customAuth: true, createdAt: now, lastLoginAt: now, validSince: now)
            do {
                try await services.store.createUser(created, session: session.record)
                user = created
                isNewUser = true
            } catch StoreConflict.uid {
                // Another request made the account first: sign in to it.
                user = try await services.store.updateUser(uid: verified.uid, session: session.record) { user in
                    if user.disabled { throw HearthError(.userDisabled) }
                    user.customAuth = true
                    user.lastLoginAt = now
                }
            }
        }
        await AuditTrail(services: services).record(
            isNewUser ? .signedUp : .signedIn, uid: user.uid, actor: .user, method: "custom", request: request, context: context)
        let idToken = try await services.mintIDToken(
            for: user, signInProvider: "custom", authTime: now, sessionClaims: verified.claims)
        return WireCoding.response(
            SignInWithCustomTokenResponse(
                isNewUser: isNewUser, idToken: idToken, refreshToken: session.token, expiresIn: String(Int(configuration.idTokenLifetime))))
    }
}
