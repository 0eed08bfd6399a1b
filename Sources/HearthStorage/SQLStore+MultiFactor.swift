import Foundation
import HearthCore
import SQLKit

// MARK: - MultiFactorSessionStore

extension SQLStore {
    /// One write transaction: the sessions expired before `record.createdAt` go, then the new one is inserted.
    public func insertMultiFactorSession(_ record: MultiFactorSessionRecord) async throws {
        for text in [record.key, record.uid, record.payload] where !UserText.isStorable(text) {
            throw HearthError(.invalidArgument, detail: "Text values must not contain NUL characters.", reason: "NUL in an MFA session")
        }
        let values: [any Encodable & Sendable] = [
            tenantID, record.key, record.kind.rawValue, record.uid, record.payload, Int64(record.attemptsLeft),
            StoredTime.milliseconds(record.createdAt), StoredTime.milliseconds(record.expiresAt),
        ]
        try await work.write { database in
            try await Self.exec(database, "DELETE FROM mfa_sessions WHERE expires_at < \(bind: StoredTime.milliseconds(record.createdAt))")
            try await Self.exec(database, "INSERT INTO mfa_sessions (tenant_id, \(Self.multiFactorSessionColumns)) VALUES (\(binds: values))")
        }
    }

    public func multiFactorSession(key: String) async throws -> MultiFactorSessionRecord? {
        guard UserText.isStorable(key) else { return nil }
        let tenant = tenantID
        return try await work.readSingleStatement { database in
            try await Self.rows(
                database,
                "SELECT \(Self.multiFactorSessionColumns) FROM mfa_sessions WHERE tenant_id = \(bind: tenant) AND session_key = \(bind: key)"
            ).first.map(Self.multiFactorSession(from:))
        }
    }

    /// One write transaction: a conditional `UPDATE … RETURNING` takes the attempt (parallel callers queue on the row
    /// and the later ones find fewer left); when it matches nothing, whether the session exists tells spent from unknown.
    public func reserveMultiFactorAttempt(key: String) async throws -> MultiFactorAttempt {
        guard UserText.isStorable(key) else { return .unknown }
        let tenant = tenantID
        return try await work.write { database in
            let reserved = try await Self.rows(
                database,
                """
                UPDATE mfa_sessions SET attempts_left = attempts_left - 1
                WHERE tenant_id = \(bind: tenant) AND session_key = \(bind: key) AND attempts_left > 0
                RETURNING \(Self.multiFactorSessionColumns)
                """)
            if let row = reserved.first { return .reserved(try Self.multiFactorSession(from: row)) }
            let exists = try await Self.exists(
                database, "SELECT 1 FROM mfa_sessions WHERE tenant_id = \(bind: tenant) AND session_key = \(bind: key)")
            return exists ? .spent : .unknown
        }
    }

    /// One `DELETE … RETURNING` statement: of parallel callers, one deletes the row.
    public func spendMultiFactorSession(key: String) async throws -> Bool {
        guard UserText.isStorable(key) else { return false }
        let tenant = tenantID
        return try await work.writeSingleStatement { database in
            try await Self.rows(
                database, "DELETE FROM mfa_sessions WHERE tenant_id = \(bind: tenant) AND session_key = \(bind: key) RETURNING session_key"
            ).count == 1
        }
    }
}

// MARK: - Rows

extension SQLStore {
    static let multiFactorSessionColumns: SQLQueryString = "session_key, kind, uid, payload, attempts_left, created_at, expires_at"

    static func multiFactorSession(from row: any SQLRow) throws -> MultiFactorSessionRecord {
        guard let kind = MultiFactorSessionRecord.Kind(rawValue: try row.text("kind")) else { throw SQLStoreError.undecodableColumn("kind") }
        return MultiFactorSessionRecord(
            key: try row.text("session_key"), kind: kind, uid: try row.text("uid"), payload: try row.text("payload"),
            attemptsLeft: Int(try row.int64("attempts_left")), createdAt: try row.date("created_at"), expiresAt: try row.date("expires_at"))
    }
}

/// `users.second_factors`: a user's second factors and recovery-code hashes as the row keeps them (JSON; NULL when
/// the user has neither). Instants in ms since 1970.
struct SecondFactorsRow: Codable {
    struct Enrollment: Codable {
        var id: String
        var displayName: String?
        var enrolledAt: Int64
        /// E.164, for a phone factor.
        var phone: String?
        /// The sealed (or, without a key, plain) secret of a TOTP factor.
        var totpSecret: String?
    }

    var enrollments: [Enrollment]
    var recoveryCodes: [String]?

    /// The column's text for `user`; `nil` when it has no factor and no recovery code.
    static func text(of user: UserRecord) -> String? {
        guard !user.secondFactors.isEmpty || !user.recoveryCodeHashes.isEmpty else { return nil }
        return SecondFactorsRow(
            enrollments: user.secondFactors.map { enrollment in
                var stored = Enrollment(
                    id: enrollment.id, displayName: enrollment.displayName, enrolledAt: StoredTime.milliseconds(enrollment.enrolledAt))
                switch enrollment.factor {
                case .phone(let number): stored.phone = number
                case .totp(let secret): stored.totpSecret = secret
                }
                return stored
            },
            recoveryCodes: user.recoveryCodeHashes.isEmpty ? nil : user.recoveryCodeHashes
        ).text
    }

    /// This row as the column's text.
    var text: String {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
        return String(decoding: (try? encoder.encode(self)) ?? Data("{\"enrollments\":[]}".utf8), as: UTF8.self)
    }

    /// The row of the column's `text`.
    static func decoded(_ text: String) throws -> SecondFactorsRow {
        guard let row = try? JSONDecoder().decode(SecondFactorsRow.self, from: Data(text.utf8)) else {
            throw SQLStoreError.undecodableColumn("second_factors")
        }
        return row
    }

    /// Reads the column's `text` into `user`.
    static func read(_ text: String, into user: inout UserRecord) throws {
        let row = try decoded(text)
        user.secondFactors = try row.enrollments.map { stored in
            let factor: SecondFactorEnrollment.Factor
            if let phone = stored.phone {
                factor = .phone(phone)
            } else if let secret = stored.totpSecret {
                factor = .totp(sealedSecret: secret)
            } else {
                throw SQLStoreError.undecodableColumn("second_factors")
            }
            return SecondFactorEnrollment(
                id: stored.id, displayName: stored.displayName, enrolledAt: StoredTime.date(stored.enrolledAt), factor: factor)
        }
        user.recoveryCodeHashes = row.recoveryCodes ?? []
    }
}
