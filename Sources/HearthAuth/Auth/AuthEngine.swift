import Foundation
import HearthWire

/// The state of one app's authentication, shared by every ``Auth`` of that app: the current user, the
/// listeners, the store and the server. Everything public goes through ``Auth`` and ``User``.
final class AuthEngine: Sendable {
    /// Tokens with less than this much time left are refreshed before use (FirebaseAuth's five minutes).
    static let refreshMargin: TimeInterval = 5 * 60

    let appName: String
    let options: HearthOptions
    let store: any SignedInUserStore
    /// The store's key of this app's user.
    let storageKey: String
    private let state: Locked<State>

    enum ListenerKind { case authState, idToken }

    struct Listener {
        let id: UInt64
        let kind: ListenerKind
        let auth: Auth
        /// Queues the listener's call (on the main queue, or the queue it was added with); called under the lock,
        /// so calls keep the order of the changes.
        let deliver: @Sendable (Auth, User?) -> Void
    }

    struct State {
        var currentUser: User?
        var serverURL: String
        var tenantID: String?
        var languageCode: String?
        var defaultUIDelegate: (any AuthUIDelegate)?
        var listeners: [Listener] = []
        var nextListenerID: UInt64 = 1
        /// What listeners last heard: the uid (state listeners) and the ID token (ID-token listeners).
        var notifiedUID: String?
        var notifiedToken: String?
        /// Token refreshes sent to the server, for tests (`@_spi(Testing)`).
        var refreshCount = 0
    }

    init(appName: String, options: HearthOptions) {
        self.appName = appName
        self.options = options
        #if canImport(Security)
        store = options.userStore ?? KeychainSignedInUserStore(service: "hearth_auth_\(options.appID ?? options.projectID)")
        #else
        store = options.userStore ?? FileSignedInUserStore()
        #endif
        storageKey = "hearth_auth_\(options.projectID)_\(appName)_user"
        state = Locked(State(serverURL: options.serverURL))

        // The stored user is taken as it is; the first refresh or call tells whether the server still knows it.
        if let data = try? store.data(forKey: storageKey),
            let stored = try? JSONDecoder().decode(StoredUser.self, from: data),
            stored.apiKey == options.apiKey
        {
            let user = User(stored: stored, engine: self)
            state.withLock { state in
                state.currentUser = user
                state.tenantID = stored.tenantID
                state.notifiedUID = stored.uid
                state.notifiedToken = stored.tokens.idToken
            }
        }
    }

    var now: Date { options.clock() }

    var backend: Backend {
        state.withLock {
            Backend(
                baseURL: $0.serverURL, apiKey: options.apiKey, languageCode: $0.languageCode, transport: options.transport,
                resolver: { MultiFactorResolver(response: $0, engine: self) })
        }
    }

    var currentUser: User? { state.withLock { $0.currentUser } }

    func isCurrent(_ user: User) -> Bool { state.withLock { $0.currentUser === user } }

    var tenantID: String? {
        get { state.withLock { $0.tenantID } }
        set { state.withLock { $0.tenantID = newValue } }
    }

    var languageCode: String? {
        get { state.withLock { $0.languageCode } }
        set { state.withLock { $0.languageCode = newValue } }
    }

    var defaultUIDelegate: (any AuthUIDelegate)? {
        get { state.withLock { $0.defaultUIDelegate } }
        set { state.withLock { $0.defaultUIDelegate = newValue } }
    }

    var serverURL: String {
        get { state.withLock { $0.serverURL } }
        set { state.withLock { $0.serverURL = newValue } }
    }

    var refreshCount: Int { state.withLock { $0.refreshCount } }

    // MARK: Listeners

    /// Registers a listener called on the main queue, and calls it once, soon, with the current user.
    func addListener(_ kind: ListenerKind, auth: Auth, _ callback: @escaping @MainActor @Sendable (Auth, User?) -> Void) -> UInt64 {
        addListener(kind, auth: auth) { auth, user in MainQueue.deliver { callback(auth, user) } }
    }

    /// Registers a listener called on `queue`, and calls it once, soon, with the current user.
    func addListener(_ kind: ListenerKind, auth: Auth, queue: DispatchQueue, _ callback: @escaping @Sendable (Auth, User?) -> Void) -> UInt64 {
        addListener(kind, auth: auth) { auth, user in queue.async { callback(auth, user) } }
    }

    private func addListener(_ kind: ListenerKind, auth: Auth, deliver: @escaping @Sendable (Auth, User?) -> Void) -> UInt64 {
        state.withLock { state in
            let id = state.nextListenerID
            state.nextListenerID += 1
            state.listeners.append(Listener(id: id, kind: kind, auth: auth, deliver: deliver))
            deliver(auth, state.currentUser)
            return id
        }
    }

    func removeListener(_ id: UInt64) {
        state.withLock { $0.listeners.removeAll { $0.id == id } }
    }

    /// Tells listeners about a change of the current user or its ID token. Called under the lock, so that
    /// deliveries are queued in the order of the changes.
    private static func notify(_ state: inout State) {
        let user = state.currentUser
        let uid = user?.uid
        let token = user?.cachedTokens.idToken
        let uidChanged = uid != state.notifiedUID
        let tokenChanged = token != state.notifiedToken
        state.notifiedUID = uid
        state.notifiedToken = token
        guard uidChanged || tokenChanged else { return }
        for listener in state.listeners {
            let fire = listener.kind == .authState ? uidChanged : true
            guard fire else { continue }
            listener.deliver(listener.auth, user)
        }
        MainQueue.deliver {
            NotificationCenter.default.post(name: Auth.authStateDidChangeNotification, object: nil)
        }
    }

    // MARK: The current user

    /// Makes `user` the current user: stored first (a store failure leaves the old user), then announced.
    func setCurrentUser(_ user: User) throws {
        try persist(user)
        state.withLock { state in
            state.currentUser = user
            Self.notify(&state)
        }
    }

    /// Saves the user if it is the current one (or about to be) and tells listeners about a new token.
    func userDidChange(_ user: User) {
        let isCurrent = state.withLock { $0.currentUser === user }
        guard isCurrent else { return }
        try? persist(user)
        state.withLock { state in
            guard state.currentUser === user else { return }
            Self.notify(&state)
        }
    }

    private func persist(_ user: User) throws {
        do {
            let data = try JSONEncoder().encode(user.snapshot)
            try store.setData(data, forKey: storageKey)
        } catch {
            throw AuthErrorFactory.error(.keychainError, failureReason: "The signed-in user could not be stored: \(error)", underlying: error)
        }
    }

    /// Signs out locally: forgets the stored user and tells listeners.
    func signOut() throws {
        guard currentUser != nil else { return }
        do {
            try store.removeData(forKey: storageKey)
        } catch {
            throw AuthErrorFactory.error(.keychainError, failureReason: "The signed-in user could not be removed: \(error)", underlying: error)
        }
        state.withLock { state in
            state.currentUser = nil
            Self.notify(&state)
        }
    }

    /// Signs `user` out if it is still the current user; for errors that say its session is over.
    func signOutByForce(ifCurrent user: User) {
        let isCurrent = state.withLock { $0.currentUser === user }
        guard isCurrent else { return }
        try? store.removeData(forKey: storageKey)
        state.withLock { state in
            guard state.currentUser === user else { return }
            state.currentUser = nil
            Self.notify(&state)
        }
    }

    /// Codes after which the user's session is over and the SDK signs out (FirebaseAuth's `signOutIfTokenIsInvalid`).
    static func endsSession(_ error: any Error) -> Bool {
        guard let code = AuthErrorCode(error) else { return false }
        return [.userNotFound, .userDisabled, .invalidUserToken, .userTokenExpired].contains(code)
    }

    // MARK: Signing in

    /// Builds a user from fresh tokens: reads its profile with `accounts:lookup`.
    func makeUser(idToken: String?, refreshToken: String?, expiresIn: String?, isAnonymous: Bool) async throws -> User {
        guard let idToken, !idToken.isEmpty, let refreshToken, !refreshToken.isEmpty else {
            throw AuthErrorFactory.error(.invalidUserToken, message: "accessToken or refreshToken is nil")
        }
        let tokens = TokenSet(idToken: idToken, refreshToken: refreshToken, expirationDate: expiry(expiresIn))
        let info = try await lookup(idToken: idToken)
        let tenant = Self.tenant(ofIDToken: idToken) ?? tenantID
        var stored = StoredUser(uid: info.localId, isAnonymous: isAnonymous, tokens: tokens, apiKey: options.apiKey, tenantID: tenant)
        stored.apply(info)
        return User(stored: stored, engine: self)
    }

    /// The tenant an ID token names (`firebase.tenant`): the account's, whatever ``tenantID`` said when it signed in.
    /// `nil` for a project's token; the auth's tenant for a token whose payload cannot be read.
    static func tenant(ofIDToken idToken: String) -> String?? {
        guard let claims = JWTPayload.decode(idToken) else { return nil }
        return .some((claims["firebase"] as? [String: Any])?["tenant"] as? String)
    }

    func expiry(_ expiresIn: String?) -> Date {
        now.addingTimeInterval(expiresIn.flatMap(TimeInterval.init) ?? 3600)
    }

    func lookup(idToken: String) async throws -> HearthWire.UserInfo {
        let response: LookupResponse = try await backend.call(
            .lookup,
            {
                var request = LookupRequest(idToken: idToken)
                request.tenantId = nil
                return request
            }())
        guard let info = response.users?.first else {
            throw AuthErrorFactory.error(.userNotFound)
        }
        return info
    }

    // MARK: Tokens

    /// The user's ID token, refreshed when less than five minutes remain (or when forced). Concurrent
    /// refreshes of one user share one request.
    func idToken(for user: User, forcingRefresh: Bool) async throws -> String {
        let tokens = user.cachedTokens
        if !forcingRefresh, tokens.expirationDate.timeIntervalSince(now) > Self.refreshMargin {
            return tokens.idToken
        }
        // A caller that saw the token just before a refresh finished joins that refresh (it stays remembered
        // until the next one) instead of sending the old refresh token again.
        let task = user.refreshTask(replacing: tokens.idToken) {
            Task { try await self.refresh(user, from: tokens) }
        }
        return try await task.value
    }

    private func refresh(_ user: User, from tokens: TokenSet) async throws -> String {
        state.withLock { $0.refreshCount += 1 }
        let response: TokenResponse
        do {
            response = try await backend.refresh(tokens.refreshToken)
        } catch {
            user.refreshFailed(replacing: tokens.idToken)
            if Self.endsSession(error) { signOutByForce(ifCurrent: user) }
            throw error
        }
        let idToken = response.idToken.isEmpty ? response.accessToken : response.idToken
        guard !idToken.isEmpty else {
            user.refreshFailed(replacing: tokens.idToken)
            throw AuthErrorFactory.error(.internalError, message: "The token response has no ID token.")
        }
        user.updateTokens(TokenSet(idToken: idToken, refreshToken: response.refreshToken, expirationDate: expiry(response.expiresIn)))
        userDidChange(user)
        return idToken
    }

    /// Runs a call that needs the user's ID token; signs the user out when the server says its session is over.
    func withIDToken<T>(of user: User, forcingRefresh: Bool = false, _ body: (String) async throws -> T) async throws -> T {
        do {
            let token = try await idToken(for: user, forcingRefresh: forcingRefresh)
            return try await body(token)
        } catch {
            if Self.endsSession(error) { signOutByForce(ifCurrent: user) }
            throw error
        }
    }

    // MARK: Identity providers

    /// `accounts:signInWithIdp` with FirebaseAuth's reading of the answer (client-sdk.md §3.4): an in-band
    /// `errorMessage` becomes ``AuthErrorCode/credentialAlreadyInUse`` or ``AuthErrorCode/emailAlreadyInUse``
    /// carrying the e-mail and a credential to retry with; `needConfirmation` becomes
    /// ``AuthErrorCode/accountExistsWithDifferentCredential`` when `checkConfirmation` (sign-in and
    /// re-authentication, not linking).
    func signInWithIdp(_ credential: OAuthCredential, linkingTo idToken: String?, autoCreate: Bool, checkConfirmation: Bool) async throws
        -> SignInWithIdpResponse
    {
        let request = credential.request(idToken: idToken, autoCreate: autoCreate, tenantID: tenantID)
        let response: SignInWithIdpResponse = try await backend.call(.signInWithIdp, request)
        if let message = response.errorMessage, !message.isEmpty {
            let updated = OAuthCredential(response: response)
            let detail = AuthErrorFactory.serverDetail(of: message)
            switch AuthErrorFactory.serverCode(of: message) {
            case "FEDERATED_USER_ID_ALREADY_LINKED":
                throw AuthErrorFactory.error(
                    .credentialAlreadyInUse, message: updated == nil && response.email == nil ? detail : nil,
                    email: response.email, updatedCredential: updated)
            case "EMAIL_EXISTS":
                throw AuthErrorFactory.error(.emailAlreadyInUse, message: detail, email: response.email, updatedCredential: updated)
            default:
                break  // FirebaseAuth ignores other in-band messages.
            }
        }
        if checkConfirmation, response.needConfirmation == true {
            throw AuthErrorFactory.error(
                .accountExistsWithDifferentCredential, email: response.email, updatedCredential: OAuthCredential(response: response))
        }
        return response
    }

    /// The result of a signInWithIdp answer for `user`.
    static func result(_ response: SignInWithIdpResponse, user: User) -> AuthDataResult {
        let info = AdditionalUserInfo(
            providerID: response.providerId ?? "", profile: AdditionalUserInfo.profile(fromRawUserInfo: response.rawUserInfo),
            username: response.screenName, isNewUser: response.isNewUser ?? false)
        return AuthDataResult(user: user, additionalUserInfo: info, credential: OAuthCredential(response: response))
    }
}
