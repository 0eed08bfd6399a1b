import Foundation
import HearthCore
import SQLKit

// MARK: - OperatorStore

extension SQLStore {
    public func createConsoleOperator(_ record: OperatorRecord) async throws {
        let values = try Self.operatorValues(record)
        let inserted = try await work.writeSingleStatement { database in
            try await Self.exists(
                database,
                "INSERT INTO console_operators (\(Self.operatorColumns)) VALUES (\(binds: values)) ON CONFLICT DO NOTHING RETURNING operator_id")
        }
        if !inserted { throw StoreConflict.email }
    }

    public func consoleOperator(id: String) async throws -> OperatorRecord? {
        guard UserText.isStorable(id) else { return nil }
        return try await work.readSingleStatement { database in
            try await Self.rows(database, "SELECT \(Self.operatorColumns) FROM console_operators WHERE operator_id = \(bind: id)")
                .first.map(Self.consoleOperator(from:))
        }
    }

    public func consoleOperator(email: String) async throws -> OperatorRecord? {
        guard UserText.isStorable(email) else { return nil }
        return try await work.readSingleStatement { database in
            try await Self.rows(database, "SELECT \(Self.operatorColumns) FROM console_operators WHERE email = \(bind: email)")
                .first.map(Self.consoleOperator(from:))
        }
    }

    public func consoleOperators() async throws -> [OperatorRecord] {
        try await work.readSingleStatement { database in
            let bytes = SQLDialectQuirks.byteCollation(on: database)
            return try await Self.rows(database, "SELECT \(Self.operatorColumns) FROM console_operators ORDER BY email \(bytes)")
                .map(Self.consoleOperator(from:))
        }
    }

    @discardableResult
    public func updateConsoleOperator(id: String, _ mutate: @escaping @Sendable (inout OperatorRecord) throws -> Void) async throws
        -> OperatorRecord?
    {
        guard UserText.isStorable(id) else { return nil }
        return try await work.write { database in
            let locking = SQLDialectQuirks.lockForUpdate(on: database)
            guard
                let current = try await Self.rows(
                    database, "SELECT \(Self.operatorColumns) FROM console_operators WHERE operator_id = \(bind: id) \(locking)"
                ).first.map(Self.consoleOperator(from:))
            else { return nil }
            var updated = current
            try mutate(&updated)
            guard updated.id == current.id else {
                throw HearthError(.internalError, reason: "updateConsoleOperator: mutate must not change the id")
            }
            guard updated != current else { return current }
            _ = try Self.operatorValues(updated)
            let codes = String(decoding: try JSONEncoder().encode(updated.recoveryCodeHashes), as: UTF8.self)
            try await Self.exec(
                database,
                """
                UPDATE console_operators SET email = \(bind: updated.email), role = \(bind: updated.role.rawValue),
                    password_hash = \(bind: updated.passwordHash), totp_secret = \(bind: updated.totpSecret), recovery_codes = \(bind: codes),
                    last_code_step = \(bind: updated.lastCodeStep), last_sign_in_at = \(bind: StoredTime.milliseconds(updated.lastSignInAt))
                WHERE operator_id = \(bind: id)
                """)
            return updated
        }
    }

    @discardableResult
    public func deleteConsoleOperator(id: String) async throws -> Bool {
        guard UserText.isStorable(id) else { return false }
        return try await work.writeSingleStatement { database in
            // Their sessions go with them (ON DELETE CASCADE).
            try await Self.exists(database, "DELETE FROM console_operators WHERE operator_id = \(bind: id) RETURNING operator_id")
        }
    }

    public func insertConsoleSession(_ session: ConsoleSessionRecord) async throws {
        try await work.writeSingleStatement { database in
            try await Self.exec(
                database,
                """
                INSERT INTO console_sessions (token_hash, operator_id, stage, created_at, last_seen_at)
                VALUES (\(bind: session.tokenHash), \(bind: session.operatorID), \(bind: session.stage.rawValue),
                    \(bind: StoredTime.milliseconds(session.createdAt)), \(bind: StoredTime.milliseconds(session.lastSeenAt)))
                """)
        }
    }

    public func consoleSession(tokenHash: String) async throws -> (session: ConsoleSessionRecord, operator: OperatorRecord)? {
        guard UserText.isStorable(tokenHash) else { return nil }
        return try await work.readSingleStatement { database in
            let columns = SQLQueryString(Self.operatorColumnNames.map { "console_operators.\($0)" }.joined(separator: ", "))
            guard
                let row = try await Self.rows(
                    database,
                    """
                    SELECT \(columns), console_sessions.token_hash, console_sessions.stage, console_sessions.created_at AS session_created_at,
                        console_sessions.last_seen_at
                    FROM console_sessions JOIN console_operators ON console_operators.operator_id = console_sessions.operator_id
                    WHERE console_sessions.token_hash = \(bind: tokenHash)
                    """
                ).first
            else { return nil }
            guard let stage = ConsoleSessionRecord.Stage(rawValue: try row.text("stage")) else { throw SQLStoreError.undecodableColumn("stage") }
            let holder = try Self.consoleOperator(from: row)
            let session = ConsoleSessionRecord(
                tokenHash: try row.text("token_hash"), operatorID: holder.id, stage: stage, createdAt: try row.date("session_created_at"),
                lastSeenAt: try row.date("last_seen_at"))
            return (session, holder)
        }
    }

    public func touchConsoleSession(tokenHash: String, at time: Date) async throws {
        guard UserText.isStorable(tokenHash) else { return }
        try await work.writeSingleStatement { database in
            try await Self.exec(
                database,
                "UPDATE console_sessions SET last_seen_at = \(bind: StoredTime.milliseconds(time)) WHERE token_hash = \(bind: tokenHash)")
        }
    }

    @discardableResult
    public func deleteConsoleSession(tokenHash: String) async throws -> Bool {
        guard UserText.isStorable(tokenHash) else { return false }
        return try await work.writeSingleStatement { database in
            try await Self.exists(database, "DELETE FROM console_sessions WHERE token_hash = \(bind: tokenHash) RETURNING token_hash")
        }
    }

    @discardableResult
    public func deleteConsoleSessions(lastSeenBefore before: Date, createdBefore: Date) async throws -> Int {
        try await work.writeSingleStatement { database in
            try await Self.rows(
                database,
                """
                DELETE FROM console_sessions
                WHERE last_seen_at < \(bind: StoredTime.milliseconds(before)) OR created_at < \(bind: StoredTime.milliseconds(createdBefore))
                RETURNING token_hash
                """
            ).count
        }
    }
}

// MARK: - Rows

extension SQLStore {
    static let operatorColumnNames = [
        "operator_id", "email", "role", "password_hash", "totp_secret", "recovery_codes", "last_code_step", "created_at", "last_sign_in_at",
    ]
    static let operatorColumns = SQLQueryString(operatorColumnNames.joined(separator: ", "))

    static func operatorValues(_ record: OperatorRecord) throws -> [any Encodable & Sendable] {
        for text in [record.id, record.email, record.passwordHash, record.totpSecret] where !UserText.isStorable(text) {
            throw HearthError(.invalidArgument, detail: "Text values must not contain NUL characters.", reason: "NUL in an operator")
        }
        let codes = String(decoding: try JSONEncoder().encode(record.recoveryCodeHashes), as: UTF8.self)
        return [
            record.id, record.email, record.role.rawValue, record.passwordHash, record.totpSecret, codes, record.lastCodeStep,
            StoredTime.milliseconds(record.createdAt), StoredTime.milliseconds(record.lastSignInAt),
        ]
    }

    static func consoleOperator(from row: any SQLRow) throws -> OperatorRecord {
        guard let role = OperatorRecord.Role(rawValue: try row.text("role")) else { throw SQLStoreError.undecodableColumn("role") }
        guard let codes = try? JSONDecoder().decode([String].self, from: Data(try row.text("recovery_codes").utf8)) else {
            throw SQLStoreError.undecodableColumn("recovery_codes")
        }
        return OperatorRecord(
            id: try row.text("operator_id"), email: try row.text("email"), role: role, passwordHash: try row.text("password_hash"),
            totpSecret: try row.text("totp_secret"), recoveryCodeHashes: codes,
            lastCodeStep: try row.optionalInt64("last_code_step"),
            createdAt: try row.date("created_at"), lastSignInAt: try row.optionalDate("last_sign_in_at"))
    }
}
