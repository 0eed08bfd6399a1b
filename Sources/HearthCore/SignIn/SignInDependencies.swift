import Foundation

// The narrow parts of the server a sign-in use case works through. Each is a protocol so that the use cases are
// tested without HTTP or SQL (Tests/HearthCoreTests/SignIn) and the server gives its own implementations.

/// Hashes and checks passwords off the event loops (the server's hashing lanes).
public protocol PasswordChecking: Sendable {
    /// A new hash of `password` in the server's own format.
    func hash(_ password: String) async throws -> String
    /// Whether `password` matches `hash` (any format the server knows, imported ones included).
    func verify(_ password: String, against hash: String) async throws -> Bool
    /// Spends the time of a real check without a hash to check against: an unknown e-mail or an account without
    /// a password must not answer faster than a wrong password (the time would tell which e-mails exist).
    func verifyDecoy(_ password: String) async throws
    /// Whether `hash` should be redone in the server's own format once the password is known.
    func needsRehash(_ hash: String) -> Bool
}

/// Writes audit events. A failure to record is the recorder's to log: a change that happened is never undone by it.
public protocol AuditRecording: Sendable {
    func record(_ event: AuditEvent) async
}

/// Signs the ID tokens of a sign-in.
public protocol IDTokenMinting: Sendable {
    /// Seconds an ID token lives (the `expiresIn` of every sign-in answer).
    var idTokenLifetime: TimeInterval { get }
    /// An ID token for `user`; `sessionClaims` are a custom token's developer claims, `secondFactor` the factor the
    /// sign-in was completed with.
    func mintIDToken(
        for user: UserRecord, signInProvider: String, authTime: Date, sessionClaims: [String: JSONValue], secondFactor: SecondFactorUse?
    ) async throws -> String
}

extension IDTokenMinting {
    /// An ID token of a session without a second factor.
    public func mintIDToken(for user: UserRecord, signInProvider: String, authTime: Date, sessionClaims: [String: JSONValue]) async throws
        -> String
    {
        try await mintIDToken(for: user, signInProvider: signInProvider, authTime: authTime, sessionClaims: sessionClaims, secondFactor: nil)
    }
}

/// Checks a person's ID token (linking, upgrading, reauthenticating) and loads the user.
public protocol IDTokenAuthenticating: Sendable {
    /// The token's user, with Firebase's checks in Firebase's order: `INVALID_ID_TOKEN`, `TOKEN_EXPIRED`,
    /// `USER_NOT_FOUND`, `USER_DISABLED`.
    func authenticate(_ idToken: String) async throws -> AuthenticatedUser
}

/// A user signed in by an ID token: the user as stored now, and the sign-in the token carries.
public struct AuthenticatedUser: Sendable {
    public var user: UserRecord
    /// The token's `auth_time` (seconds since 1970): when the person last proved who they are.
    public var authTime: Int64
    /// The token's `firebase.sign_in_provider`.
    public var signInProvider: String
    /// The token's `firebase.sign_in_second_factor` and `second_factor_identifier`.
    public var secondFactor: SecondFactorUse?

    public init(user: UserRecord, authTime: Int64, signInProvider: String, secondFactor: SecondFactorUse? = nil) {
        self.user = user
        self.authTime = authTime
        self.signInProvider = signInProvider
        self.secondFactor = secondFactor
    }
}

/// The project's sign-in settings as they stand (the configuration's, overridden by an administrator's).
public protocol ProjectSettingsReading: Sendable {
    func projectSettings() async throws -> ProjectSettings
}

/// Who asks: the client's address as a counter key for the abuse limits, and where the request came from for the
/// audit events.
public struct ClientOrigin: Sendable {
    public var counterAddress: String
    public var audit: AuditOrigin

    public init(counterAddress: String, audit: AuditOrigin) {
        self.counterAddress = counterAddress
        self.audit = audit
    }
}
