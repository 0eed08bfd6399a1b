import Foundation
import HearthCore
import HearthStoragePostgres
import HearthTesting
import Logging
import SQLKit
import Testing

@testable import HearthStorage
@testable import HearthStorageSQLite

/// Moving every row between stores (migrate-data) and the import/export pages, on both backends.
@Suite("Store conformance: copying and exporting")
struct TransferStoreTests {
    @Test("copy(to:) copies every row idempotently, page by page, and counts agree", arguments: StoreBackend.all)
    func copyToAnotherStore(backend: StoreBackend) async throws {
        let targetFixture = try await StoreFixture(backend)
        defer { targetFixture.removeFiles() }
        try await withStore(backend) { source, _ in
            let users = (0..<5).map { index in
                makeUser(
                    "u\(index)", email: "u\(index)@example.com", createdAt: epoch.addingTimeInterval(Double(index)),
                    passwordHash: index.isMultiple(of: 2) ? "hash-\(index)" : nil,
                    providers: index == 3
                        ? [
                            ProviderLink(providerID: "google.com", rawID: "g3", email: "U3@Example.com"),
                            ProviderLink(providerID: "apple.com", rawID: "a3"),
                        ]
                        : [])
            }
            for user in users {
                try await source.createUser(user, session: makeSession("s-\(user.uid)", uid: user.uid, extraClaims: #"{"n":1}"#))
            }
            try await source.updateUser(uid: "u2", session: nil) { $0.emailLinkSignIn = true }
            // The columns of 2026-11-30-add-refresh-and-initial-email travel too.
            try await source.updateUser(uid: "u1", session: nil) { user in
                user.changeEmail(to: "u1-new@example.com")
                user.lastRefreshAt = epoch.addingTimeInterval(42.5)
            }
            let code = ActionCodeRecord(
                codeHash: "code-hash-1", kind: .verifyAndChangeEmail, uid: "u1", email: "u1@example.com",
                newEmail: "new@example.com", continueURL: "https://app.example.com/", languageCode: "fr", createdAt: epoch,
                expiresAt: epoch.addingTimeInterval(3600))
            try await source.insertActionCode(code)
            let waiting = OutgoingMail(
                id: "mail-1", recipient: "new@example.com", subject: "Verify", textBody: "text link", htmlBody: "",
                purpose: "VERIFY_AND_CHANGE_EMAIL", languageCode: "fr", createdAt: epoch)
            try await source.enqueueMail(waiting)
            try await source.enqueueMail(
                OutgoingMail(
                    id: "mail-0", recipient: "u0@example.com", subject: "Reset", textBody: "t", htmlBody: "h",
                    purpose: "PASSWORD_RESET", languageCode: "en", createdAt: epoch))
            _ = try await source.claimDueMails(now: epoch, claimUntil: epoch.addingTimeInterval(60), limit: 1)
            try await source.markMailSent(id: "mail-0", at: epoch.addingTimeInterval(1))
            try await source.insertSession(makeSession("s-extra", uid: "u1"))
            let keys = [makeKey("k1", activates: epoch), makeKey("k2", activates: epoch.addingTimeInterval(oneDay))]
            for key in keys { try await source.insertSigningKey(key) }
            try await source.setSetting("cleanup.enabledAt", to: "1800000000")
            try await source.setSetting("other", to: "")
            _ = try await source.incrementCounter("not-copied", window: 60, now: epoch)
            // A tenant with an account under a uid the project has too, a session and a setting of its own.
            try await source.createTenant(TenantRecord(id: "acme-00001", displayName: "Acme", createdAt: epoch))
            let tenantSource = source.scoped(toTenant: "acme-00001")
            try await tenantSource.createUser(makeUser("u1", email: "u1@example.com"), session: makeSession("s-tenant", uid: "u1"))
            try await tenantSource.setSetting("other", to: "the tenant's")
            // Passkeys: one of the project's, one of the tenant's under the same credential id (each tenant's own).
            let passkey = PasskeyCredential(
                credentialID: "Y3JlZGVudGlhbA", uid: "u1", name: "Laptop", publicKey: [0xA5, 1, 2], algorithm: -7, signCount: 7,
                transports: ["internal"], backupEligible: true, backedUp: false, createdAt: epoch, lastUsedAt: epoch.addingTimeInterval(5))
            #expect(try await source.insertPasskey(passkey))
            var tenantPasskey = passkey
            tenantPasskey.name = "Tenant laptop"
            #expect(try await tenantSource.insertPasskey(tenantPasskey))
            // A console operator, with a sealed-looking secret that travels as stored.
            let operatorRecord = OperatorRecord(
                email: "ops@example.com", role: .owner, passwordHash: "$scrypt$x", totpSecret: "hearth-sealed:v1:k:abc",
                recoveryCodeHashes: ["h1", "h2"], lastCodeStep: 7, createdAt: epoch)
            try await source.createConsoleOperator(operatorRecord)

            let sourceCounts = try await source.counts()
            #expect(
                sourceCounts == [
                    "users": 6, "provider_links": 2, "refresh_sessions": 7, "signing_keys": 2, "settings": 3, "action_codes": 1,
                    "mail_queue": 2, "rate_counters": 1, "tenants": 1, "console_operators": 1, "passkeys": 2,
                ])

            let target = try await targetFixture.open()
            do {
                let progressLog = LockedBox<[String]>([])
                let copied = try await source.copy(to: target, batchSize: 2) { table, done, total in
                    progressLog.withLock { $0.append("\(table) \(done)/\(total)") }
                }
                #expect(
                    copied == [
                        "users": 6, "provider_links": 2, "refresh_sessions": 7, "signing_keys": 2, "settings": 3, "action_codes": 1,
                        "mail_queue": 2, "tenants": 1, "console_operators": 1, "passkeys": 2,
                    ])
                #expect(progressLog.withLock { $0 }.contains("users 6/6"))
                #expect(progressLog.withLock { $0 }.contains("refresh_sessions 7/7"))

                // Twice: upserts, nothing duplicated, the same counts.
                let again = try await source.copy(to: target, batchSize: 4)
                #expect(again == copied)
                let targetCounts = try await target.counts()
                for key in TransferTable.copiedCountKeys {
                    #expect(targetCounts[key] == sourceCounts[key], "\(key)")
                }
                #expect(targetCounts["rate_counters"] == 0)
                #expect(try await target.consoleOperator(id: operatorRecord.id) == operatorRecord)

                for user in users {
                    #expect(try await target.user(uid: user.uid) == (try await source.user(uid: user.uid)))
                }
                #expect(try await target.user(providerID: "google.com", rawID: "g3")?.uid == "u3")
                #expect(try await target.session(tokenHash: "s-extra") == makeSession("s-extra", uid: "u1"))
                #expect(try await target.session(tokenHash: "s-u4") == (try await source.session(tokenHash: "s-u4")))
                #expect(try await target.signingKeys() == keys)
                #expect(try await target.setting("cleanup.enabledAt") == "1800000000")
                #expect(try await target.setting("other") == "")
                #expect(try await target.user(uid: "u2")?.emailLinkSignIn == true)
                let moved = try await target.user(uid: "u1")
                #expect(moved?.initialEmail == "u1@example.com" && moved?.lastRefreshAt == epoch.addingTimeInterval(42.5))
                #expect(try await target.actionCode(hash: "code-hash-1") == code)
                #expect(try await target.recentMails(limit: 10) == (try await source.recentMails(limit: 10)))
                #expect(try await target.recentMails(limit: 10).map(\.textBody) == ["text link", ""])
                #expect(try await target.countWaitingMails() == 1)
                // The tenant's rows stay its own.
                let tenantTarget = target.scoped(toTenant: "acme-00001")
                #expect(try await target.tenant(id: "acme-00001")?.displayName == "Acme")
                #expect(try await tenantTarget.user(uid: "u1") == (try await tenantSource.user(uid: "u1")))
                #expect(try await tenantTarget.user(uid: "u1")?.tenantID == "acme-00001")
                #expect(try await tenantTarget.session(tokenHash: "s-tenant")?.uid == "u1")
                #expect(try await target.session(tokenHash: "s-tenant") == nil)
                #expect(try await tenantTarget.setting("other") == "the tenant's")
                #expect(try await target.passkey(credentialID: passkey.credentialID) == passkey)
                #expect(try await tenantTarget.passkey(credentialID: passkey.credentialID)?.name == "Tenant laptop")

                // A changed source row replaces the target's on the next run; links follow.
                try await source.updateUser(uid: "u3", session: nil) { user in
                    user.displayName = "Three"
                    user.providers.removeAll { $0.providerID == "apple.com" }
                }
                _ = try await source.copy(to: target)
                #expect(try await target.user(uid: "u3") == (try await source.user(uid: "u3")))
                #expect(try await target.counts()["provider_links"] == 1)
            } catch {
                try? await target.close()
                throw error
            }
            try await target.close()
        }
    }

    @Test("exportBatch pages in key order; importBatch refuses to break uniqueness", arguments: StoreBackend.all)
    func exportAndImport(backend: StoreBackend) async throws {
        try await withStore(backend) { store, _ in
            for uid in ["c", "a", "b"] {
                try await store.createUser(makeUser(uid, email: "\(uid)@example.com"), session: nil)
            }
            let first = try await store.exportBatch(.users, after: nil, limit: 2)
            #expect(first.count == 2)
            // Keyed by tenant, then uid: the project's users have the empty tenant.
            #expect(first.lastKey == "/b")
            let second = try await store.exportBatch(.users, after: first.lastKey, limit: 2)
            #expect(second.lastKey == "/c")
            #expect(try await store.exportBatch(.users, after: "/c", limit: 2) == .users([]))
            #expect(try await store.exportBatch(.settings, after: nil, limit: 10) == .settings([]))

            // A different user with an existing e-mail is a conflict, and the batch is not applied.
            await #expect(throws: StoreConflict.email) {
                try await store.importBatch(.users([makeUser("d"), makeUser("e", email: "a@example.com")]))
            }
            #expect(try await store.user(uid: "d") == nil)
            await #expect(throws: (any Error).self) {
                try await store.importBatch(.sessions([makeSession("orphan", uid: "nobody")]))
            }
            #expect(try await store.session(tokenHash: "orphan") == nil)
        }
    }
}
