import Foundation
import HearthCore
import HearthServer
import HearthWire
import Testing

/// The seed's rules for automatic clean-up, checked with an injected clock.
@Suite("Anonymous account clean-up")
struct AnonymousCleanupTests {
    let day: TimeInterval = 86_400

    @Test("with clean-up on, an anonymous account is deleted 30 days after it was made, not before")
    func deletesAfterThirtyDays() async throws {
        try await withHearth({ $0.anonymousCleanup.enabled = true }) { hearth, client async throws in
            let cleanup = AnonymousCleanupService(services: hearth.services)
            let user = try await client.signUpAnonymously()
            hearth.clock.advance(by: 29 * day)
            #expect(try await cleanup.runOnce() == [])
            hearth.clock.advance(by: day + 1)
            #expect(try await cleanup.runOnce() == [user.localId])
            #expect(try await client.refresh(user.refreshToken!).errorMessage == "INVALID_REFRESH_TOKEN")
        }
    }

    @Test("a tenant's anonymous accounts are cleaned up as the project's are, each in its own tenant")
    func tenantsToo() async throws {
        try await withHearth({ $0.anonymousCleanup.enabled = true }) { hearth, client async throws in
            var admin = client
            admin.apiKey = nil
            let made = try await admin.raw(
                "/v2/projects/demo-hearth/tenants", method: .post, body: Data(#"{"displayName":"Acme","enableAnonymousUser":true}"#.utf8),
                headers: [.authorization: "Bearer owner", .contentType: "application/json"])
            let tenant = try #require(try made.decode(TenantResource.self).tenantId)
            let cleanup = AnonymousCleanupService(services: hearth.services)
            let inProject = try await client.signUpAnonymously()
            let inTenant = try await client.post("/v1/accounts:signUp", ["tenantId": .string(tenant), "returnSecureToken": .bool(true)])
                .decode(SignUpResponse.self)
            hearth.clock.advance(by: 30 * day + 1)
            #expect(Set(try await cleanup.runOnce()) == [inProject.localId, inTenant.localId])
            #expect(try await client.refresh(try #require(inTenant.refreshToken)).errorMessage == "INVALID_REFRESH_TOKEN")
        }
    }

    @Test("accounts made before clean-up was switched on are deleted about 30 days after that moment")
    func existingAccounts() async throws {
        let clock = ManualClock()
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("hearth-cleanup-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: directory) }
        let before = try await TestHearth.make(directory: directory, clock: clock)
        let old = try await before.withClient { try await $0.signUpAnonymously() }
        try await before.close()

        clock.advance(by: 100 * day)
        let after = try await TestHearth.make(directory: directory, clock: clock) { $0.anonymousCleanup.enabled = true }
        let cleanup = AnonymousCleanupService(services: after.services)
        #expect(try await cleanup.runOnce() == [])
        clock.advance(by: 29 * day)
        #expect(try await cleanup.runOnce() == [])
        clock.advance(by: day + 1)
        #expect(try await cleanup.runOnce() == [old.localId])
        try await after.close()
    }

    @Test("an account upgraded by linking is never deleted")
    func upgradedAccountsStay() async throws {
        try await withHearth({ $0.anonymousCleanup.enabled = true }) { hearth, client async throws in
            let cleanup = AnonymousCleanupService(services: hearth.services)
            let user = try await client.signUpAnonymously()
            _ = try await client.signUp(email: "kept@example.com", idToken: user.idToken)
            hearth.clock.advance(by: 60 * day)
            #expect(try await cleanup.runOnce() == [])
            #expect(try await hearth.services.store.user(uid: user.localId) != nil)
        }
    }

    @Test("switching clean-up off keeps the accounts already scheduled, and schedules no new ones")
    func switchingOff() async throws {
        let clock = ManualClock()
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("hearth-cleanup-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: directory) }
        let on = try await TestHearth.make(directory: directory, clock: clock) { $0.anonymousCleanup.enabled = true }
        let scheduled = try await on.withClient { try await $0.signUpAnonymously() }
        try await on.close()

        let off = try await TestHearth.make(directory: directory, clock: clock)
        let cleanup = AnonymousCleanupService(services: off.services)
        let unscheduled = try await off.withClient { try await $0.signUpAnonymously() }
        clock.advance(by: 31 * day)
        #expect(try await cleanup.runOnce() == [scheduled.localId])
        clock.advance(by: 365 * day)
        #expect(try await cleanup.runOnce() == [])
        #expect(try await off.services.store.user(uid: unscheduled.localId) != nil)
        try await off.close()
    }
}
