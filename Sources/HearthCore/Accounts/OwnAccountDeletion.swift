import Foundation

/// `accounts:delete` by the person signed in: an account that is not anonymous needs a recent sign-in.
public struct OwnAccountDeletion: Sendable {
    public let store: any AccountStore
    public let idTokens: any IDTokenAuthenticating
    public let audit: any AuditRecording
    public let clock: WallClock
    public let recentLoginWindow: TimeInterval

    public init(
        store: any AccountStore, idTokens: any IDTokenAuthenticating, audit: any AuditRecording, clock: WallClock, recentLoginWindow: TimeInterval
    ) {
        self.store = store
        self.idTokens = idTokens
        self.audit = audit
        self.clock = clock
        self.recentLoginWindow = recentLoginWindow
    }

    /// Deletes the account of `idToken`: the token's errors, `CREDENTIAL_TOO_OLD_LOGIN_AGAIN`.
    public func callAsFunction(idToken: String, from origin: AuditOrigin) async throws {
        let current = try await idTokens.authenticate(idToken)
        if !current.user.isAnonymous {
            try RecentSignIn.require(authTime: current.authTime, now: clock.now, window: recentLoginWindow)
        }
        if try await store.deleteUser(uid: current.user.uid) {
            await audit.record(
                AuditEvent(
                    time: clock.now, kind: .deleted, uid: current.user.uid, actor: .user, actorID: origin.actorID, clientAddress: origin.address))
        }
    }
}
