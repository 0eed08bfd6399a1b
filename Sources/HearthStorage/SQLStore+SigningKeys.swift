import Foundation
import HearthCore
import SQLKit

// MARK: - SigningKeyStore

extension SQLStore {
    /// All stored keys, ordered by activation time (then kid).
    public func signingKeys() async throws -> [SigningKeyRecord] {
        try await transactor.read { database in
            try await Self.rows(
                database,
                """
                SELECT kid, algorithm, private_key_pem, certificate_pem, created_at, activates_at,
                       retires_at, expires_at
                FROM signing_keys ORDER BY activates_at, kid
                """
            ).map { row in
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
        }
    }

    public func insertSigningKey(_ key: SigningKeyRecord) async throws {
        try await transactor.write { database in
            try await Self.exec(
                database,
                """
                INSERT INTO signing_keys (kid, algorithm, private_key_pem, certificate_pem, created_at,
                                          activates_at, retires_at, expires_at)
                VALUES (\(bind: key.kid), \(bind: key.algorithm), \(bind: key.privateKeyPEM),
                        \(bind: key.certificatePEM), \(bind: StoredTime.milliseconds(key.createdAt)),
                        \(bind: StoredTime.milliseconds(key.activatesAt)),
                        \(bind: StoredTime.milliseconds(key.retiresAt)),
                        \(bind: StoredTime.milliseconds(key.expiresAt)))
                """)
        }
    }

    /// Changes when a key stops signing and expires. Does nothing when there is no such key.
    public func retireSigningKey(kid: String, retiresAt: Date, expiresAt: Date) async throws {
        try await transactor.write { database in
            try await Self.exec(
                database,
                """
                UPDATE signing_keys
                SET retires_at = \(bind: StoredTime.milliseconds(retiresAt)),
                    expires_at = \(bind: StoredTime.milliseconds(expiresAt))
                WHERE kid = \(bind: kid)
                """)
        }
    }

    /// Deletes keys whose `expiresAt` is before `expiredBefore`; returns how many.
    public func deleteSigningKeys(expiredBefore: Date) async throws -> Int {
        try await transactor.write { database in
            try await Self.rows(
                database,
                """
                DELETE FROM signing_keys WHERE expires_at < \(bind: StoredTime.milliseconds(expiredBefore))
                RETURNING kid
                """
            ).count
        }
    }
}
