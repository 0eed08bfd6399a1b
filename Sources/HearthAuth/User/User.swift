import Foundation
import HearthWire

/// A signed-in user: profile, linked providers, and the tokens that prove who it is.
///
/// The current user of an ``Auth`` is one object for as long as it stays signed in: `link(with:)`, `reload()`,
/// profile updates and token refreshes change it in place.
public final class User: UserInfo, Sendable {
    let engine: AuthEngine
    private let state: Locked<StoredUser>
    /// The latest refresh, keyed by the ID token it replaces: callers that saw that token (concurrently, or
    /// just after it finished) share its result instead of sending the old refresh token again.
    private let refreshing = Locked<(replacing: String, task: Task<String, any Error>)?>(nil)
    /// The name of the passkey being enrolled, from `startPasskeyEnrollment(withName:)` to its finalize call, as
    /// FirebaseAuth keeps it (not stored).
    let pendingPasskeyName = Locked<String?>(nil)

    init(stored: StoredUser, engine: AuthEngine) {
        self.engine = engine
        state = Locked(stored)
    }

    var snapshot: StoredUser { state.withLock { $0 } }
    var cachedTokens: TokenSet { state.withLock { $0.tokens } }

    func update(_ body: (inout StoredUser) -> Void) { state.withLock { body(&$0) } }
    func updateTokens(_ tokens: TokenSet) { state.withLock { $0.tokens = tokens } }

    /// The refresh replacing `idToken`: the one in flight or just finished, else the one `start` begins.
    func refreshTask(replacing idToken: String, start: () -> Task<String, any Error>) -> Task<String, any Error> {
        refreshing.withLock { current in
            if let current, current.replacing == idToken { return current.task }
            let task = start()
            current = (idToken, task)
            return task
        }
    }

    /// Forgets a failed refresh, so that the next caller tries again.
    func refreshFailed(replacing idToken: String) {
        refreshing.withLock { current in
            if current?.replacing == idToken { current = nil }
        }
    }

    // MARK: Profile

    /// Always `"Firebase"`, as in FirebaseAuth.
    public var providerID: String { "Firebase" }
    /// The user's id in the project.
    public var uid: String { state.withLock { $0.uid } }
    /// Whether the user signed in anonymously and has not linked a credential since.
    public var isAnonymous: Bool { state.withLock { $0.isAnonymous } }
    public var email: String? { state.withLock { $0.email } }
    public var isEmailVerified: Bool { state.withLock { $0.isEmailVerified } }
    public var displayName: String? { state.withLock { $0.displayName } }
    public var photoURL: URL? { state.withLock { $0.photoURL } }
    public var phoneNumber: String? { state.withLock { $0.phoneNumber } }
    /// The linked providers (`"password"` for an e-mail with a password), in the server's order.
    public var providerData: [any UserInfo] { state.withLock { $0.providerData } }
    /// Creation and last sign-in times.
    public var metadata: UserMetadata { state.withLock { $0.metadata } }
    /// The tenant the user belongs to: its ID token's `firebase.tenant` (`nil`: the project's own users).
    public var tenantID: String? { state.withLock { $0.tenantID } }
    /// The refresh token. Treat it as a password.
    public var refreshToken: String? { state.withLock { $0.tokens.refreshToken } }

    // MARK: ID tokens

    /// The ID token, refreshed first if less than five minutes remain.
    public func getIDToken(completion: (@MainActor @Sendable (String?, (any Error)?) -> Void)?) {
        complete(completion) { try await self.getIDToken(forcingRefresh: false) }
    }

    /// The ID token; `forceRefresh` asks the server for a new one even if the current one is fresh.
    public func getIDTokenForcingRefresh(_ forceRefresh: Bool, completion: (@MainActor @Sendable (String?, (any Error)?) -> Void)?) {
        complete(completion) { try await self.getIDToken(forcingRefresh: forceRefresh) }
    }

    /// The ID token, refreshed when less than five minutes remain or when `forceRefresh` is true.
    public func getIDToken(forcingRefresh forceRefresh: Bool = false) async throws -> String {
        try await engine.withIDToken(of: self, forcingRefresh: forceRefresh) { $0 }
    }

    /// The async form of ``getIDTokenForcingRefresh(_:completion:)``.
    public func idTokenForcingRefresh(_ forceRefresh: Bool) async throws -> String {
        try await getIDToken(forcingRefresh: forceRefresh)
    }

    /// The ID token and its decoded claims.
    public func getIDTokenResult(completion: (@MainActor @Sendable (AuthTokenResult?, (any Error)?) -> Void)?) {
        complete(completion) { try await self.getIDTokenResult(forcingRefresh: false) }
    }

    public func getIDTokenResult(forcingRefresh: Bool, completion: (@MainActor @Sendable (AuthTokenResult?, (any Error)?) -> Void)?) {
        complete(completion) { try await self.getIDTokenResult(forcingRefresh: forcingRefresh) }
    }

    /// The ID token and its decoded claims (`exp`, `iat`, `auth_time`, `firebase.sign_in_provider`, custom claims).
    public func getIDTokenResult(forcingRefresh: Bool = false) async throws -> AuthTokenResult {
        try AuthTokenResult(token: try await getIDToken(forcingRefresh: forcingRefresh))
    }

    // MARK: Reload and delete

    /// Reads the profile from the server again.
    public func reload(completion: (@MainActor @Sendable ((any Error)?) -> Void)? = nil) {
        complete(completion) { try await self.reload() }
    }

    /// Reads the profile from the server again.
    public func reload() async throws {
        let info = try await engine.withIDToken(of: self) { try await engine.lookup(idToken: $0) }
        update { $0.apply(info) }
        engine.userDidChange(self)
    }

    /// Deletes the account on the server and signs it out. Needs a recent sign-in unless the user is anonymous
    /// (``AuthErrorCode/requiresRecentLogin``).
    public func delete(completion: (@MainActor @Sendable ((any Error)?) -> Void)? = nil) {
        complete(completion) { try await self.delete() }
    }

    public func delete() async throws {
        let _: DeleteAccountResponse = try await engine.withIDToken(of: self) { token in
            try await engine.backend.call(.delete, DeleteAccountRequest(idToken: token))
        }
        engine.signOutByForce(ifCurrent: self)
    }
}
