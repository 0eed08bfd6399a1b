import HearthCore
import SQLKit

// MARK: - Secrets at rest

extension SQLStore {
    /// How many stored secrets a pass over the store changed: private keys of signing keys, settings
    /// named by ``SecretSealer/sealedSettingPrefixes``, and queued mails and SMS whose bodies are still kept
    /// (counted once per message).
    public struct ResealedSecrets: Sendable, Equatable {
        public var signingKeys = 0
        public var settings = 0
        public var mails = 0
        public var sms = 0
        /// TOTP second factors (counted once per factor).
        public var totpSecrets = 0
        /// The console operators' authenticator secrets.
        public var operatorSecrets = 0
        public var total: Int { signingKeys + settings + mails + sms + totpSecrets + operatorSecrets }
        public init() {}
    }

    /// Checks that every sealed secret opens with ``sealer``, and seals the ones an earlier version left
    /// in plain text, in one write transaction. Servers call it at start.
    ///
    /// Throws ``SecretSealerError`` (``SecretSealerError/Code/wrongKey`` names both key ids) when a value
    /// does not open: the database was sealed with another key.
    @discardableResult
    public func sealStoredSecrets() async throws -> ResealedSecrets {
        guard let sealer else {
            throw SecretSealerError(.noKey, "no key-encryption key given: set secrets.keyFile or HEARTH_SECRETS_KEY")
        }
        return try await reseal { stored, context in
            let plaintext = try sealer.open(stored, context: context)
            return SecretSealer.isSealed(stored) ? nil : try sealer.seal(plaintext, context: context)
        }
    }

    /// Opens every stored secret with ``sealer`` (plain text as it is) and seals it with `newSealer`, in
    /// one write transaction: afterwards only `newSealer`'s key opens them.
    @discardableResult
    public func rewrapStoredSecrets(to newSealer: SecretSealer) async throws -> ResealedSecrets {
        let current = sealer
        return try await reseal { stored, context in
            try newSealer.seal(try current.open(stored, context: context), context: context)
        }
    }

    /// Reads every stored secret in one write transaction (under the signing keys' lock, so key rotation
    /// on another replica waits) and writes back what `change` returns for it (`nil`: unchanged).
    private func reseal(
        _ change: @escaping @Sendable (_ stored: String, _ context: String) throws -> String?
    ) async throws -> ResealedSecrets {
        try await work.write { database in
            try await SQLDialectQuirks.takeTransactionLock(.signingKeys, on: database)
            var counts = ResealedSecrets()
            for key in try await Self.loadSigningKeys(on: database) {
                guard let value = try change(key.privateKeyPEM, SecretSealer.signingKeyContext(kid: key.kid)) else { continue }
                try await Self.exec(
                    database, "UPDATE signing_keys SET private_key_pem = \(bind: value) WHERE kid = \(bind: key.kid)")
                counts.signingKeys += 1
            }
            for prefix in SecretSealer.sealedSettingPrefixes {
                let rows = try await Self.rows(
                    database,
                    """
                    SELECT tenant_id, name, value FROM settings
                    WHERE substr(name, 1, CAST(\(bind: prefix.count) AS INTEGER)) = \(bind: prefix)
                    """)
                // Every tenant's: this is the whole database's key.
                for row in rows {
                    let (tenant, name) = (try row.text("tenant_id"), try row.text("name"))
                    guard let value = try change(try row.text("value"), Self.settingContext(name, tenant: tenant)) else { continue }
                    try await Self.exec(
                        database, "UPDATE settings SET value = \(bind: value) WHERE tenant_id = \(bind: tenant) AND name = \(bind: name)")
                    counts.settings += 1
                }
            }
            let mailRows = try await Self.rows(
                database,
                "SELECT id, text_body, html_body FROM mail_queue WHERE text_body IS NOT NULL OR html_body IS NOT NULL ORDER BY id")
            for row in mailRows {
                let id = try row.text("id")
                var changed = false
                for (column, html) in [("text_body", false), ("html_body", true)] {
                    guard let stored = try row.optionalText(column),
                        let value = try change(stored, SecretSealer.mailContext(id: id, html: html))
                    else { continue }
                    // Re-checked: a mail sent meanwhile on another replica keeps its body dropped.
                    try await Self.exec(
                        database,
                        "UPDATE mail_queue SET \(ident: column) = \(bind: value) WHERE id = \(bind: id) AND \(ident: column) IS NOT NULL")
                    changed = true
                }
                if changed { counts.mails += 1 }
            }
            for row in try await Self.rows(database, "SELECT id, body FROM sms_queue WHERE body IS NOT NULL ORDER BY id") {
                let id = try row.text("id")
                guard let value = try change(try row.text("body"), SecretSealer.smsContext(id: id)) else { continue }
                // Re-checked: a message sent meanwhile on another replica keeps its body dropped.
                try await Self.exec(database, "UPDATE sms_queue SET body = \(bind: value) WHERE id = \(bind: id) AND body IS NOT NULL")
                counts.sms += 1
            }
            let factorRows = try await Self.rows(
                database, "SELECT tenant_id, uid, second_factors FROM users WHERE second_factors IS NOT NULL ORDER BY tenant_id, uid")
            for row in factorRows {
                let (tenant, uid) = (try row.text("tenant_id"), try row.text("uid"))
                var factors = try SecondFactorsRow.decoded(try row.text("second_factors"))
                var changed = false
                for index in factors.enrollments.indices {
                    guard let secret = factors.enrollments[index].totpSecret,
                        let value = try change(secret, MultiFactorSecrets.context(uid: uid, enrollmentID: factors.enrollments[index].id))
                    else { continue }
                    factors.enrollments[index].totpSecret = value
                    changed = true
                    counts.totpSecrets += 1
                }
                if changed {
                    try await Self.exec(
                        database, "UPDATE users SET second_factors = \(bind: factors.text) WHERE tenant_id = \(bind: tenant) AND uid = \(bind: uid)")
                }
            }
            for row in try await Self.rows(database, "SELECT operator_id, totp_secret FROM console_operators ORDER BY operator_id") {
                let id = try row.text("operator_id")
                guard let value = try change(try row.text("totp_secret"), OperatorSecrets.context(operatorID: id)) else { continue }
                try await Self.exec(database, "UPDATE console_operators SET totp_secret = \(bind: value) WHERE operator_id = \(bind: id)")
                counts.operatorSecrets += 1
            }
            if counts.totpSecrets > 0 {
                try await self.announceAccountChange(nil, on: database)
                self.accountCache?.forgetAll()
            }
            return counts
        }
    }
}
