import Foundation
import HearthCore
import HearthStoragePostgres
import HearthTesting
import Logging
import SQLKit
import Testing

@testable import HearthStorage
@testable import HearthStorageSQLite

/// The signing-key records the key ring rotates, on both backends.
@Suite("Store conformance: signing keys")
struct SigningKeyStoreTests {
    @Test("signing keys: insert, list, retire, delete expired", arguments: StoreBackend.all)
    func signingKeys(backend: StoreBackend) async throws {
        try await withStore(backend) { store, _ in
            func key(_ kid: String, activates: Date) -> SigningKeyRecord {
                SigningKeyRecord(
                    kid: kid, algorithm: "RS256", privateKeyPEM: "-----BEGIN PRIVATE KEY-----\n\(kid)\n",
                    certificatePEM: "-----BEGIN CERTIFICATE-----\n\(kid)\n", createdAt: activates.addingTimeInterval(-60),
                    activatesAt: activates, retiresAt: activates.addingTimeInterval(30 * oneDay),
                    expiresAt: activates.addingTimeInterval(31 * oneDay))
            }
            let newer = key("bbbb", activates: epoch.addingTimeInterval(oneDay))
            var older = key("aaaa", activates: epoch)
            try await store.insertSigningKey(newer)
            try await store.insertSigningKey(older)
            #expect(try await store.signingKeys() == [older, newer])
            await #expect(throws: (any Error).self) { try await store.insertSigningKey(older) }

            try await store.retireSigningKey(
                kid: "aaaa", retiresAt: epoch.addingTimeInterval(2 * oneDay), expiresAt: epoch.addingTimeInterval(3 * oneDay))
            older.retiresAt = epoch.addingTimeInterval(2 * oneDay)
            older.expiresAt = epoch.addingTimeInterval(3 * oneDay)
            #expect(try await store.signingKeys() == [older, newer])
            try await store.retireSigningKey(kid: "missing", retiresAt: epoch, expiresAt: epoch)

            #expect(try await store.deleteSigningKeys(expiredBefore: epoch.addingTimeInterval(3 * oneDay)) == 0)
            #expect(try await store.deleteSigningKeys(expiredBefore: epoch.addingTimeInterval(4 * oneDay)) == 1)
            #expect(try await store.signingKeys() == [newer])
        }
    }

    @Test("updateSigningKeys applies an insert and a retirement together, or nothing", arguments: StoreBackend.all)
    func updateSigningKeys(backend: StoreBackend) async throws {
        try await withStore(backend) { store, _ in
            let first = makeKey("k1", activates: epoch)
            let seen = LockedBox<[SigningKeyRecord]?>(nil)
            let nothing = try await store.updateSigningKeys { keys in
                seen.withLock { $0 = keys }
                return nil
            }
            #expect(nothing == nil)
            #expect(seen.withLock { $0 } == [])
            #expect(try await store.updateSigningKeys { _ in SigningKeyChange() } == nil)
            #expect(try await store.updateSigningKeys { _ in SigningKeyChange(insert: first) } == SigningKeyChange(insert: first))
            #expect(try await store.signingKeys() == [first])

            // Rotation: the next key and the retirement of the current one in one transaction.
            let second = makeKey("k2", activates: epoch.addingTimeInterval(oneDay))
            let retirement = SigningKeyChange.Retirement(
                kid: "k1", retiresAt: epoch.addingTimeInterval(oneDay), expiresAt: epoch.addingTimeInterval(2 * oneDay))
            let applied = try await store.updateSigningKeys { keys in
                #expect(keys == [first])
                return SigningKeyChange(insert: second, retire: retirement)
            }
            #expect(applied == SigningKeyChange(insert: second, retire: retirement))
            var retired = first
            retired.retiresAt = retirement.retiresAt
            retired.expiresAt = retirement.expiresAt
            #expect(try await store.signingKeys() == [retired, second])

            // A failing insert (duplicate kid) undoes the retirement of the same change.
            await #expect(throws: (any Error).self) {
                try await store.updateSigningKeys { _ in
                    SigningKeyChange(
                        insert: first,
                        retire: .init(kid: "k2", retiresAt: epoch, expiresAt: epoch))
                }
            }
            // An error thrown by the closure is rethrown unchanged and nothing is written.
            let thrown = await #expect(throws: MutationRefused.self) {
                try await store.updateSigningKeys { _ in throw MutationRefused(marker: "keys") }
            }
            #expect(thrown == MutationRefused(marker: "keys"))
            #expect(try await store.signingKeys() == [retired, second])
        }
    }

    @Test("concurrent \"create if none pending\" key updates insert exactly one key", arguments: StoreBackend.all)
    func updateSigningKeysIsExclusive(backend: StoreBackend) async throws {
        try await withStore(backend) { store, _ in
            let inserted = try await withThrowingTaskGroup(of: Bool.self) { group in
                for index in 0..<20 {
                    group.addTask {
                        try await store.updateSigningKeys { keys in
                            keys.isEmpty ? SigningKeyChange(insert: makeKey("kid-\(index)", activates: epoch)) : nil
                        } != nil
                    }
                }
                return try await group.reduce(0) { $0 + ($1 ? 1 : 0) }
            }
            #expect(inserted == 1)
            #expect(try await store.signingKeys().count == 1)
        }
    }
}
