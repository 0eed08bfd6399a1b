import Foundation
import HearthCore
import HearthStoragePostgres
import HearthTesting
import Logging
import SQLKit
import Testing

@testable import HearthStorage
@testable import HearthStorageSQLite

/// A storage backend the conformance suite runs against. Add a case to run the whole suite on
/// another database.
enum StoreBackend: String, CaseIterable, Sendable, CustomTestStringConvertible {
    case sqlite
    /// A fresh database on the shared throwaway cluster (``PostgresTestCluster``); fails loudly
    /// when PostgreSQL is not installed.
    case postgres

    static let all = allCases

    var testDescription: String { rawValue }
}

/// A fresh, private database of one backend. Every ``open(migrate:)`` reaches the same data.
final class StoreFixture: Sendable {
    let backend: StoreBackend
    let directory: URL
    /// The database of a `.postgres` fixture.
    let postgresURL: String?

    init(_ backend: StoreBackend) async throws {
        self.backend = backend
        directory = FileManager.default.temporaryDirectory
            .appendingPathComponent("hearth-store-tests-\(UUID().uuidString)", isDirectory: true)
        switch backend {
        case .sqlite: postgresURL = nil
        case .postgres: postgresURL = try await PostgresTestCluster.shared().createDatabase()
        }
    }

    /// A file in a directory that does not exist yet: opening must create it.
    var sqlitePath: String { directory.appendingPathComponent("nested/hearth.sqlite").path }

    func open(migrate: Bool = true, sealer: SecretSealer? = nil) async throws -> SQLStore {
        switch backend {
        case .sqlite:
            try await SQLiteStorage.open(path: sqlitePath, logger: Logger(label: "hearth.tests.store"), migrate: migrate, sealer: sealer)
        case .postgres:
            try await PostgresStorage.open(
                url: try #require(postgresURL), logger: Logger(label: "hearth.tests.store"), migrate: migrate, sealer: sealer)
        }
    }

    func removeFiles() {
        try? FileManager.default.removeItem(at: directory)
    }
}

/// Runs `body` with a migrated store on a fresh database (sealing with `sealer` when given), closing it and
/// deleting files afterwards.
func withStore(
    _ backend: StoreBackend, sealer: SecretSealer? = nil, _ body: (SQLStore, StoreFixture) async throws -> Void
) async throws {
    let fixture = try await StoreFixture(backend)
    defer { fixture.removeFiles() }
    let store = try await fixture.open(sealer: sealer)
    do {
        try await body(store, fixture)
    } catch {
        try? await store.close()
        throw error
    }
    try await store.close()
}

/// A recognisable error for `mutate` to throw.
struct MutationRefused: Error, Equatable {
    let marker: String
}

let epoch = Date(timeIntervalSince1970: 1_800_000_000)
let oneDay: TimeInterval = 86_400

func makeUser(
    _ uid: String, email: String? = nil, createdAt: Date = epoch, passwordHash: String? = nil,
    phoneNumber: String? = nil, customAuth: Bool = false, scheduledDeletionAt: Date? = nil,
    providers: [ProviderLink] = []
) -> UserRecord {
    UserRecord(
        uid: uid, email: email, phoneNumber: phoneNumber, passwordHash: passwordHash, customAuth: customAuth,
        createdAt: createdAt, validSince: createdAt, scheduledDeletionAt: scheduledDeletionAt, providers: providers)
}

func makeKey(_ kid: String, activates: Date) -> SigningKeyRecord {
    SigningKeyRecord(
        kid: kid, algorithm: "RS256", privateKeyPEM: "-----BEGIN PRIVATE KEY-----\n\(kid)\n",
        certificatePEM: "-----BEGIN CERTIFICATE-----\n\(kid)\n", createdAt: activates.addingTimeInterval(-60),
        activatesAt: activates, retiresAt: activates.addingTimeInterval(30 * oneDay),
        expiresAt: activates.addingTimeInterval(31 * oneDay))
}

func makeSession(_ tokenHash: String, uid: String, extraClaims: String? = nil) -> RefreshSessionRecord {
    RefreshSessionRecord(
        tokenHash: tokenHash, uid: uid, signInProvider: "password", authTime: epoch.addingTimeInterval(1.5),
        createdAt: epoch.addingTimeInterval(2.25), extraClaims: extraClaims)
}

func count(_ table: String, in store: SQLStore) async throws -> Int {
    try await store.transactor.read { database in
        let row = try await database.raw("SELECT COUNT(*) AS n FROM \(ident: table)").first()
        return Int(try row?.decode(column: "n", as: Int64.self) ?? -1)
    }
}

/// What each of `claimers` parallel claimers got, each calling `claim` (one batch's ids) until it gets none: the queues'
/// test that replicas claim disjoint sets.
func claimUntilEmpty(claimers: Int, _ claim: @escaping @Sendable () async throws -> [String]) async throws -> [[String]] {
    try await withThrowingTaskGroup(of: [String].self) { group in
        for _ in 0..<claimers {
            group.addTask {
                var ids: [String] = []
                while true {
                    let batch = try await claim()
                    guard !batch.isEmpty else { return ids }
                    ids += batch
                }
            }
        }
        return try await group.reduce(into: [[String]]()) { $0.append($1) }
    }
}
