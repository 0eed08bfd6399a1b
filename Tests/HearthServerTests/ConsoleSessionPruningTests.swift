import Foundation
import HearthCore
import HearthTesting
import Testing

@testable import HearthServer

/// The console's session pruning (`ConsoleSignIn.pruneSessions`, run by the hourly `AbusePruningService`) on the live server's store (SQLite, and PostgreSQL
/// under `HEARTH_TEST_DATABASE=postgres`): sessions past their idle or absolute time-out and sign-ins left waiting for
/// their code are deleted; live ones stay and keep working.
@Suite("Console session pruning", .serialized)
struct ConsoleSessionPruningTests {
    @Test("idle, too old and half-way sessions are deleted; a busy one stays and still works")
    func prunes() async throws {
        try await ConsoleTests.withConsole { live in
            let added = try await ConsoleTests.addOperator(live, "ada@example.com", role: .viewer)
            let signIn = live.services.consoleSignIn
            let store = live.services.store
            let idle = try await ConsoleTests.signIn(live, added)
            let busy = try await ConsoleTests.signIn(live, added)
            let halfWay = ConsoleHTTPClient(baseURL: live.baseURL)
            #expect(try await halfWay.post("/console/sign-in", ["email": added.email, "password": ConsoleTests.password]).status == 303)
            let tokens =
                try [idle, busy].map { try #require($0.cookie("hearth_console")) } + [try #require(halfWay.cookie("hearth_console_pending"))]
            func stored(_ token: String) async throws -> Bool { try await store.consoleSession(tokenHash: ConsoleSignIn.hash(token)) != nil }
            for token in tokens { #expect(try await stored(token)) }
            #expect(try await signIn.pruneSessions() == 0)

            // 31 minutes on, with one request of the busy session's on the way: the others are idle too long.
            live.clock.advance(by: 20 * 60)
            #expect(try await busy.get("/console/users").status == 200)
            live.clock.advance(by: 11 * 60)
            #expect(try await signIn.pruneSessions() == 2)
            let kept = [try await stored(tokens[0]), try await stored(tokens[1]), try await stored(tokens[2])]
            #expect(kept == [false, true, false])
            #expect(try await busy.get("/console/users").status == 200)
            #expect(try await signIn.pruneSessions() == 0)

            // However busy, a session ends 12 hours after it began.
            for _ in 0..<25 {
                live.clock.advance(by: 29 * 60)
                try await store.touchConsoleSession(tokenHash: ConsoleSignIn.hash(tokens[1]), at: live.clock.now)
            }
            // The hourly pass prunes them.
            try await AbusePruningService(services: live.services).runOnce()
            let ended = try await stored(tokens[1])
            #expect(!ended)
        }
    }
}
