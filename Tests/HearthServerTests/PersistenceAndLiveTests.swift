import AsyncHTTPClient
import Foundation
import HearthCore
import HearthServer
import HearthWire
import Hummingbird
import HummingbirdTesting
import Logging
import NIOCore
import Testing

@Suite("Persistence across restarts, over real HTTP")
struct PersistenceAndLiveTests {
    @Test("after a restart on the same data directory the user, the key and the refresh token are still valid")
    func restart() async throws {
        let clock = ManualClock()
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("hearth-restart-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: directory) }

        let first = try await TestHearth.make(directory: directory, clock: clock)
        let created = try await first.withClient { try await $0.signUp(email: "ada@example.com", password: "secret1") }
        let kidsBefore = try await first.services.keyRing.publishedKeys(at: clock.now).map(\.kid)
        try await first.close()

        clock.advance(by: 60)
        let second = try await TestHearth.make(directory: directory, clock: clock)
        #expect(try await second.services.keyRing.publishedKeys(at: clock.now).map(\.kid) == kidsBefore)
        try await second.withClient { client in
            #expect(try await client.lookup(created.idToken!).status == .ok)
            let refreshed = try await client.refresh(created.refreshToken!)
            #expect(refreshed.status == .ok)
            #expect(refreshed.string("user_id") == created.localId)
            #expect(try await client.signIn(email: "ada@example.com", password: "secret1").status == .ok)
        }
        try await second.close()
    }

    @Test("the application serves real HTTP on loopback, background services included")
    func live() async throws {
        let hearth = try await TestHearth.make()
        defer { hearth.removeFiles() }
        let app = buildApplication(services: hearth.services)
        try await app.test(.live) { client in
            let client = FirebaseTestClient(baseURL: "http://127.0.0.1:\(try #require(client.port))")
            let created = try await client.signUpAnonymously()
            #expect(try await client.refresh(created.refreshToken!).status == .ok)
            #expect(try await client.lookup(created.idToken!).status == .ok)
            let root = try await client.raw("/", method: .get)
            #expect(root.json["authEmulator"]?.objectValue?["ready"] == .bool(true))
        }
        try await hearth.close()
    }
}
