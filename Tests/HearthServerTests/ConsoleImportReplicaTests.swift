import Foundation
import HearthConfiguration
import HearthCore
import HearthMessages
import HearthServer
import HearthStorage
import HearthTesting
import HearthWire
import Testing

/// The console's imports on two replicas of one PostgreSQL database: the job is the database's, so its page shows on
/// either replica, and one import runs at a time across both.
@Suite("Console imports on two replicas", .serialized)
struct ConsoleImportReplicaTests {
    @Test("an import uploaded on A: its progress and summary read on B; a second upload on B while A's runs is refused")
    func importAcrossReplicas() async throws {
        let url = try await PostgresTestCluster.shared().createDatabase()
        // One clock for both: the operators' codes and the jobs' heartbeats are read against the same time.
        let clock = ManualClock()
        let secretsKey = KeyEncryptionKey.generate().base64
        let configure: (inout ServerConfiguration) -> Void = { configuration in
            configuration.mode = .production
            configuration.apiKeys = ["console-test-api-key"]
            configuration.adminTokens = [ConsoleTests.adminToken]
            configuration.databaseURL = url
            configuration.secrets.key = secretsKey
        }
        let a = try await LiveHearth.start(clock: clock, configure)
        let b: LiveHearth
        do {
            b = try await LiveHearth.start(clock: clock, configure)
        } catch {
            try? await a.stop()
            throw error
        }
        do {
            let added = try await ConsoleTests.addOperator(a, "ed@example.com", role: .editor)
            let onA = try await ConsoleTests.signIn(a, added)
            let onB = try await ConsoleTests.signIn(b, added)
            let other = try await ConsoleTests.signIn(b, try await ConsoleTests.addOperator(a, "ed2@example.com", role: .editor))
            let owner = try await ConsoleTests.signIn(b, try await ConsoleTests.addOperator(a, "own@example.com", role: .owner))

            // Enough users that A is still importing when B is asked for another import (10 batches).
            let users = (1...10_000).map { index -> ExportedUser in
                var user = ExportedUser(localId: "r\(index)")
                user.email = index == 7 ? "not an e-mail" : "replica\(index)@example.com"
                return user
            }
            let file = try JSONEncoder().encode(AuthExportFile(users: users))
            let started = try await ConsoleTransferTests.upload(onA, file: file, name: "replica.json")
            let job = try #require(started.location, "\(started.status): \(started.body)")

            // B refuses a second import while A's runs, and shows A's progress.
            let second = try await ConsoleTransferTests.upload(onB, file: Data(#"{"users":[{"localId":"second"}]}"#.utf8), name: "second.json")
            let running = try await onB.get(job)
            #expect(
                running.status == 200 && running.body.contains("http-equiv=\"refresh\""), "A's import finished before B was asked: \(running.body)")
            #expect(second.status == 409, "\(second.body)")
            #expect(second.body.contains(DisplayText.html("Another import is running; wait for it to finish, then try again.")))
            #expect(try await b.services.store.user(uid: "second") == nil)

            // Someone else's job on B is no job at all; an owner sees it.
            let hidden = try await other.get(job)
            #expect(hidden.status == 404 && hidden.body.contains("There is no such import of yours."))
            #expect(try await owner.get(job).status == 200)

            // B follows it to the summary, which A shows the same.
            let deadline = ContinuousClock.now + .seconds(300)
            var done = ""
            var sawProgress = false
            while done.isEmpty, ContinuousClock.now < deadline {
                let page = try await onB.get(job)
                #expect(page.status == 200)
                if page.body.contains("http-equiv=\"refresh\"") {
                    if page.body.firstMatch(of: #/<progress id="progress" max="10000" value="([1-9]\d*)">/#) != nil { sawProgress = true }
                    try await Task.sleep(for: .milliseconds(100))
                } else {
                    done = page.body
                }
            }
            #expect(sawProgress)
            #expect(done.contains("Imported 9999 of 10000 users; 1 skipped."), "\(done)")
            #expect(done.contains("<tr><td>7</td><td><code><bdi>r7</bdi></code></td><td><bdi>email is invalid</bdi></td></tr>"))
            #expect(try await onA.get(job).body.contains("Imported 9999 of 10000 users; 1 skipped."))
            #expect(try await b.services.store.user(uid: "r10000")?.email == "replica10000@example.com")
            let events = try await b.services.store.auditEvents(uid: nil, kind: .adminUsersImported, after: nil, limit: 10)
            #expect(events.count == 1 && events.first?.details["imported"] == "9999" && events.first?.actorID == "operator:ed@example.com")

            // Once it is done, B takes the next one.
            let next = try await ConsoleTransferTests.runImport(b, onB, file: Data(#"{"users":[{"localId":"second"}]}"#.utf8), name: "second.json")
            #expect(next.contains("Imported 1 of 1 user; 0 skipped."), "\(next)")
        } catch {
            try? await b.stop()
            try? await a.stop()
            throw error
        }
        try await b.stop()
        try await a.stop()
    }
}
