import Foundation
import HearthCore
import SQLKit

// MARK: - PhoneVerificationStore

extension SQLStore {
    /// One write transaction: the verifications expired before `record.createdAt` go, then the new one is inserted.
    /// Throws `INVALID_ARGUMENT` when a text holds a NUL.
    public func insertPhoneVerification(_ record: PhoneVerificationRecord) async throws {
        for text in [record.key, record.phoneNumber, record.codeHash ?? ""] where !UserText.isStorable(text) {
            throw HearthError(.invalidArgument, detail: "Text values must not contain NUL characters.", reason: "NUL in a phone verification")
        }
        let values: [any Encodable & Sendable] = [
            record.key, record.kind.rawValue, record.phoneNumber, record.codeHash, Int64(record.attemptsLeft),
            StoredTime.milliseconds(record.createdAt), StoredTime.milliseconds(record.expiresAt),
        ]
        try await work.write { database in
            try await Self.exec(
                database, "DELETE FROM phone_verifications WHERE expires_at < \(bind: StoredTime.milliseconds(record.createdAt))")
            try await Self.exec(
                database,
                "INSERT INTO phone_verifications (tenant_id, \(Self.phoneVerificationColumns)) VALUES (\(bind: self.tenantID), \(binds: values))")
        }
    }

    /// One write transaction of conditional statements, each atomic on its own: a right code spends the session
    /// (`attempts_left` to 0) only while attempts are left, a wrong one takes an attempt only while any is left. Two
    /// parallel right codes cannot both find attempts left: the second `UPDATE` waits for the first's row lock
    /// (PostgreSQL re-reads the row then; SQLite has one writer) and matches nothing.
    public func checkPhoneCode(key: String, codeHash: String) async throws -> PhoneCodeCheck {
        guard UserText.isStorable(key), UserText.isStorable(codeHash) else { return .unknown }
        return try await work.write { database in
            let verified = try await Self.rows(
                database,
                """
                UPDATE phone_verifications SET attempts_left = 0
                WHERE tenant_id = \(bind: self.tenantID) AND verification_key = \(bind: key) AND kind = 'code' AND code_hash = \(bind: codeHash) AND attempts_left > 0
                RETURNING \(Self.phoneVerificationColumns)
                """)
            if let row = verified.first { return .verified(try Self.phoneVerification(from: row)) }
            let wrong = try await Self.rows(
                database,
                """
                UPDATE phone_verifications SET attempts_left = attempts_left - 1
                WHERE tenant_id = \(bind: self.tenantID) AND verification_key = \(bind: key) AND kind = 'code' AND attempts_left > 0
                RETURNING attempts_left, expires_at
                """)
            if let row = wrong.first {
                return .wrongCode(attemptsLeft: Int(try row.int64("attempts_left")), expiresAt: try row.date("expires_at"))
            }
            let exists = try await Self.exists(
                database,
                "SELECT 1 FROM phone_verifications WHERE tenant_id = \(bind: self.tenantID) AND verification_key = \(bind: key) AND kind = 'code'")
            return exists ? .spent : .unknown
        }
    }

    /// One write transaction: a conditional `UPDATE … RETURNING` takes the attempt; when it matches nothing, whether
    /// the session exists tells spent from unknown.
    public func reservePhoneAttempt(key: String) async throws -> PhoneAttemptReservation {
        guard UserText.isStorable(key) else { return .unknown }
        return try await work.write { database in
            let reserved = try await Self.rows(
                database,
                """
                UPDATE phone_verifications SET attempts_left = attempts_left - 1
                WHERE tenant_id = \(bind: self.tenantID) AND verification_key = \(bind: key) AND kind = 'external' AND attempts_left > 0
                RETURNING \(Self.phoneVerificationColumns)
                """)
            if let row = reserved.first { return .reserved(try Self.phoneVerification(from: row)) }
            let exists = try await Self.exists(
                database,
                "SELECT 1 FROM phone_verifications WHERE tenant_id = \(bind: self.tenantID) AND verification_key = \(bind: key) AND kind IN ('external', 'spent')"
            )
            return exists ? .spent : .unknown
        }
    }

    /// One conditional statement: the session becomes `spent` for the first caller only.
    public func spendPhoneSession(key: String) async throws -> Bool {
        guard UserText.isStorable(key) else { return false }
        return try await work.writeSingleStatement { database in
            try await Self.rows(
                database,
                """
                UPDATE phone_verifications SET kind = 'spent', attempts_left = 0
                WHERE tenant_id = \(bind: self.tenantID) AND verification_key = \(bind: key) AND kind = 'external'
                RETURNING verification_key
                """
            ).count == 1
        }
    }

    public func phoneProof(key: String) async throws -> PhoneVerificationRecord? {
        guard UserText.isStorable(key) else { return nil }
        return try await work.readSingleStatement { database in
            try await Self.rows(
                database,
                "SELECT \(Self.phoneVerificationColumns) FROM phone_verifications WHERE tenant_id = \(bind: self.tenantID) AND verification_key = \(bind: key) AND kind = 'proof'"
            ).first.map(Self.phoneVerification(from:))
        }
    }

    /// One `DELETE … RETURNING` statement: of two replicas given the same proof at once, one gets it.
    public func consumePhoneProof(key: String) async throws -> PhoneVerificationRecord? {
        guard UserText.isStorable(key) else { return nil }
        let rows = try await work.writeSingleStatement { database in
            try await Self.rows(
                database,
                """
                DELETE FROM phone_verifications WHERE tenant_id = \(bind: self.tenantID) AND verification_key = \(bind: key) AND kind = 'proof'
                RETURNING \(Self.phoneVerificationColumns)
                """)
        }
        return try rows.first.map(Self.phoneVerification(from:))
    }

    @discardableResult
    public func deletePhoneVerifications(expiredBefore date: Date) async throws -> Int {
        try await work.writeSingleStatement { database in
            try await Self.rows(
                database,
                """
                DELETE FROM phone_verifications WHERE expires_at < \(bind: StoredTime.milliseconds(date))
                RETURNING verification_key
                """
            ).count
        }
    }
}

// MARK: - Rows

extension SQLStore {
    static let phoneVerificationColumns: SQLQueryString = """
        verification_key, kind, phone_number, code_hash, attempts_left, created_at, expires_at
        """

    static func phoneVerification(from row: any SQLRow) throws -> PhoneVerificationRecord {
        guard let kind = PhoneVerificationRecord.Kind(rawValue: try row.text("kind")) else {
            throw SQLStoreError.undecodableColumn("kind")
        }
        return PhoneVerificationRecord(
            key: try row.text("verification_key"), kind: kind, phoneNumber: try row.text("phone_number"),
            codeHash: try row.optionalText("code_hash"), attemptsLeft: Int(try row.int64("attempts_left")),
            createdAt: try row.date("created_at"), expiresAt: try row.date("expires_at"))
    }
}
