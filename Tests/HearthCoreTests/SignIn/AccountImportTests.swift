import Foundation
import HearthCore
import Testing

/// `accounts:batchCreate`'s rules without HTTP: whole-batch refusals, per-user failures by index, conflicts with
/// users already stored.
@Suite struct AccountImportTests {
    static let now = Date(timeIntervalSince1970: 1_700_000_000)

    @Test("a batch with no users, too many, a uid twice or a duplicate e-mail under sanityCheck imports nothing")
    func wholeBatchRefusals() {
        #expect(throwsCode(.missingUserAccount) { try AccountImport(.init(entries: []), now: Self.now) })
        let many = (0...AccountImport.maxBatch).map { AccountImport.Entry(uid: "u\($0)") }
        #expect(throwsCode(.exceedMaxUserCount) { try AccountImport(.init(entries: many), now: Self.now) })
        #expect(throwsCode(.duplicateLocalID) { try AccountImport(.init(entries: [.init(uid: "a"), .init(uid: "a")]), now: Self.now) })
        var first = AccountImport.Entry(uid: "a")
        first.email = "Same@Example.com"
        var second = AccountImport.Entry(uid: "b")
        second.email = "same@example.com"
        var batch = AccountImport.Batch(entries: [first, second])
        #expect((try? AccountImport(batch, now: Self.now)) != nil)
        batch.sanityCheck = true
        #expect(throwsCode(.duplicateEmail) { try AccountImport(batch, now: Self.now) })
        var hashed = AccountImport.Entry(uid: "h")
        hashed.passwordHash = "AAAA"
        #expect(throwsCode(.invalidHashParameter) { try AccountImport(.init(entries: [hashed]), now: Self.now) })
    }

    @Test("bad users fail by index with Identity Toolkit's messages; the rest are stored; a taken e-mail fails in the write")
    func perUserFailures() async throws {
        let store = MemoryAccounts()
        try await store.createUser(UserRecord(uid: "existing", email: "taken@example.com", createdAt: Self.now, validSince: Self.now), session: nil)
        var badEmail = AccountImport.Entry(uid: "b")
        badEmail.email = "not-an-address"
        var badTime = AccountImport.Entry(uid: "c")
        badTime.createdAt = -1
        var taken = AccountImport.Entry(uid: "d")
        taken.email = "taken@example.com"
        var linked = AccountImport.Entry(uid: "e")
        linked.links = [.init(providerID: "google.com", rawID: nil)]
        var good = AccountImport.Entry(uid: "f")
        good.createdAt = 1_600_000_000_000
        let entries = [AccountImport.Entry(uid: "a\u{0}"), badEmail, badTime, taken, linked, good]
        let importer = try AccountImport(.init(entries: entries), now: Self.now)
        let failures = try await importer.run(into: store, passwords: CountedPasswords())
        #expect(failures.map(\.index) == [0, 1, 2, 3, 4])
        #expect(
            failures.map(\.message) == [
                "localId is invalid", "email is invalid", "createdAt is invalid", "email exists in other account in database",
                "federatedId or (providerId & rawId) is required",
            ])
        let stored = try #require(try await store.user(uid: "f"))
        #expect(stored.createdAt == Date(timeIntervalSince1970: 1_600_000_000))
        #expect(try await store.user(uid: "d") == nil)
    }

    @Test("rawPassword is hashed with the server's hasher and signs in; with a hash too, or too short, it fails that user alone")
    func rawPasswords() async throws {
        let store = MemoryAccounts()
        let passwords = CountedPasswords()
        var clear = AccountImport.Entry(uid: "clear")
        clear.email = "clear@example.com"
        clear.rawPassword = "correct horse"
        var both = AccountImport.Entry(uid: "both")
        both.rawPassword = "correct horse"
        both.passwordHash = "AAAA"
        var short = AccountImport.Entry(uid: "short")
        short.rawPassword = "abc"
        var batch = AccountImport.Batch(entries: [clear, both, short, AccountImport.Entry(uid: ""), AccountImport.Entry(uid: "")])
        batch.hashAlgorithm = "HMAC_SHA256"
        batch.signerKey = "c2lnbmVy"
        let failures = try await AccountImport(batch, now: Self.now).run(into: store, passwords: passwords)
        #expect(
            failures == [
                .init(index: 1, message: "rawPassword and passwordHash cannot both be set"),
                .init(index: 2, message: "Password should be at least 6 characters"),
                // Two entries without a uid: each a per-user error, not a duplicate uid for the whole batch.
                .init(index: 3, message: "localId is missing"), .init(index: 4, message: "localId is missing"),
            ])
        let stored = try #require(try await store.user(uid: "clear"))
        let hash = try #require(stored.passwordHash)
        #expect(try await passwords.verify("correct horse", against: hash))
        #expect(!passwords.needsRehash(hash))
        #expect(stored.passwordUpdatedAt == Self.now && stored.scheduledDeletionAt == nil && !stored.isAnonymous)
    }

    private func throwsCode(_ code: HearthError.Code, _ body: () throws -> AccountImport) -> Bool {
        do {
            _ = try body()
            return false
        } catch let error as HearthError {
            return error.code == code
        } catch {
            return false
        }
    }
}
