import Foundation
import HearthCore
import HearthStorage
import Testing

/// The console's operators and sessions, and its listing and search of users, on every backend.
@Suite("Store conformance: console operators and listings")
struct OperatorStoreTests {
    static func record(_ email: String, role: OperatorRecord.Role = .editor) -> OperatorRecord {
        OperatorRecord(
            email: email, role: role, passwordHash: "$scrypt$hash", totpSecret: "hearth-sealed:v1:k:abc", recoveryCodeHashes: ["a", "b"],
            createdAt: epoch)
    }

    @Test("operators round-trip, are unique by e-mail, change in a transaction and take their sessions with them", arguments: StoreBackend.all)
    func operators(_ backend: StoreBackend) async throws {
        try await withStore(backend) { store, _ in
            let ada = Self.record("ada@example.com", role: .owner)
            try await store.createConsoleOperator(ada)
            try await store.createConsoleOperator(Self.record("bob@example.com", role: .viewer))
            await #expect(throws: StoreConflict.email) { try await store.createConsoleOperator(Self.record("ada@example.com")) }
            #expect(try await store.consoleOperator(email: "ada@example.com") == ada)
            #expect(try await store.consoleOperator(id: ada.id) == ada)
            #expect(try await store.consoleOperator(email: "nobody@example.com") == nil)
            #expect(try await store.consoleOperator(id: "with\u{0}nul") == nil)
            #expect(try await store.consoleOperators().map(\.email) == ["ada@example.com", "bob@example.com"])

            let changed = try await store.updateConsoleOperator(id: ada.id) { record in
                record.recoveryCodeHashes.removeFirst()
                record.lastCodeStep = 60_000_001
                record.lastSignInAt = epoch.addingTimeInterval(5)
            }
            #expect(changed?.recoveryCodeHashes == ["b"] && changed?.lastCodeStep == 60_000_001)
            #expect(try await store.consoleOperator(id: ada.id) == changed)
            #expect(try await store.updateConsoleOperator(id: "missing") { _ in } == nil)
            await #expect(throws: MutationRefused(marker: "x")) {
                try await store.updateConsoleOperator(id: ada.id) { record in
                    record.recoveryCodeHashes = []
                    throw MutationRefused(marker: "x")
                }
            }
            #expect(try await store.consoleOperator(id: ada.id)?.recoveryCodeHashes == ["b"])

            let session = ConsoleSessionRecord(
                tokenHash: String(repeating: "a", count: 64), operatorID: ada.id, stage: .signedIn, createdAt: epoch, lastSeenAt: epoch)
            try await store.insertConsoleSession(session)
            try await store.insertConsoleSession(
                ConsoleSessionRecord(
                    tokenHash: String(repeating: "b", count: 64), operatorID: ada.id, stage: .awaitingCode, createdAt: epoch, lastSeenAt: epoch))
            let read = try #require(try await store.consoleSession(tokenHash: session.tokenHash))
            #expect(read.session == session && read.operator.email == "ada@example.com")
            try await store.touchConsoleSession(tokenHash: session.tokenHash, at: epoch.addingTimeInterval(90))
            #expect(try await store.consoleSession(tokenHash: session.tokenHash)?.session.lastSeenAt == epoch.addingTimeInterval(90))
            #expect(try await store.consoleSession(tokenHash: String(repeating: "b", count: 64))?.session.stage == .awaitingCode)
            #expect(try await store.consoleSession(tokenHash: "unknown") == nil)

            // Expired ones go; the one seen lately stays.
            #expect(
                try await store.deleteConsoleSessions(lastSeenBefore: epoch.addingTimeInterval(60), createdBefore: epoch.addingTimeInterval(-1)) == 1)
            #expect(try await store.consoleSession(tokenHash: session.tokenHash) != nil)
            #expect(try await store.deleteConsoleSession(tokenHash: session.tokenHash))
            #expect(try await !store.deleteConsoleSession(tokenHash: session.tokenHash))

            try await store.insertConsoleSession(session)
            #expect(try await store.deleteConsoleOperator(id: ada.id))
            #expect(try await store.consoleSession(tokenHash: session.tokenHash) == nil)
            #expect(try await !store.deleteConsoleOperator(id: ada.id))
            // A tenant's view of the store sees the same operators: they are the server's.
            #expect(try await store.scoped(toTenant: "some-tenant").consoleOperators().map(\.email) == ["bob@example.com"])
        }
    }

    @Test(
        "an operator's authenticator secret is sealed at start when plain, moved by a rewrap, and opens for that operator only",
        arguments: StoreBackend.all)
    func sealedSecrets(_ backend: StoreBackend) async throws {
        let fixture = try await StoreFixture(backend)
        defer { fixture.removeFiles() }
        let plain = try await fixture.open()
        var ada = Self.record("ada@example.com")
        ada.totpSecret = "PLAINSECRET"
        try await plain.createConsoleOperator(ada)
        try await plain.close()

        let old = SecretSealer(key: .generate())
        let sealed = try await fixture.open(sealer: old)
        do {
            #expect(try await sealed.sealStoredSecrets().operatorSecrets == 1)
            let stored = try #require(try await sealed.consoleOperator(id: ada.id)?.totpSecret)
            #expect(stored.hasPrefix("hearth-sealed:v1:\(old.key.id):"))
            #expect(try OperatorSecrets(sealer: old).open(stored, operatorID: ada.id) == "PLAINSECRET")
            #expect(throws: (any Error).self) { try OperatorSecrets(sealer: old).open(stored, operatorID: "another-operator") }
            let new = SecretSealer(key: .generate())
            #expect(try await sealed.rewrapStoredSecrets(to: new).operatorSecrets == 1)
            let moved = try #require(try await sealed.consoleOperator(id: ada.id)?.totpSecret)
            #expect(try OperatorSecrets(sealer: new).open(moved, operatorID: ada.id) == "PLAINSECRET")
        } catch {
            try? await sealed.close()
            throw error
        }
        try await sealed.close()
    }

    @Test("the console's listing pages newest first by creation or last sign-in with a cursor; e-mail prefixes search", arguments: StoreBackend.all)
    func listingAndSearch(_ backend: StoreBackend) async throws {
        try await withStore(backend) { store, _ in
            // Seven users, two created at the same millisecond, three never signed in.
            let created = [0, 1, 2, 2, 3, 4, 5].map { epoch.addingTimeInterval(Double($0)) }
            for (index, time) in created.enumerated() {
                var user = makeUser("u\(index)", email: "user\(index)@example.com", createdAt: time)
                if index.isMultiple(of: 2) { user.lastLoginAt = epoch.addingTimeInterval(Double(100 - index)) }
                try await store.createUser(user, session: nil)
            }
            try await store.createUser(makeUser("other", email: "someone@else.example", createdAt: epoch), session: nil)
            try await store.scoped(toTenant: "t1").createUser(makeUser("tenant-user", email: "user9@example.com"), session: nil)

            // Pages of 2 split the two users created at the same millisecond; pages of 3 split the signed-in from the rest.
            for key in [UserQuery.SortKey.createdAt, .lastLoginAt] {
                for size in [2, 3] {
                    var seen: [String] = []
                    var cursor: UserListCursor?
                    repeat {
                        let page = try await store.users(newestBy: key, after: cursor, limit: size)
                        seen += page.map(\.uid)
                        cursor = page.count == size ? page.last.map { UserListCursor(after: $0, by: key) } : nil
                        if let token = cursor?.token { #expect(UserListCursor(token: token) == cursor) }
                    } while cursor != nil
                    let all = try await store.users(newestBy: key, after: nil, limit: 100).map(\.uid)
                    #expect(seen == all, "\(key), pages of \(size)")
                    #expect(Set(all) == Set(["u0", "u1", "u2", "u3", "u4", "u5", "u6", "other"]))
                    if key == .createdAt {
                        #expect(all.prefix(4) == ["u6", "u5", "u4", "u3"])
                        #expect(all.suffix(2) == ["other", "u0"] || all.suffix(2) == ["u0", "other"])
                    } else {
                        #expect(all.prefix(4) == ["u0", "u2", "u4", "u6"])
                    }
                }
            }
            await #expect(throws: HearthError(.invalidArgument)) { try await store.users(newestBy: .email, after: nil, limit: 3) }

            #expect(try await store.users(emailPrefix: "user", limit: 100).map(\.uid) == ["u0", "u1", "u2", "u3", "u4", "u5", "u6"])
            #expect(try await store.users(emailPrefix: "user1", limit: 100).map(\.uid) == ["u1"])
            #expect(try await store.users(emailPrefix: "user", limit: 2).count == 2)
            #expect(try await store.users(emailPrefix: "some", limit: 10).map(\.uid) == ["other"])
            #expect(try await store.users(emailPrefix: "zzz", limit: 10).isEmpty)
            #expect(try await store.users(emailPrefix: "", limit: 10).isEmpty)
            #expect(try await store.users(emailPrefix: "us\u{0}", limit: 10).isEmpty)
            #expect(try await store.scoped(toTenant: "t1").users(emailPrefix: "user", limit: 10).map(\.uid) == ["tenant-user"])
        }
    }
}
