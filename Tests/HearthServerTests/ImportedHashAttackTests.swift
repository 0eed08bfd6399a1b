import AsyncHTTPClient
import Foundation
import HearthCore
import HearthServer
import HearthTesting
import NIOCore
import Testing

/// Imported password hashes cannot stall the server: over HTTP, on a live server.
@Suite("Imported hashes: the cost budget and the imported lane, over HTTP")
struct ImportedHashAttackTests {
    @Test("batchCreate refuses bcrypt cost 16 and STANDARD_SCRYPT at 1 GiB with Firebase's errors")
    func refusedAtImport() async throws {
        try await withLiveHearth { live in
            let bcrypt16 = Data("$2b$16$CCCCCCCCCCCCCCCCCCCCC.E5YPO9kmyuRGyh0XouQYb4YMJKvyOeW".utf8).base64EncodedString()
            let bcrypt10 = Data(try Bcrypt.hash("right", cost: 10).utf8).base64EncodedString()
            let (status, json) = try await Self.post(
                live, "/v1/projects/\(live.projectID)/accounts:batchCreate",
                #"{"hashAlgorithm":"BCRYPT","users":[{"localId":"dear","passwordHash":"\#(bcrypt16)"},{"localId":"fine","passwordHash":"\#(bcrypt10)"}]}"#
            )
            #expect(status == 200, "\(json)")
            let errors = try #require(json["error"] as? [[String: Any]])
            #expect(errors.count == 1)
            #expect(errors.first?["index"] as? Int == 0)
            #expect(errors.first?["message"] as? String == "Invalid password hash for hash algorithm BCRYPT.")

            let scrypt = try await Self.post(
                live, "/v1/projects/\(live.projectID)/accounts:batchCreate",
                #"{"hashAlgorithm":"STANDARD_SCRYPT","cpuMemCost":1048576,"blockSize":8,"parallelization":2,"dkLen":64,"users":[{"localId":"huge","passwordHash":"AAAA"}]}"#
            )
            #expect(scrypt.status == 400, "\(scrypt.json)")
            let error = try #require(scrypt.json["error"] as? [String: Any])
            #expect(
                error["message"] as? String
                    == "INVALID_HASH_MEMORY_COST : A valid \"hash.memoryCost\" number must be provided for hash algorithm STANDARD_SCRYPT.")
        }
    }

    @Test("ten wrong passwords in parallel for imported accounts: a native account's correct sign-in does not queue behind them")
    func attack() async throws {
        try await withLiveHearth({ $0.importedHashes.concurrency = 1 }) { live in
            // Ten accounts imported with bcrypt at cost 12 (within the budget: about 6 native checks each at
            // Hearth's default cost), one wrong password each, so that no lockout stops a check before it runs.
            let hash = Data(try Bcrypt.hash("imported password", cost: 12).utf8).base64EncodedString()
            let users = (0..<10).map { #"{"localId":"imp-\#($0)","email":"imp\#($0)@example.com","passwordHash":"\#(hash)"}"# }
            let imported = try await Self.post(
                live, "/v1/projects/\(live.projectID)/accounts:batchCreate",
                #"{"hashAlgorithm":"BCRYPT","users":[\#(users.joined(separator: ","))]}"#)
            #expect(imported.status == 200 && imported.json["error"] == nil, "\(imported.json)")
            let signUp = try await Self.post(
                live, "/v1/accounts:signUp?key=\(live.apiKey)", #"{"email":"normal@example.com","password":"normal password"}"#)
            #expect(signUp.status == 200, "\(signUp.json)")

            try await withThrowingTaskGroup(of: Int.self) { attack in
                for index in 0..<10 {
                    attack.addTask {
                        try await Self.post(
                            live, "/v1/accounts:signInWithPassword?key=\(live.apiKey)",
                            #"{"email":"imp\#(index)@example.com","password":"wrong password"}"#
                        ).status
                    }
                }
                // The attack is under way once one imported check runs and the others wait their turn.
                let deadline = ContinuousClock.now + .seconds(120)
                var lanes = try await Self.lanes(live)
                while !(lanes.importedRunning == 1 && lanes.importedWaiting >= 3), ContinuousClock.now < deadline {
                    try await Task.sleep(for: .milliseconds(5))
                    lanes = try await Self.lanes(live)
                }
                #expect(lanes.importedRunning == 1 && lanes.importedWaiting >= 3, "\(lanes)")

                let started = ContinuousClock.now
                let normal = try await Self.post(
                    live, "/v1/accounts:signInWithPassword?key=\(live.apiKey)", #"{"email":"normal@example.com","password":"normal password"}"#)
                let took = ContinuousClock.now - started
                #expect(normal.status == 200, "\(normal.json)")
                // The native check did not wait for the imported ones: they are not all done when it is (on a loaded
                // machine the sign-in's own writes may take as long as a few imported checks, so the last may run).
                let after = try await Self.lanes(live)
                #expect(after.importedWaiting + after.importedRunning >= 1, "\(after)")
                #expect(after.importedRunning <= 1)
                #expect(took < .seconds(30))
                for try await status in attack { #expect(status == 400) }
            }
            let done = try await Self.lanes(live)
            #expect(done.importedRunning == 0 && done.importedWaiting == 0 && done.nativeWaiting == 0, "\(done)")
            // The imported accounts were never moved: no wrong password rehashes.
            #expect(live.services.passwords.needsRehash(try #require(try await live.services.store.user(uid: "imp-0")?.passwordHash)))
        }
    }

    // MARK: HTTP

    struct Lanes: CustomStringConvertible {
        var importedRunning = 0
        var importedWaiting = 0
        var nativeRunning = 0
        var nativeWaiting = 0
        var description: String {
            "imported running \(importedRunning) waiting \(importedWaiting), native running \(nativeRunning) waiting \(nativeWaiting)"
        }
    }

    /// The lanes' gauges as `/metrics` shows them.
    static func lanes(_ live: LiveHearth) async throws -> Lanes {
        var request = HTTPClientRequest(url: live.baseURL + "/metrics")
        request.headers.add(name: "Authorization", value: "Bearer owner")
        let response = try await HTTPClient.shared.execute(request, timeout: .seconds(60))
        let text = String(buffer: try await response.body.collect(upTo: 4 << 20))
        func value(_ series: String) -> Int {
            guard let line = text.split(separator: "\n").first(where: { $0.hasPrefix(series + " ") }),
                let number = line.split(separator: " ").last.flatMap({ Double($0) })
            else { return -1 }
            return Int(number)
        }
        return Lanes(
            importedRunning: value(#"hearth_password_checks_running{lane="imported"}"#),
            importedWaiting: value(#"hearth_password_checks_waiting{lane="imported"}"#),
            nativeRunning: value(#"hearth_password_checks_running{lane="native"}"#),
            nativeWaiting: value(#"hearth_password_checks_waiting{lane="native"}"#))
    }

    static func post(_ live: LiveHearth, _ path: String, _ json: String) async throws -> (status: Int, json: [String: Any]) {
        var request = HTTPClientRequest(url: live.baseURL + path)
        request.method = .POST
        request.headers.add(name: "Content-Type", value: "application/json")
        if path.contains("/projects/") { request.headers.add(name: "Authorization", value: "Bearer owner") }
        request.body = .bytes(ByteBuffer(string: json))
        let response = try await HTTPClient.shared.execute(request, timeout: .seconds(120))
        let body = try await response.body.collect(upTo: 4 << 20)
        let object = (try? JSONSerialization.jsonObject(with: Data(body.readableBytesView))) as? [String: Any] ?? [:]
        return (Int(response.status.code), object)
    }
}
