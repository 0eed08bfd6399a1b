import Foundation
import HearthCore
import HearthStoragePostgres
import HearthTesting
import Logging
import SQLKit
import Testing

@testable import HearthStorage
@testable import HearthStorageSQLite

/// E-mail action codes, the mail queue and `users.email_link_sign_in` on both backends.
@Suite("Store conformance: e-mail action codes and the mail queue")
struct EmailActionStoreTests {
    static func code(
        _ hash: String, kind: ActionCodeKind = .passwordReset, uid: String? = "u1", createdAt: Date = epoch,
        lifetime: TimeInterval = 3600
    ) -> ActionCodeRecord {
        ActionCodeRecord(
            codeHash: hash, kind: kind, uid: uid, email: "ada@example.com",
            newEmail: kind == .verifyAndChangeEmail ? "new@example.com" : nil, continueURL: "https://app.example.com/done?x=1",
            languageCode: "hi", createdAt: createdAt, expiresAt: createdAt.addingTimeInterval(lifetime))
    }

    static func mail(_ id: String, createdAt: Date = epoch, textBody: String? = nil, htmlBody: String? = nil) -> OutgoingMail {
        OutgoingMail(
            id: id, recipient: "\(id)@example.com", subject: "Reset your password for \(id)",
            textBody: textBody ?? "Follow this link: https://auth.example.com/__/auth/action?oobCode=\(id)",
            htmlBody: htmlBody ?? "<p><a href=\"https://auth.example.com/__/auth/action?oobCode=\(id)\">Reset</a></p>",
            purpose: ActionCodeKind.passwordReset.rawValue, languageCode: "en", createdAt: createdAt)
    }

    @Test("action codes: stored, peeked, consumed once, voided by user and kind, pruned when expired", arguments: StoreBackend.all)
    func actionCodes(backend: StoreBackend) async throws {
        try await withStore(backend) { store, _ in
            try await store.createUser(makeUser("u1", email: "ada@example.com"), session: nil)
            try await store.createUser(makeUser("u2", email: "bob@example.com"), session: nil)
            let reset = Self.code("h-reset")
            let change = Self.code("h-change", kind: .verifyAndChangeEmail)
            let signIn = ActionCodeRecord(
                codeHash: "h-signin", kind: .emailSignIn, uid: nil, email: "new@example.com", createdAt: epoch,
                expiresAt: epoch.addingTimeInterval(3600))
            for record in [reset, change, signIn] { try await store.insertActionCode(record) }

            #expect(try await store.actionCode(hash: "h-reset") == reset)
            #expect(try await store.actionCode(hash: "h-reset") == reset)  // peeking does not use it up
            #expect(try await store.actionCode(hash: "h-none") == nil)
            #expect(try await store.consumeActionCode(hash: "h-change") == change)
            #expect(try await store.consumeActionCode(hash: "h-change") == nil)
            #expect(try await store.actionCode(hash: "h-change") == nil)
            #expect(try await store.consumeActionCode(hash: "h-signin") == signIn)
            #expect(try await store.consumeActionCode(hash: "h-none\0") == nil)

            // Voiding: only the named kinds of that user.
            try await store.insertActionCode(Self.code("h-verify", kind: .verifyEmail))
            try await store.insertActionCode(Self.code("h-reset-2"))
            try await store.insertActionCode(Self.code("h-reset-bob", uid: "u2"))
            #expect(try await store.deleteActionCodes(uid: "u1", kinds: []) == 0)
            #expect(try await store.deleteActionCodes(uid: "u1", kinds: [.passwordReset, .recoverEmail]) == 2)
            #expect(try await store.actionCode(hash: "h-reset") == nil)
            #expect(try await store.actionCode(hash: "h-verify") != nil)
            #expect(try await store.actionCode(hash: "h-reset-bob") != nil)

            // A user's codes go with the user.
            #expect(try await store.deleteUser(uid: "u2"))
            #expect(try await store.actionCode(hash: "h-reset-bob") == nil)

            // An expired code is still returned (the caller says why it refuses), and pruned.
            let expired = Self.code("h-expired", lifetime: 60)
            try await store.insertActionCode(expired)
            let consumed = try #require(try await store.consumeActionCode(hash: "h-expired"))
            #expect(consumed == expired)
            #expect(consumed.isExpired(at: epoch.addingTimeInterval(60)))
            try await store.insertActionCode(expired)
            #expect(try await store.deleteActionCodes(expiredBefore: epoch.addingTimeInterval(60)) == 0)
            #expect(try await store.deleteActionCodes(expiredBefore: epoch.addingTimeInterval(61)) == 1)

            // A new code first prunes the ones expired before its creation.
            try await store.insertActionCode(expired)
            try await store.insertActionCode(Self.code("h-later", createdAt: epoch.addingTimeInterval(61)))
            #expect(try await store.actionCode(hash: "h-expired") == nil)
            #expect(try await store.actionCode(hash: "h-verify") != nil)
            #expect(try await count("action_codes", in: store) == 2)
        }
    }

    @Test("action codes: of 20 parallel consumers of one code exactly one gets it", arguments: StoreBackend.all)
    func parallelConsume(backend: StoreBackend) async throws {
        try await withStore(backend) { store, _ in
            try await store.createUser(makeUser("u1"), session: nil)
            try await store.insertActionCode(Self.code("h-contested"))
            let winners = try await withThrowingTaskGroup(of: ActionCodeRecord?.self) { group in
                for _ in 0..<20 { group.addTask { try await store.consumeActionCode(hash: "h-contested") } }
                return try await group.reduce(into: [ActionCodeRecord]()) { if let record = $1 { $0.append(record) } }
            }
            #expect(winners == [Self.code("h-contested")])
        }
    }

    @Test("action codes: NUL in a text is INVALID_ARGUMENT and nothing is stored", arguments: StoreBackend.all)
    func actionCodeNUL(backend: StoreBackend) async throws {
        try await withStore(backend) { store, _ in
            try await store.createUser(makeUser("u1"), session: nil)
            var record = Self.code("h-nul")
            record.continueURL = "https://app.example.com/\0evil"
            await #expect(throws: HearthError(.invalidArgument)) { try await store.insertActionCode(record) }
            #expect(try await count("action_codes", in: store) == 0)
            var mail = Self.mail("m-nul")
            mail.subject = "a\0b"
            await #expect(throws: HearthError(.invalidArgument)) { try await store.enqueueMail(mail) }
            #expect(try await count("mail_queue", in: store) == 0)
        }
    }

    @Test("mail queue: claimed, re-claimable after the claim runs out, sent, retried, given up, listed, pruned", arguments: StoreBackend.all)
    func mailQueue(backend: StoreBackend) async throws {
        try await withStore(backend) { store, _ in
            let first = Self.mail("m1")
            let second = Self.mail("m2", createdAt: epoch.addingTimeInterval(1))
            let later = Self.mail("m3", createdAt: epoch.addingTimeInterval(10_000))
            let textOnly = Self.mail("m4", createdAt: epoch.addingTimeInterval(20_000), htmlBody: "")
            for mail in [second, later, first, textOnly] { try await store.enqueueMail(mail) }
            #expect(try await store.countWaitingMails() == 4)

            // Due ones, oldest first, claimed: one attempt more, the next one at the claim's end.
            var claimedFirst = first
            claimedFirst.attempts = 1
            claimedFirst.nextAttemptAt = epoch.addingTimeInterval(65)
            var claimedSecond = second
            claimedSecond.attempts = 1
            claimedSecond.nextAttemptAt = epoch.addingTimeInterval(65)
            let claimed = try await store.claimDueMails(now: epoch.addingTimeInterval(5), claimUntil: epoch.addingTimeInterval(65), limit: 10)
            #expect(claimed == [claimedFirst, claimedSecond])
            #expect(try await store.claimDueMails(now: epoch.addingTimeInterval(64), claimUntil: epoch.addingTimeInterval(124), limit: 10) == [])
            #expect(try await store.claimDueMails(now: epoch, claimUntil: epoch, limit: 0) == [])

            // The claim ran out (the replica died): claimable again.
            let again = try await store.claimDueMails(now: epoch.addingTimeInterval(65), claimUntil: epoch.addingTimeInterval(125), limit: 1)
            #expect(again.map(\.id) == ["m1"])
            #expect(again.first?.attempts == 2)

            // Sent: bodies dropped, never claimed again; a failure reported later changes nothing.
            try await store.markMailSent(id: "m1", at: epoch.addingTimeInterval(66))
            try await store.markMailFailed(id: "m1", error: "late", retryAt: nil, now: epoch.addingTimeInterval(67))
            let sent = try #require(try await store.recentMails(limit: 10).first { $0.id == "m1" })
            #expect(sent.sentAt == epoch.addingTimeInterval(66))
            #expect(sent.failedAt == nil && sent.lastError == nil)
            #expect(sent.textBody == "" && sent.htmlBody == "")
            #expect(sent.subject == first.subject)

            // Failed with a retry: kept, tried again at the retry time.
            try await store.markMailFailed(
                id: "m2", error: "421 4.7.0 try again later\0" + String(repeating: "x", count: 5000), retryAt: epoch.addingTimeInterval(200),
                now: epoch.addingTimeInterval(70))
            var retried = claimedSecond
            retried.nextAttemptAt = epoch.addingTimeInterval(200)
            retried.lastError = "421 4.7.0 try again later" + String(repeating: "x", count: SQLStore.maximumMailErrorLength - 25)
            #expect(try await store.recentMails(limit: 10).first { $0.id == "m2" } == retried)
            #expect(try await store.claimDueMails(now: epoch.addingTimeInterval(199), claimUntil: epoch.addingTimeInterval(259), limit: 10) == [])
            #expect(try await store.countWaitingMails() == 3)

            // Given up: bodies dropped, no longer waiting.
            try await store.markMailFailed(id: "m2", error: "550 5.1.1 no such user", retryAt: nil, now: epoch.addingTimeInterval(80))
            let givenUp = try #require(try await store.recentMails(limit: 10).first { $0.id == "m2" })
            #expect(givenUp.failedAt == epoch.addingTimeInterval(80))
            #expect(givenUp.lastError == "550 5.1.1 no such user")
            #expect(givenUp.textBody == "" && givenUp.htmlBody == "")
            #expect(try await store.countWaitingMails() == 2)

            // Newest first; an empty body reads back empty.
            #expect(try await store.recentMails(limit: 2) == [textOnly, later])
            #expect(try await store.recentMails(limit: 10).map(\.id) == ["m4", "m3", "m2", "m1"])
            #expect(try await store.recentMails(limit: 0) == [])

            // Pruning takes finished mails only.
            #expect(try await store.deleteMails(finishedBefore: epoch.addingTimeInterval(75)) == 1)
            #expect(try await store.deleteMails(finishedBefore: epoch.addingTimeInterval(100_000)) == 1)
            #expect(try await store.recentMails(limit: 10).map(\.id) == ["m4", "m3"])
            let rest = try await store.claimDueMails(
                now: epoch.addingTimeInterval(100_000), claimUntil: epoch.addingTimeInterval(100_060), limit: 10)
            #expect(rest.map(\.id) == ["m3", "m4"])
            #expect(rest.last?.htmlBody == "")
        }
    }

    @Test("mail queue: 3 parallel claimers over 30 mails get disjoint sets covering all", arguments: StoreBackend.all)
    func parallelClaims(backend: StoreBackend) async throws {
        try await withStore(backend) { store, _ in
            for index in 0..<30 {
                try await store.enqueueMail(Self.mail("m\(100 + index)", createdAt: epoch.addingTimeInterval(Double(index))))
            }
            let now = epoch.addingTimeInterval(60)
            let claims = try await claimUntilEmpty(claimers: 3) {
                let batch = try await store.claimDueMails(now: now, claimUntil: now.addingTimeInterval(600), limit: 4)
                #expect(batch.allSatisfy { $0.attempts == 1 })
                return batch.map(\.id)
            }
            let all = claims.flatMap { $0 }
            #expect(all.count == 30)
            #expect(Set(all) == Set((0..<30).map { "m\(100 + $0)" }))
            #expect(try await store.claimDueMails(now: now, claimUntil: now.addingTimeInterval(600), limit: 30) == [])
            #expect(try await store.countWaitingMails() == 30)
        }
    }

    @Test("mail bodies are sealed at rest, opened when read, resealed and rewrapped", arguments: StoreBackend.all)
    func sealedBodies(backend: StoreBackend) async throws {
        let sealer = SecretSealer(key: .generate())
        try await withStore(backend, sealer: sealer) { store, fixture in
            let mail = Self.mail(
                "m-sealed", textBody: "MARKER-text-3f9a https://x/?oobCode=1", htmlBody: "<a>MARKER-html-3f9a</a>")
            try await store.enqueueMail(mail)
            try await store.enqueueMail(Self.mail("m-sent", textBody: "MARKER-sent-3f9a"))
            try await store.markMailSent(id: "m-sent", at: epoch)

            #expect(try await store.recentMails(limit: 10).first { $0.id == "m-sealed" } == mail)
            let claimed = try await store.claimDueMails(now: epoch, claimUntil: epoch.addingTimeInterval(60), limit: 10)
            #expect(claimed.map(\.textBody) == [mail.textBody])
            #expect(claimed.map(\.htmlBody) == [mail.htmlBody])

            let raw = try await Self.rawBodies(store)
            #expect(raw.count == 2)
            #expect(raw.allSatisfy { !$0.contains("MARKER") })
            #expect(raw.allSatisfy { $0.hasPrefix("hearth-sealed:v1:\(sealer.key.id):") })
            if backend == .sqlite {
                // The database file and its write-ahead log, byte by byte.
                for file in try FileManager.default.contentsOfDirectory(atPath: fixture.directory.appendingPathComponent("nested").path) {
                    let bytes = try Data(contentsOf: fixture.directory.appendingPathComponent("nested/\(file)"))
                    #expect(bytes.range(of: Data("MARKER".utf8)) == nil, "\(file)")
                }
            }
        }
    }

    @Test("sealStoredSecrets seals bodies left in plain text; rewrap moves them to the new key", arguments: StoreBackend.all)
    func resealBodies(backend: StoreBackend) async throws {
        let fixture = try await StoreFixture(backend)
        defer { fixture.removeFiles() }
        let plain = try await fixture.open()
        let mail = Self.mail("m-plain")
        try await plain.enqueueMail(mail)
        try await plain.enqueueMail(Self.mail("m-sent"))
        try await plain.markMailSent(id: "m-sent", at: epoch)
        try await plain.close()

        let old = SecretSealer(key: .generate())
        let sealed = try await fixture.open(sealer: old)
        do {
            var counts = try await sealed.sealStoredSecrets()
            #expect(counts.mails == 1 && counts.total == 1)
            counts = try await sealed.sealStoredSecrets()
            #expect(counts.total == 0)
            #expect(try await Self.rawBodies(sealed).allSatisfy { $0.hasPrefix("hearth-sealed:v1:\(old.key.id):") })
            let new = SecretSealer(key: .generate())
            #expect(try await sealed.rewrapStoredSecrets(to: new).mails == 1)
            #expect(try await Self.rawBodies(sealed).allSatisfy { $0.hasPrefix("hearth-sealed:v1:\(new.key.id):") })
            #expect(try await Self.rawBodies(sealed).count == 2)
        } catch {
            try? await sealed.close()
            throw error
        }
        try await sealed.close()
    }

    @Test("email_link_sign_in round-trips and keeps an account with an address out of the anonymous clean-up", arguments: StoreBackend.all)
    func emailLinkSignIn(backend: StoreBackend) async throws {
        try await withStore(backend) { store, _ in
            var linked = makeUser("u-link", email: "link@example.com")
            linked.emailLinkSignIn = true
            try await store.createUser(linked, session: nil)
            #expect(try await store.user(uid: "u-link") == linked)
            #expect(try await store.user(email: "link@example.com")?.emailLinkSignIn == true)
            try await store.updateUser(uid: "u-link", session: nil) { $0.emailLinkSignIn = false }
            #expect(try await store.user(uid: "u-link")?.emailLinkSignIn == false)
            try await store.updateUser(uid: "u-link", session: nil) { $0.emailLinkSignIn = true }
            #expect(try await store.users(after: nil, limit: 10).first?.emailLinkSignIn == true)

            // Without an address the flag signs nobody in: such an account is anonymous, as UserRecord says.
            var addressless = makeUser("u-none")
            addressless.emailLinkSignIn = true
            try await store.createUser(addressless, session: nil)
            #expect(!linked.isAnonymous && addressless.isAnonymous)
            #expect(try await store.scheduleAnonymousDeletion(olderThan: 0, notBefore: epoch) == 1)
            #expect(try await store.user(uid: "u-link")?.scheduledDeletionAt == nil)
            #expect(try await store.user(uid: "u-none")?.scheduledDeletionAt != nil)
        }
    }

    /// The stored, non-NULL mail bodies, read past the store.
    static func rawBodies(_ store: SQLStore) async throws -> [String] {
        try await store.transactor.read { database in
            try await database.raw("SELECT text_body, html_body FROM mail_queue").all().flatMap { row in
                [
                    try row.decodeNil(column: "text_body") ? nil : try row.decode(column: "text_body", as: String.self),
                    try row.decodeNil(column: "html_body") ? nil : try row.decode(column: "html_body", as: String.self),
                ].compactMap { $0 }
            }
        }
    }
}
