import Foundation
import HearthCore
import HearthTesting
import SQLKit
import Testing

@testable import HearthStorage

/// The SMS queue on both backends: the mail queue's guarantees, the body sealed, the gateway's id kept.
@Suite("Store conformance: the SMS queue")
struct SMSQueueStoreTests {
    static func message(_ id: String, createdAt: Date = epoch, body: String? = nil, channel: SMSChannel = .sms) -> OutgoingSMS {
        OutgoingSMS(
            id: id, recipient: "+9198765\(String(id.suffix(5)).padding(toLength: 5, withPad: "0", startingAt: 0))",
            body: body ?? "123456 is your verification code for Example.", channel: channel, purpose: OutgoingSMS.verificationPurpose,
            languageCode: "hi", createdAt: createdAt, expiresAt: createdAt.addingTimeInterval(300))
    }

    @Test(
        "claimed, re-claimable after the claim runs out, sent with the gateway's id, retried, given up, listed, pruned", arguments: StoreBackend.all)
    func lifecycle(backend: StoreBackend) async throws {
        try await withStore(backend) { store, _ in
            let first = Self.message("s1")
            let second = Self.message("s2", createdAt: epoch.addingTimeInterval(1), channel: .whatsapp)
            let later = Self.message("s3", createdAt: epoch.addingTimeInterval(10_000))
            for message in [second, later, first] { try await store.enqueueSMS(message) }
            #expect(try await store.countWaitingSMS() == 3)

            var claimedFirst = first
            claimedFirst.attempts = 1
            claimedFirst.nextAttemptAt = epoch.addingTimeInterval(30)
            var claimedSecond = second
            claimedSecond.attempts = 1
            claimedSecond.nextAttemptAt = epoch.addingTimeInterval(30)
            let claimed = try await store.claimDueSMS(now: epoch.addingTimeInterval(5), claimUntil: epoch.addingTimeInterval(30), limit: 10)
            #expect(claimed == [claimedFirst, claimedSecond])
            #expect(claimed.last?.channel == .whatsapp)
            #expect(try await store.claimDueSMS(now: epoch.addingTimeInterval(29), claimUntil: epoch.addingTimeInterval(60), limit: 10) == [])
            #expect(try await store.claimDueSMS(now: epoch, claimUntil: epoch, limit: 0) == [])

            // The claim ran out (the replica died): claimable again, one attempt more.
            let again = try await store.claimDueSMS(now: epoch.addingTimeInterval(30), claimUntil: epoch.addingTimeInterval(60), limit: 1)
            #expect(again.map(\.id) == ["s1"] && again.first?.attempts == 2)

            // Sent: the gateway's id kept, the code dropped; a late failure changes nothing.
            try await store.markSMSSent(id: "s1", at: epoch.addingTimeInterval(31), gatewayMessageID: "SM0123456789abcdef\0x")
            try await store.markSMSFailed(id: "s1", error: "late", retryAt: nil, now: epoch.addingTimeInterval(32))
            let sent = try #require(try await store.recentSMS(limit: 10).first { $0.id == "s1" })
            #expect(sent.sentAt == epoch.addingTimeInterval(31) && sent.failedAt == nil && sent.lastError == nil)
            #expect(sent.gatewayMessageID == "SM0123456789abcdefx")
            #expect(sent.body == "")

            // A retry keeps it; giving up drops the code.
            try await store.markSMSFailed(id: "s2", error: "HTTP 503\0", retryAt: epoch.addingTimeInterval(100), now: epoch.addingTimeInterval(40))
            #expect(try await store.recentSMS(limit: 10).first { $0.id == "s2" }?.lastError == "HTTP 503")
            #expect(try await store.claimDueSMS(now: epoch.addingTimeInterval(99), claimUntil: epoch.addingTimeInterval(130), limit: 10) == [])
            try await store.markSMSFailed(id: "s2", error: "21211 invalid To", retryAt: nil, now: epoch.addingTimeInterval(50))
            let givenUp = try #require(try await store.recentSMS(limit: 10).first { $0.id == "s2" })
            #expect(givenUp.failedAt == epoch.addingTimeInterval(50) && givenUp.body == "" && givenUp.lastError == "21211 invalid To")
            #expect(try await store.countWaitingSMS() == 1)

            #expect(try await store.recentSMS(limit: 10).map(\.id) == ["s3", "s2", "s1"])
            #expect(try await store.deleteSMS(finishedBefore: epoch.addingTimeInterval(45)) == 1)
            #expect(try await store.deleteSMS(finishedBefore: epoch.addingTimeInterval(100_000)) == 1)
            #expect(try await store.recentSMS(limit: 10) == [later])
        }
    }

    @Test("3 parallel claimers over 24 messages get disjoint sets covering all", arguments: StoreBackend.all)
    func parallelClaims(backend: StoreBackend) async throws {
        try await withStore(backend) { store, _ in
            for index in 0..<24 {
                try await store.enqueueSMS(Self.message("s\(100 + index)", createdAt: epoch.addingTimeInterval(Double(index))))
            }
            let now = epoch.addingTimeInterval(60)
            let claims = try await claimUntilEmpty(claimers: 3) {
                try await store.claimDueSMS(now: now, claimUntil: now.addingTimeInterval(600), limit: 3).map(\.id)
            }
            let all = claims.flatMap { $0 }
            #expect(all.count == 24 && Set(all).count == 24)
        }
    }

    @Test("the code is sealed at rest, opened when read, resealed and rewrapped; NUL is INVALID_ARGUMENT", arguments: StoreBackend.all)
    func sealed(backend: StoreBackend) async throws {
        let fixture = try await StoreFixture(backend)
        defer { fixture.removeFiles() }
        let plain = try await fixture.open()
        try await plain.enqueueSMS(Self.message("s-plain", body: "MARKER-724913 is your code"))
        let refused = await #expect(throws: HearthError.self) { try await plain.enqueueSMS(Self.message("s-nul", body: "1234\u{0}56")) }
        #expect(refused?.code == .invalidArgument)
        try await plain.close()

        let old = SecretSealer(key: .generate())
        let store = try await fixture.open(sealer: old)
        do {
            #expect(try await store.sealStoredSecrets().sms == 1)
            try await store.enqueueSMS(Self.message("s-sealed", body: "MARKER-555111 is your code"))
            #expect(try await Self.rawBodies(store).allSatisfy { $0.hasPrefix("hearth-sealed:v1:\(old.key.id):") && !$0.contains("MARKER") })
            let claimed = try await store.claimDueSMS(now: epoch, claimUntil: epoch.addingTimeInterval(30), limit: 10)
            #expect(claimed.map(\.body) == ["MARKER-724913 is your code", "MARKER-555111 is your code"])
            let new = SecretSealer(key: .generate())
            #expect(try await store.rewrapStoredSecrets(to: new).sms == 2)
            #expect(try await Self.rawBodies(store).allSatisfy { $0.hasPrefix("hearth-sealed:v1:\(new.key.id):") })
            try await store.markSMSSent(id: "s-sealed", at: epoch, gatewayMessageID: nil)
            #expect(try await Self.rawBodies(store).count == 1)
        } catch {
            try? await store.close()
            throw error
        }
        try await store.close()
    }

    static func rawBodies(_ store: SQLStore) async throws -> [String] {
        try await store.transactor.read { database in
            try await database.raw("SELECT body FROM sms_queue WHERE body IS NOT NULL").all().map { try $0.decode(column: "body", as: String.self) }
        }
    }
}
