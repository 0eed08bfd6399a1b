import Foundation
import HearthCore
import HearthTesting
import Hummingbird
import Logging
import Testing

@testable import HearthServer

/// A tenant's controllers outlive the reads of its record: the record is read again after its lifetime (a tenant
/// disabled or deleted on another replica is seen), and the controllers, with what they hold, are kept.
@Suite("Tenant scopes")
struct TenantScopesTests {
    @Test("The record is read again after its lifetime, the controllers kept; disabled or deleted elsewhere is seen")
    func controllersOutliveTheRecord() async throws {
        let live = try await LiveHearth.start()
        do {
            let store = live.services.store
            try await store.createTenant(TenantRecord(id: "scope-a1b2", displayName: "Scope", createdAt: live.clock.now))
            let scopes = TenantScopes(services: live.services, recordLifetime: .zero)
            let first = try await scopes.administered("scope-a1b2")
            let second = try await scopes.administered("scope-a1b2")
            #expect(first === second)
            // Many requests finding the record expired together keep one set of controllers.
            let all = try await withThrowingTaskGroup(of: TenantControllers.self) { group in
                for _ in 0..<32 { group.addTask { try await scopes.administered("scope-a1b2") } }
                return try await group.reduce(into: []) { $0.append($1) }
            }
            #expect(all.allSatisfy { $0 === first })

            // Changed through the store, as another replica changes it: seen at the next read.
            let app = AppContext(source: .init(logger: Logger(label: "test")))
            _ = try await scopes.controllers(for: "scope-a1b2", context: app)
            _ = try await store.updateTenant(id: "scope-a1b2") { $0.disabled = true }
            await #expect(throws: HearthError(.projectDisabled)) { try await scopes.controllers(for: "scope-a1b2", context: app) }
            #expect(try await store.deleteTenant(id: "scope-a1b2"))
            await #expect(throws: HearthError(.tenantNotFound)) { try await scopes.administered("scope-a1b2") }

            // Within the lifetime, the record read last is trusted (one read per tenant and lifetime, not per request).
            try await store.createTenant(TenantRecord(id: "scope-c3d4", displayName: "Scope", createdAt: live.clock.now))
            let lasting = TenantScopes(services: live.services)
            let kept = try await lasting.administered("scope-c3d4")
            #expect(try await store.deleteTenant(id: "scope-c3d4"))
            #expect(try await lasting.administered("scope-c3d4") === kept)
            try await live.stop()
        } catch {
            try? await live.stop()
            throw error
        }
    }
}

/// An app's request, without a socket.
private struct AppContext: CallerRequestContext {
    struct Source: RequestContextSource { var logger: Logger }
    var coreContext: CoreRequestContextStorage
    var caller: Caller = .app
    var administratorCredential: String?
    var administratorTenant: String?

    init(source: Source) { coreContext = .init(source: source) }
}
