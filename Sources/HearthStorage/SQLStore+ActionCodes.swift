import Foundation
import HearthCore
import SQLKit

// MARK: - ActionCodeStore

extension SQLStore {
    /// One write transaction: the codes expired before `record.createdAt` go, then the new one is inserted.
    /// Throws `INVALID_ARGUMENT` when a text holds a NUL, and the database's foreign-key violation when
    /// `record.uid` names no user.
    public func insertActionCode(_ record: ActionCodeRecord) async throws {
        try Self.checkStorable(record)
        let tenant = tenantID
        try await work.write { database in
            try await Self.exec(
                database, "DELETE FROM action_codes WHERE expires_at < \(bind: StoredTime.milliseconds(record.createdAt))")
            try await Self.exec(
                database,
                "INSERT INTO action_codes (tenant_id, \(Self.actionCodeColumns)) VALUES (\(bind: tenant), \(binds: Self.actionCodeValues(record)))")
        }
    }

    public func actionCode(hash: String) async throws -> ActionCodeRecord? {
        guard UserText.isStorable(hash) else { return nil }
        return try await work.readSingleStatement { database in
            try await Self.rows(
                database,
                "SELECT \(Self.actionCodeColumns) FROM action_codes WHERE tenant_id = \(bind: tenantID) AND code_hash = \(bind: hash)"
            ).first.map(Self.actionCode(from:))
        }
    }

    /// One `DELETE … RETURNING` statement: the row is read and removed atomically, so of two replicas
    /// receiving the same code at the same moment exactly one gets it.
    public func consumeActionCode(hash: String) async throws -> ActionCodeRecord? {
        guard UserText.isStorable(hash) else { return nil }
        let tenant = tenantID
        let rows = try await work.writeSingleStatement { database in
            try await Self.rows(
                database,
                "DELETE FROM action_codes WHERE tenant_id = \(bind: tenant) AND code_hash = \(bind: hash) RETURNING \(Self.actionCodeColumns)")
        }
        return try rows.first.map(Self.actionCode(from:))
    }

    @discardableResult
    public func deleteActionCodes(uid: String, kinds: Set<ActionCodeKind>) async throws -> Int {
        guard !kinds.isEmpty, UserText.isStorable(uid) else { return 0 }
        let kindNames = kinds.map(\.rawValue).sorted()
        let tenant = tenantID
        return try await work.writeSingleStatement { database in
            try await Self.rows(
                database,
                """
                DELETE FROM action_codes WHERE tenant_id = \(bind: tenant) AND uid = \(bind: uid) AND kind IN (\(binds: kindNames))
                RETURNING code_hash
                """
            ).count
        }
    }

    @discardableResult
    public func deleteActionCodes(expiredBefore date: Date) async throws -> Int {
        try await work.writeSingleStatement { database in
            try await Self.rows(
                database, "DELETE FROM action_codes WHERE expires_at < \(bind: StoredTime.milliseconds(date)) RETURNING code_hash"
            ).count
        }
    }
}

// MARK: - Rows

extension SQLStore {
    /// Columns of `action_codes` in the order ``actionCodeValues(_:)`` binds them.
    static let actionCodeColumns: SQLQueryString = """
        code_hash, kind, uid, email, new_email, continue_url, language_code, created_at, expires_at, mfa_enrollment_id
        """

    /// The values of ``actionCodeColumns``.
    static func actionCodeValues(_ record: ActionCodeRecord) -> [any Encodable & Sendable] {
        [
            record.codeHash, record.kind.rawValue, record.uid, record.email, record.newEmail, record.continueURL,
            record.languageCode, StoredTime.milliseconds(record.createdAt), StoredTime.milliseconds(record.expiresAt),
            record.mfaEnrollmentID,
        ]
    }

    static func actionCode(from row: any SQLRow) throws -> ActionCodeRecord {
        guard let kind = ActionCodeKind(rawValue: try row.text("kind")) else {
            throw SQLStoreError.undecodableColumn("kind")
        }
        return ActionCodeRecord(
            codeHash: try row.text("code_hash"), kind: kind, uid: try row.optionalText("uid"), email: try row.text("email"),
            newEmail: try row.optionalText("new_email"), continueURL: try row.optionalText("continue_url"),
            languageCode: try row.optionalText("language_code"), mfaEnrollmentID: try row.optionalText("mfa_enrollment_id"),
            createdAt: try row.date("created_at"),
            expiresAt: try row.date("expires_at"))
    }

    /// Throws `INVALID_ARGUMENT` when a text of `record` holds a NUL (PostgreSQL refuses it, SQLite's driver
    /// would read it back cut): the continue URL and addresses come from requests.
    static func checkStorable(_ record: ActionCodeRecord) throws {
        let texts: [String?] = [
            record.codeHash, record.uid, record.email, record.newEmail, record.continueURL, record.languageCode, record.mfaEnrollmentID,
        ]
        for text in texts {
            if let text, !UserText.isStorable(text) {
                throw HearthError(
                    .invalidArgument, detail: "Text values must not contain NUL characters.", reason: "NUL in an action code's text")
            }
        }
    }
}
