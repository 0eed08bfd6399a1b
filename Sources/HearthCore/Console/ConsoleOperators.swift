import Foundation

/// Adds, lists and removes the console's operators (`hearth console add-operator|list-operators|remove-operator`).
public struct ConsoleOperators: Sendable {
    public let store: any OperatorStore
    public let passwords: any PasswordChecking
    public let totp: TOTPCodes
    public let secrets: OperatorSecrets
    public let audit: any AuditRecording
    public let clock: WallClock

    public init(
        store: any OperatorStore, passwords: any PasswordChecking, totp: TOTPCodes, secrets: OperatorSecrets, audit: any AuditRecording,
        clock: WallClock
    ) {
        self.store = store
        self.passwords = passwords
        self.totp = totp
        self.secrets = secrets
        self.audit = audit
        self.clock = clock
    }

    /// A new operator as shown once: the secret for the authenticator app and the recovery codes are never shown again.
    public struct Added: Sendable {
        public let record: OperatorRecord
        /// The TOTP secret in base32, as authenticator apps take it typed in.
        public let sharedSecretKey: String
        /// `otpauth://totp/…`: what a QR code for the authenticator app holds.
        public let authenticatorURL: String
        public let recoveryCodes: [String]
    }

    /// The shortest password an operator may have.
    public static let minimumPasswordLength = 12

    /// Adds an operator. Throws `INVALID_EMAIL`, `WEAK_PASSWORD` (under ``minimumPasswordLength`` characters),
    /// `EMAIL_EXISTS`.
    /// - Parameters:
    ///   - issuer: the name the authenticator app shows for the entry (the project id).
    ///   - actorID: who added them, as the audit event names them.
    public func add(email: String, role: OperatorRecord.Role, password: String, issuer: String, actorID: String) async throws -> Added {
        guard let email = EmailAddress.normalize(email) else { throw HearthError(.invalidEmail) }
        guard password.count >= Self.minimumPasswordLength, UserText.isStorable(password) else {
            throw HearthError(.weakPassword, detail: "An operator's password needs at least \(Self.minimumPasswordLength) characters.")
        }
        if try await store.consoleOperator(email: email) != nil { throw HearthError(.emailExists) }
        let secret = TOTPCodes.makeSecret()
        let codes = RecoveryCodes.make()
        var record = OperatorRecord(
            email: email, role: role, passwordHash: try await passwords.hash(password), totpSecret: "", recoveryCodeHashes: [],
            createdAt: clock.now)
        record.totpSecret = try secrets.seal(secret, operatorID: record.id)
        record.recoveryCodeHashes = codes.compactMap { RecoveryCodes.hash($0, uid: record.recoveryCodeSubject) }
        try await StoreConflict.mapped { try await store.createConsoleOperator(record) }
        await audit.record(
            AuditEvent(
                time: clock.now, kind: .consoleOperatorAdded, actor: .administrator, actorID: actorID,
                details: ["operator": email, "role": role.rawValue]))
        return Added(
            record: record, sharedSecretKey: totp.algorithm.sharedSecretKey(for: secret),
            authenticatorURL: totp.algorithm.authenticatorURL(secret: secret, accountName: email, issuer: issuer), recoveryCodes: codes)
    }

    /// Every operator, by e-mail.
    public func list() async throws -> [OperatorRecord] {
        try await store.consoleOperators()
    }

    /// Removes the operator with `email` and ends their sessions. Returns whether there was one.
    @discardableResult
    public func remove(email: String, actorID: String) async throws -> Bool {
        guard let email = EmailAddress.normalize(email), let record = try await store.consoleOperator(email: email) else { return false }
        guard try await store.deleteConsoleOperator(id: record.id) else { return false }
        await audit.record(
            AuditEvent(time: clock.now, kind: .consoleOperatorRemoved, actor: .administrator, actorID: actorID, details: ["operator": email]))
        return true
    }
}

/// Seals the operators' authenticator secrets with the server's key-encryption key, each bound to its operator (a sealed
/// secret copied to another row does not open), as ``MultiFactorSecrets`` seals the users'. Without a key they are kept
/// as they are.
public struct OperatorSecrets: Sendable {
    public let sealer: SecretSealer?

    public init(sealer: SecretSealer?) { self.sealer = sealer }

    /// The context a secret is sealed for.
    public static func context(operatorID: String) -> String { "console-operator/\(operatorID)/totp" }

    public func seal(_ secret: String, operatorID: String) throws -> String {
        guard let sealer else { return secret }
        return try sealer.seal(secret, context: Self.context(operatorID: operatorID))
    }

    /// The secret; throws when it was sealed with another key or for another operator.
    public func open(_ stored: String, operatorID: String) throws -> String {
        guard SecretSealer.isSealed(stored) else { return stored }
        guard let sealer else { throw HearthError(.internalError, reason: "an operator's TOTP secret is sealed but the server has no key") }
        return try sealer.open(stored, context: Self.context(operatorID: operatorID))
    }
}
