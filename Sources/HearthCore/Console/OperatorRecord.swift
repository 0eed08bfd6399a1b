import Foundation

/// A person who signs in to the console (`/console`): kept apart from the project's users, in a table of their own,
/// with a password, an authenticator app (TOTP) and one-time recovery codes. Made with `hearth console add-operator`.
public struct OperatorRecord: Sendable, Equatable {
    /// What an operator may do; each role may do what the roles before it may.
    public enum Role: String, Sendable, CaseIterable, Comparable {
        /// Reads users, their events and the status page.
        case viewer
        /// Also changes users: disables, deletes, sets passwords and claims, removes factors, unlinks providers.
        case editor
        /// Also manages the settings and the operators.
        case owner

        public static func < (a: Role, b: Role) -> Bool {
            allCases.firstIndex(of: a)! < allCases.firstIndex(of: b)!
        }

        /// Whether this role may do what `needed` may.
        public func permits(_ needed: Role) -> Bool { self >= needed }
    }

    /// Random: 32 lower-case hex digits (``AuditEvent/makeID()``).
    public var id: String
    /// Normalised (``EmailAddress/normalize(_:)``): lower case, unique among operators.
    public var email: String
    public var role: Role
    /// The password's hash in the server's own format (``PasswordHasher``).
    public var passwordHash: String
    /// The authenticator app's secret, sealed with the key-encryption key when the server has one
    /// (``OperatorSecrets``).
    public var totpSecret: String
    /// The hashes of the recovery codes not used yet (``RecoveryCodes/hash(_:uid:)`` over ``recoveryCodeSubject``).
    public var recoveryCodeHashes: [String]
    /// The period of the last authenticator code accepted: a code is taken once, and never one of an earlier period.
    public var lastCodeStep: Int64?
    public var createdAt: Date
    public var lastSignInAt: Date?

    public init(
        id: String = AuditEvent.makeID(), email: String, role: Role, passwordHash: String, totpSecret: String, recoveryCodeHashes: [String],
        lastCodeStep: Int64? = nil, createdAt: Date, lastSignInAt: Date? = nil
    ) {
        self.id = id
        self.email = email
        self.role = role
        self.passwordHash = passwordHash
        self.totpSecret = totpSecret
        self.recoveryCodeHashes = recoveryCodeHashes
        self.lastCodeStep = lastCodeStep
        self.createdAt = createdAt
        self.lastSignInAt = lastSignInAt
    }

    /// What the recovery codes are hashed over (a code of one operator is worth nothing for another, or for a user).
    public var recoveryCodeSubject: String { "console-operator/\(id)" }

    /// How audit events name the operator (``AuditEvent/actorID``): `operator:<e-mail>`.
    public var actorID: String { "operator:\(email)" }
}

/// A signed-in operator's browser, or one half-way through signing in (password right, code not yet given).
///
/// The browser holds a random token in a cookie; the store keeps only its SHA-256 (``tokenHash``).
public struct ConsoleSessionRecord: Sendable, Equatable {
    public enum Stage: String, Sendable {
        /// The password was right; the authenticator code or a recovery code is awaited.
        case awaitingCode = "awaiting-code"
        /// Signed in.
        case signedIn = "signed-in"
    }

    /// 64 lower-case hex digits: SHA-256 of the cookie's token.
    public var tokenHash: String
    public var operatorID: String
    public var stage: Stage
    public var createdAt: Date
    /// The last request the session made: the idle time-out counts from here.
    public var lastSeenAt: Date

    public init(tokenHash: String, operatorID: String, stage: Stage, createdAt: Date, lastSeenAt: Date) {
        self.tokenHash = tokenHash
        self.operatorID = operatorID
        self.stage = stage
        self.createdAt = createdAt
        self.lastSeenAt = lastSeenAt
    }
}

/// The console's operators and their sessions. Operators are the server's, not a tenant's: these calls are the same
/// whatever tenant a store is scoped to.
public protocol OperatorStore: Sendable {
    /// Adds `record`; throws ``StoreConflict/email`` when an operator has its e-mail already.
    func createConsoleOperator(_ record: OperatorRecord) async throws
    func consoleOperator(id: String) async throws -> OperatorRecord?
    func consoleOperator(email: String) async throws -> OperatorRecord?
    /// Every operator, by e-mail.
    func consoleOperators() async throws -> [OperatorRecord]
    /// Reads the operator, lets `mutate` change it (not its id) and writes it back, in one transaction; `nil` when
    /// there is none. Errors `mutate` throws abort the transaction.
    @discardableResult
    func updateConsoleOperator(id: String, _ mutate: @escaping @Sendable (inout OperatorRecord) throws -> Void) async throws
        -> OperatorRecord?
    /// Deletes the operator and their sessions. Returns whether there was one.
    @discardableResult
    func deleteConsoleOperator(id: String) async throws -> Bool

    func insertConsoleSession(_ session: ConsoleSessionRecord) async throws
    /// The session of `tokenHash` and its operator; `nil` when there is none.
    func consoleSession(tokenHash: String) async throws -> (session: ConsoleSessionRecord, operator: OperatorRecord)?
    /// Records a request of the session at `time`.
    func touchConsoleSession(tokenHash: String, at time: Date) async throws
    @discardableResult
    func deleteConsoleSession(tokenHash: String) async throws -> Bool
    /// Deletes the sessions last seen before `before` or made before `createdBefore`. Returns how many.
    @discardableResult
    func deleteConsoleSessions(lastSeenBefore before: Date, createdBefore: Date) async throws -> Int
}
