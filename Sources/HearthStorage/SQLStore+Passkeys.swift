import Foundation
import HearthBase64URL
import HearthCore
import SQLKit

// MARK: - PasskeyStore

extension SQLStore {
    /// One `INSERT … ON CONFLICT DO NOTHING RETURNING` statement: of parallel registrations of one credential id,
    /// in one account or two, one is stored.
    public func insertPasskey(_ credential: PasskeyCredential) async throws -> Bool {
        let values = try Self.passkeyValues(credential, tenant: tenantID)
        return try await changingPasskeys(
            """
            INSERT INTO passkeys (tenant_id, \(Self.passkeyColumns)) VALUES (\(binds: values))
            ON CONFLICT (tenant_id, credential_id) DO NOTHING RETURNING uid
            """)
    }

    /// Runs `statement`, which changes passkeys and returns the `uid` of each row it changed: one statement, or on
    /// PostgreSQL a transaction that also announces the users (their passkeys are cached with them, see
    /// ``AccountCache``). Whether it changed any; the users it did are forgotten here.
    private func changingPasskeys(_ statement: SQLQueryString) async throws -> Bool {
        let owners: [String]
        do {
            if announcesAccountChanges {
                owners = try await work.write { database in
                    let owners = try await Self.rows(database, statement).map { try $0.text("uid") }
                    for uid in Set(owners) { try await self.announceAccountChange(uid, on: database) }
                    return owners
                }
            } else {
                owners = try await work.writeSingleStatement { database in try await Self.rows(database, statement).map { try $0.text("uid") } }
            }
        } catch {
            accountCache?.forgetAll()
            throw error
        }
        accountCache?.forget(uids: Set(owners))
        return !owners.isEmpty
    }

    public func passkey(credentialID: String) async throws -> PasskeyCredential? {
        guard UserText.isStorable(credentialID) else { return nil }
        let tenant = tenantID
        return try await work.readSingleStatement { database in
            try await Self.rows(
                database,
                "SELECT \(Self.passkeyColumns) FROM passkeys WHERE tenant_id = \(bind: tenant) AND credential_id = \(bind: credentialID)"
            ).first.map(Self.passkey(from:))
        }
    }

    public func passkeys(uid: String) async throws -> [PasskeyCredential] {
        guard UserText.isStorable(uid) else { return [] }
        guard let accountCache else { return try await readPasskeys(uid: uid) }
        if let (passkeys, refresh) = accountCache.passkeys(uid: uid) {
            if refresh { readAgain(.passkeys(uid), in: accountCache) }
            return passkeys
        }
        let generation = accountCache.generation
        let passkeys = try await readPasskeys(uid: uid)
        accountCache.remember(passkeys, of: uid, readAt: generation)
        return passkeys
    }

    func readPasskeys(uid: String) async throws -> [PasskeyCredential] {
        let tenant = tenantID
        return try await work.readSingleStatement { database in
            try await Self.rows(
                database,
                """
                SELECT \(Self.passkeyColumns) FROM passkeys WHERE tenant_id = \(bind: tenant) AND uid = \(bind: uid)
                ORDER BY created_at, credential_id
                """
            ).map(Self.passkey(from:))
        }
    }

    public func recordPasskeyUse(credentialID: String, signCount: UInt32, backedUp: Bool, at time: Date) async throws -> Bool {
        guard UserText.isStorable(credentialID) else { return false }
        return try await changingPasskeys(
            """
            UPDATE passkeys SET sign_count = \(bind: Int64(signCount)), backed_up = \(bind: backedUp),
                last_used_at = \(bind: StoredTime.milliseconds(time))
            WHERE tenant_id = \(bind: tenantID) AND credential_id = \(bind: credentialID) RETURNING uid
            """)
    }

    public func deletePasskey(uid: String, credentialID: String) async throws -> Bool {
        guard UserText.isStorable(uid), UserText.isStorable(credentialID) else { return false }
        return try await changingPasskeys(
            """
            DELETE FROM passkeys WHERE tenant_id = \(bind: tenantID) AND uid = \(bind: uid) AND credential_id = \(bind: credentialID)
            RETURNING uid
            """)
    }
}

// MARK: - Rows

extension SQLStore {
    static let passkeyColumns: SQLQueryString = """
        credential_id, uid, name, public_key, algorithm, sign_count, transports, backup_eligible, backed_up, created_at, last_used_at
        """

    /// The row of `credential` in `tenant`: `tenant_id` then ``passkeyColumns``. Throws `INVALID_ARGUMENT` for NUL in
    /// its text.
    static func passkeyValues(_ credential: PasskeyCredential, tenant: String) throws -> [any Encodable & Sendable] {
        for text in [credential.credentialID, credential.uid, credential.name] + credential.transports where !UserText.isStorable(text) {
            throw HearthError(.invalidArgument, detail: "Text values must not contain NUL characters.", reason: "NUL in a passkey")
        }
        let transports = String(decoding: try JSONEncoder().encode(credential.transports), as: UTF8.self)
        return [
            tenant, credential.credentialID, credential.uid, credential.name, Base64URL.encode(credential.publicKey),
            Int64(credential.algorithm), Int64(credential.signCount), transports, credential.backupEligible, credential.backedUp,
            StoredTime.milliseconds(credential.createdAt), StoredTime.milliseconds(credential.lastUsedAt),
        ]
    }

    static func passkey(from row: any SQLRow) throws -> PasskeyCredential {
        guard let publicKey = Base64URL.decode(try row.text("public_key")) else { throw SQLStoreError.undecodableColumn("public_key") }
        guard let transports = try? JSONDecoder().decode([String].self, from: Data(try row.text("transports").utf8)) else {
            throw SQLStoreError.undecodableColumn("transports")
        }
        guard let signCount = UInt32(exactly: try row.int64("sign_count")) else { throw SQLStoreError.undecodableColumn("sign_count") }
        return PasskeyCredential(
            credentialID: try row.text("credential_id"), uid: try row.text("uid"), name: try row.text("name"), publicKey: publicKey,
            algorithm: Int(try row.int64("algorithm")), signCount: signCount, transports: transports,
            backupEligible: try row.bool("backup_eligible"), backedUp: try row.bool("backed_up"), createdAt: try row.date("created_at"),
            lastUsedAt: try row.optionalDate("last_used_at"))
    }
}
