import Foundation
import HearthCore
import HearthStorage
import Testing

/// The settings operations the admin API relies on, against SQLite and PostgreSQL.
@Suite("Settings: insert-if-absent and prefix reads")
struct SettingsConformanceTests {
    @Test("insertSetting stores only when the name is free; settings(withPrefix:) reads exactly the prefix", arguments: StoreBackend.all)
    func prefixAndInsert(backend: StoreBackend) async throws {
        try await withStore(backend) { store, _ in
            #expect(try await store.insertSetting("identity-provider/google.com", value: "a"))
            #expect(try await store.insertSetting("identity-provider/google.com", value: "b") == false)
            #expect(try await store.setting("identity-provider/google.com") == "a")
            try await store.setSetting("identity-provider/oidc.corp", to: "c")
            try await store.setSetting("identity-providers", to: "not under the prefix")
            try await store.setSetting("cleanup.enabledAt", to: "1")
            let found = try await store.settings(withPrefix: "identity-provider/")
            #expect(found == ["identity-provider/google.com": "a", "identity-provider/oidc.corp": "c"])
            #expect(try await store.settings(withPrefix: "nothing/").isEmpty)

            // Twenty replicas creating the same configuration at once: exactly one wins.
            let winners = try await withThrowingTaskGroup(of: Bool.self) { group in
                for index in 0..<20 { group.addTask { try await store.insertSetting("identity-provider/apple.com", value: "\(index)") } }
                return try await group.reduce(0) { $0 + ($1 ? 1 : 0) }
            }
            #expect(winners == 1)
        }
    }
}
