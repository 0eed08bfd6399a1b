import Foundation
import HearthCore
import SQLKit

// MARK: - SigningKeyStore

extension SQLStore {
    /// All stored keys, ordered by activation time (then kid).
    public func signingKeys() async throws -> [SigningKeyRecord] {
        let stored = try await work.readSingleStatement { database in
            try await Self.loadSigningKeys(on: database)
        }
        return try stored.map(opened)
    }

    public func insertSigningKey(_ key: SigningKeyRecord) async throws {
        let sealed = try sealed(key)
        try await work.writeSingleStatement { database in
            try await Self.insertSigningKeyRow(sealed, on: database)
        }
    }

    /// Changes when a key stops signing and expires. Does nothing when there is no such key.
    public func retireSigningKey(kid: String, retiresAt: Date, expiresAt: Date) async throws {
        try await work.writeSingleStatement { database in
            try await Self.retireSigningKeyRow(kid: kid, retiresAt: retiresAt, expiresAt: expiresAt, on: database)
        }
    }

    /// Deletes keys whose `expiresAt` is before `expiredBefore`; returns how many.
    public func deleteSigningKeys(expiredBefore: Date) async throws -> Int {
        try await work.writeSingleStatement { database in
            try await Self.rows(
                database,
                """
                DELETE FROM signing_keys WHERE expires_at < \(bind: StoredTime.milliseconds(expiredBefore))
                RETURNING kid
                """
            ).count
        }
    }

    /// Reads all keys, lets `change` decide, and applies its answer in one write transaction that
    /// first takes ``SQLDialectQuirks/TransactionLock/signingKeys`` (PostgreSQL; on SQLite the single
    /// writer already excludes everyone else). The write transaction reads committed data after the
    /// lock is granted, so a caller that waited sees what the previous holder inserted.
    @discardableResult
    public func updateSigningKeys(
        _ change: @escaping @Sendable ([SigningKeyRecord]) throws -> SigningKeyChange?
    ) async throws -> SigningKeyChange? {
        try await work.write { database in
            try await SQLDialectQuirks.takeTransactionLock(.signingKeys, on: database)
            let keys = try await Self.loadSigningKeys(on: database).map { try self.opened($0) }
            guard let decided = try change(keys), !decided.isEmpty else { return nil }
            if let key = decided.insert {
                try await Self.insertSigningKeyRow(try self.sealed(key), on: database)
            }
            if let retirement = decided.retire {
                try await Self.retireSigningKeyRow(
                    kid: retirement.kid, retiresAt: retirement.retiresAt, expiresAt: retirement.expiresAt,
                    on: database)
            }
            return decided
        }
    }
}

// MARK: - Sealing

extension SQLStore {
    /// `key` with its private key sealed by ``sealer`` (as it is without one).
    func sealed(_ key: SigningKeyRecord) throws -> SigningKeyRecord {
        var key = key
        key.privateKeyPEM = try sealer.seal(key.privateKeyPEM, context: SecretSealer.signingKeyContext(kid: key.kid))
        return key
    }

    /// `key` as read from its row, with its private key opened.
    func opened(_ key: SigningKeyRecord) throws -> SigningKeyRecord {
        var key = key
        key.privateKeyPEM = try sealer.open(key.privateKeyPEM, context: SecretSealer.signingKeyContext(kid: key.kid))
        return key
    }
}

// MARK: - Rows

extension SQLStore {
    /// Columns of `signing_keys`.
    static let signingKeyColumns: SQLQueryString = """
        kid, algorithm, private_key_pem, certificate_pem, created_at, activates_at, retires_at, expires_at
        """

    /// All keys as their rows hold them (private keys sealed), ordered by activation time (then kid).
    static func loadSigningKeys(on database: any SQLDatabase) async throws -> [SigningKeyRecord] {
        try await rows(database, "SELECT \(signingKeyColumns) FROM signing_keys ORDER BY activates_at, kid")
            .map(signingKey(from:))
    }

    static func signingKey(from row: any SQLRow) throws -> SigningKeyRecord {
        SigningKeyRecord(
            kid: try row.text("kid"),
            algorithm: try row.text("algorithm"),
            privateKeyPEM: try row.text("private_key_pem"),
            certificatePEM: try row.text("certificate_pem"),
            createdAt: try row.date("created_at"),
            activatesAt: try row.date("activates_at"),
            retiresAt: try row.date("retires_at"),
            expiresAt: try row.date("expires_at"))
    }

    /// The values of ``signingKeyColumns``.
    static func signingKeyValues(_ key: SigningKeyRecord) -> [any Encodable & Sendable] {
        [
            key.kid, key.algorithm, key.privateKeyPEM, key.certificatePEM,
            StoredTime.milliseconds(key.createdAt), StoredTime.milliseconds(key.activatesAt),
            StoredTime.milliseconds(key.retiresAt), StoredTime.milliseconds(key.expiresAt),
        ]
    }

    static func insertSigningKeyRow(_ key: SigningKeyRecord, on database: any SQLDatabase) async throws {
        try await exec(
            database, "INSERT INTO signing_keys (\(signingKeyColumns)) VALUES (\(binds: signingKeyValues(key)))")
    }

    static func retireSigningKeyRow(
        kid: String, retiresAt: Date, expiresAt: Date, on database: any SQLDatabase
    ) async throws {
        try await exec(
            database,
            """
            UPDATE signing_keys
            SET retires_at = \(bind: StoredTime.milliseconds(retiresAt)),
                expires_at = \(bind: StoredTime.milliseconds(expiresAt))
            WHERE kid = \(bind: kid)
            """)
    }
}
