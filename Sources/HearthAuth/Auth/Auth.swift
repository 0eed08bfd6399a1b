import Foundation
import HearthWire

/// The entry point of authentication for one app: signs users in and out and tells listeners about it.
///
/// Get it with `Auth.auth()` (the default app) or `Auth.auth(app:)`. Every operation has a completion-handler
/// form, whose handler runs on the main queue, and an `async` form.
public final class Auth: Sendable {
    let engine: AuthEngine

    init(engine: AuthEngine) {
        self.engine = engine
    }

    /// An `Auth` of the default app. Prefer ``auth()``: this exists so that snippets written `Auth()` compile.
    /// It shares the state of `Auth.auth()` (current user, listeners, settings) but is a different object.
    @available(*, deprecated, message: "Use Auth.auth()")
    public convenience init() {
        self.init(engine: Auth.auth().engine)
    }

    /// The notification posted (on the main queue, object nil) whenever the current user or its ID token changes.
    public static let authStateDidChangeNotification = Notification.Name("FIRAuthStateDidChangeNotification")

    /// The default app's `Auth`.
    /// - Precondition: ``HearthApp/configure()`` (or `configure(options:)`) was called.
    public static func auth() -> Auth {
        guard let app = HearthApp.app() else {
            fatalError(
                "The default HearthApp instance must be configured before the default Auth instance can be initialized. "
                    + "Call HearthApp.configure(options:) first (FirebaseApp.configure() in FirebaseAuth).")
        }
        return app.auth
    }

    /// The `Auth` of an app.
    public static func auth(app: HearthApp) -> Auth { app.auth }

    /// The app, while it is configured.
    public var app: HearthApp? {
        guard let app = HearthApp.app(name: engine.appName), app.engine === engine else { return nil }
        return app
    }

    /// The signed-in user, restored from the store at start-up, or nil.
    public var currentUser: User? { engine.currentUser }

    /// The tenant new sign-ins belong to; restored from the stored user at start-up.
    public var tenantID: String? {
        get { engine.tenantID }
        set { engine.tenantID = newValue }
    }

    /// The language of messages the server sends on the user's behalf (`X-Firebase-Locale`).
    public var languageCode: String? {
        get { engine.languageCode }
        set { engine.languageCode = newValue }
    }

    /// Sets ``languageCode`` to the device's preferred language.
    public func useAppLanguage() {
        languageCode = Locale.preferredLanguages.first
    }

    /// Runs interactive OAuth sign-ins for `OAuthProvider.getCredentialWith(nil)`; see ``AuthUIDelegate``.
    public var defaultUIDelegate: (any AuthUIDelegate)? {
        get { engine.defaultUIDelegate }
        set { engine.defaultUIDelegate = newValue }
    }

    /// The base URL calls go to: ``HearthOptions/serverURL`` or what ``useEmulator(withHost:port:)`` set.
    public var serverURL: String { engine.serverURL }

    /// Sends every call to the Hearth server at `host:port` over plain HTTP, the way a Firebase app points at
    /// the Authentication emulator.
    public func useEmulator(withHost host: String, port: Int) {
        precondition(!host.isEmpty, "Cannot connect to an empty host.")
        engine.serverURL = HearthOptions.url(host: host, port: port)
    }

    /// Token refreshes this `Auth`'s app has sent, for tests of coalescing.
    @_spi(Testing) public var tokenRefreshCount: Int { engine.refreshCount }

    // MARK: Anonymous

    /// Signs in a new anonymous user; if the current user is already anonymous, returns it without a call.
    public func signInAnonymously(completion: (@MainActor @Sendable (AuthDataResult?, (any Error)?) -> Void)? = nil) {
        complete(completion) { try await self.signInAnonymously() }
    }

    @discardableResult
    public func signInAnonymously() async throws -> AuthDataResult {
        if let user = currentUser, user.isAnonymous {
            return AuthDataResult(user: user, additionalUserInfo: nil, credential: nil)
        }
        var request = SignUpRequest()
        request.tenantId = tenantID
        let response: SignUpResponse = try await engine.backend.call(.signUp, request)
        let user = try await engine.makeUser(
            idToken: response.idToken, refreshToken: response.refreshToken, expiresIn: response.expiresIn, isAnonymous: true)
        try engine.setCurrentUser(user)
        return AuthDataResult(
            user: user, additionalUserInfo: AdditionalUserInfo(providerID: "", profile: nil, username: nil, isNewUser: true), credential: nil)
    }

    // MARK: E-mail and password

    /// Creates a user with an e-mail address and password and signs it in.
    public func createUser(
        withEmail email: String, password: String, completion: (@MainActor @Sendable (AuthDataResult?, (any Error)?) -> Void)? = nil
    ) {
        complete(completion) { try await self.createUser(withEmail: email, password: password) }
    }

    @discardableResult
    public func createUser(withEmail email: String, password: String) async throws -> AuthDataResult {
        if password.isEmpty { throw AuthErrorFactory.error(.weakPassword, failureReason: "Missing password") }
        if email.isEmpty { throw AuthErrorFactory.error(.missingEmail) }
        var request = SignUpRequest(email: email, password: password)
        request.tenantId = tenantID
        let response: SignUpResponse = try await engine.backend.call(.signUp, request)
        let user = try await engine.makeUser(
            idToken: response.idToken, refreshToken: response.refreshToken, expiresIn: response.expiresIn, isAnonymous: false)
        try engine.setCurrentUser(user)
        return AuthDataResult(
            user: user, additionalUserInfo: AdditionalUserInfo(providerID: EmailAuthProviderID, profile: nil, username: nil, isNewUser: true),
            credential: nil)
    }

    /// Signs in with an e-mail address and password.
    public func signIn(withEmail email: String, password: String, completion: (@MainActor @Sendable (AuthDataResult?, (any Error)?) -> Void)? = nil) {
        complete(completion) { try await self.signIn(withEmail: email, password: password) }
    }

    @discardableResult
    public func signIn(withEmail email: String, password: String) async throws -> AuthDataResult {
        let user = try await passwordUser(email: email, password: password)
        try engine.setCurrentUser(user)
        return AuthDataResult(
            user: user, additionalUserInfo: AdditionalUserInfo(providerID: EmailAuthProviderID, profile: nil, username: nil, isNewUser: false),
            credential: nil)
    }

    /// A user signed in with a password, not yet made current.
    func passwordUser(email: String, password: String) async throws -> User {
        if password.isEmpty { throw AuthErrorFactory.error(.wrongPassword) }
        var request = SignInWithPasswordRequest(email: email, password: password)
        request.tenantId = tenantID
        let response: SignInWithPasswordResponse = try await engine.backend.call(.signInWithPassword, request)
        return try await engine.makeUser(
            idToken: response.idToken, refreshToken: response.refreshToken, expiresIn: response.expiresIn, isAnonymous: false)
    }

    // MARK: Credentials

    /// Signs in with a provider's credential (or an e-mail or phone credential). When another account owns the
    /// credential's e-mail, fails with ``AuthErrorCode/accountExistsWithDifferentCredential`` carrying the e-mail
    /// (``AuthErrorUserInfoEmailKey``) and a credential to link later (``AuthErrorUserInfoUpdatedCredentialKey``).
    public func signIn(with credential: AuthCredential, completion: (@MainActor @Sendable (AuthDataResult?, (any Error)?) -> Void)? = nil) {
        complete(completion) { try await self.signIn(with: credential) }
    }

    @discardableResult
    public func signIn(with credential: AuthCredential) async throws -> AuthDataResult {
        let (user, result) = try await credentialUser(credential, autoCreate: true)
        try engine.setCurrentUser(user)
        return result
    }

    /// A user signed in with a credential, not yet made current, and the result to return.
    func credentialUser(_ credential: AuthCredential, autoCreate: Bool) async throws -> (User, AuthDataResult) {
        switch credential {
        case let email as EmailAuthCredential:
            switch email.proof {
            case .password(let password):
                let user = try await passwordUser(email: email.email, password: password)
                return (
                    user,
                    AuthDataResult(
                        user: user,
                        additionalUserInfo: AdditionalUserInfo(providerID: EmailAuthProviderID, profile: nil, username: nil, isNewUser: false),
                        credential: nil)
                )
            case .link(let link):
                return try await emailLinkUser(email: email.email, link: link)
            }
        case let oauth as OAuthCredential:
            let response = try await engine.signInWithIdp(oauth, linkingTo: nil, autoCreate: autoCreate, checkConfirmation: true)
            let user = try await engine.makeUser(
                idToken: response.idToken, refreshToken: response.refreshToken, expiresIn: response.expiresIn, isAnonymous: false)
            return (user, AuthEngine.result(response, user: user))
        case let phone as PhoneAuthCredential:
            // FirebaseAuth's operations: a sign-in makes the number's account if there is none; a re-authentication
            // does not (USER_NOT_FOUND, which reauthenticate(with:) reports as userMismatch).
            let response = try await engine.signInWithPhoneNumber(phone, idToken: nil, operation: autoCreate ? "SIGN_UP_OR_IN" : "REAUTH")
            let user = try await engine.makeUser(
                idToken: response.idToken, refreshToken: response.refreshToken, expiresIn: response.expiresIn, isAnonymous: false)
            let info = AdditionalUserInfo(providerID: PhoneAuthProviderID, profile: nil, username: nil, isNewUser: response.isNewUser ?? false)
            return (user, AuthDataResult(user: user, additionalUserInfo: info, credential: nil))
        default:
            throw AuthErrorFactory.error(.invalidCredential, message: "Unsupported credential for provider \(credential.provider).")
        }
    }

    /// Signs in with a custom token minted by your backend (`accounts:signInWithCustomToken`): an RS256 token
    /// signed with a key the server is configured to trust, or, on a server in development mode, an unsigned one
    /// as the Firebase Admin SDKs mint for the emulator. The account of the token's `uid` is created on first use;
    /// the token's `claims` appear in every ID token of the session. A token the server cannot verify fails with
    /// ``AuthErrorCode/invalidCustomToken``.
    public func signIn(withCustomToken token: String, completion: (@MainActor @Sendable (AuthDataResult?, (any Error)?) -> Void)? = nil) {
        complete(completion) { try await self.signIn(withCustomToken: token) }
    }

    @discardableResult
    public func signIn(withCustomToken token: String) async throws -> AuthDataResult {
        struct Request: Encodable {
            var token: String
            var returnSecureToken = true
            var tenantId: String?
        }
        struct Response: Decodable {
            var idToken: String?
            var refreshToken: String?
            var expiresIn: String?
            var isNewUser: Bool?
        }
        let response: Response = try await engine.backend.call(.signInWithCustomToken, Request(token: token, tenantId: tenantID))
        let user = try await engine.makeUser(
            idToken: response.idToken, refreshToken: response.refreshToken, expiresIn: response.expiresIn, isAnonymous: false)
        try engine.setCurrentUser(user)
        return AuthDataResult(
            user: user, additionalUserInfo: AdditionalUserInfo(providerID: "", profile: nil, username: nil, isNewUser: response.isNewUser ?? false),
            credential: nil)
    }

    // MARK: Sign-in methods

    /// The sign-in methods of an e-mail (`"password"`, `"google.com"`, …); empty when the server protects
    /// against e-mail enumeration.
    @available(*, deprecated, message: "Deprecated in FirebaseAuth too: e-mail enumeration protection empties the answer.")
    public func fetchSignInMethods(forEmail email: String, completion: (@MainActor @Sendable ([String]?, (any Error)?) -> Void)? = nil) {
        complete(completion) { try await self.signInMethods(forEmail: email) }
    }

    @available(*, deprecated, message: "Deprecated in FirebaseAuth too: e-mail enumeration protection empties the answer.")
    public func fetchSignInMethods(forEmail email: String) async throws -> [String] {
        try await signInMethods(forEmail: email)
    }

    func signInMethods(forEmail email: String) async throws -> [String] {
        var request = CreateAuthUriRequest(identifier: email, continueUri: "http://localhost")
        request.tenantId = tenantID
        let response: CreateAuthUriResponse = try await engine.backend.call(.createAuthUri, request)
        return response.signinMethods ?? []
    }

    // MARK: Signing out and switching users

    /// Signs the current user out locally (no server call; the refresh token is not revoked). Does nothing
    /// when nobody is signed in; throws ``AuthErrorCode/keychainError`` if the stored user cannot be removed.
    public func signOut() throws {
        try engine.signOut()
    }

    /// Makes `user` the current user. A user of another app is copied into this one and reloaded first.
    public func updateCurrentUser(_ user: User?, completion: (@MainActor @Sendable ((any Error)?) -> Void)? = nil) {
        complete(completion) { try await self.updateCurrentUser(user) }
    }

    public func updateCurrentUser(_ user: User?) async throws {
        guard let user else { throw AuthErrorFactory.error(.nullUser) }
        if user.tenantID != tenantID { throw AuthErrorFactory.error(.tenantIDMismatch) }
        if user.engine === engine {
            try engine.setCurrentUser(user)
            return
        }
        var stored = user.snapshot
        stored.apiKey = engine.options.apiKey
        let adopted = User(stored: stored, engine: engine)
        try await adopted.reload()
        try engine.setCurrentUser(adopted)
    }
}
