import Foundation
import HearthSandbox
import HearthTesting
import Testing

/// The seeds' C++ snippets (000: Firebase 11 and later; 002: the older API) as programs built by SwiftPM
/// (Tests/CppSeeds), run against a live server with the sandbox's providers: the steps of the guides, the
/// error paths, the rest of the C++ API, a restart that finds the user signed in, and a stopped server.
@Suite(.serialized) struct CppSeedTests {
    @Test("the C++ snippets of seed 000 (Firebase 11+) and 002 (Firebase 10): every step, a restart, a stopped server", arguments: ["000", "002"])
    func seed(_ number: String) async throws {
        let program = try Self.executable("hearth-cpp-seed-\(number)")
        let home = FileManager.default.temporaryDirectory.appendingPathComponent("hearth-cpp-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: home) }
        let live = try await LiveHearth.start()
        // The programs wait real seconds for the server's clock to move (a forced refresh in a later second gives a
        // new token: the same claims in the same second are the same bytes), so the test server's clock ticks with
        // real time while they run.
        let ticking = Task {
            while !Task.isCancelled {
                try? await Task.sleep(for: .seconds(1))
                live.clock.advance(by: 1)
            }
        }
        defer { ticking.cancel() }
        do {
            var environment = try Self.environment(live, home: home)

            let run = try await CppProgram.run(program, ["seed"], environment: environment)
            #expect(run.status == 0, "\(run.output)")
            #expect(!run.output.contains("FAIL"), "\(run.output)")
            #expect(run.output.contains("all passed"), "\(run.output)")
            let uid = try #require(run.output.split(separator: "\n").first { $0.hasPrefix("uid=") }?.dropFirst(4))

            let restart = try await CppProgram.run(program, ["restart", String(uid)], environment: environment)
            #expect(restart.status == 0 && restart.output.contains("all passed"), "\(restart.output)")

            try await live.stop()
            environment["HEARTH_TEST_SANDBOX_SUBJECT"] = nil
            let offline = try await CppProgram.run(program, ["offline"], environment: environment)
            #expect(offline.status == 0 && offline.output.contains("all passed"), "\(offline.output)")
        } catch {
            try? await live.stop()
            throw error
        }
    }

    @Test("the README's C++ example runs against a live server")
    func example() async throws {
        let program = try Self.executable("hearth-cpp-example")
        let home = FileManager.default.temporaryDirectory.appendingPathComponent("hearth-cpp-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: home) }
        try await withLiveHearth { live in
            var environment = ProcessInfo.processInfo.environment
            environment["HEARTH_SERVER_URL"] = live.baseURL
            environment["XDG_DATA_HOME"] = home.path
            let run = try await CppProgram.run(program, [], environment: environment)
            #expect(run.status == 0, "\(run.output)")
            #expect(run.output.contains("linked cpp-") && run.output.contains("anonymous 0, same uid 1"), "\(run.output)")
            #expect(run.output.contains("signed in again with the password: same uid 1"), "\(run.output)")
        }
    }

    /// The program's inputs: the server, the provider tokens an app would get from the providers' SDKs, the
    /// scripted system browser, and a home of its own for the signed-in user.
    static func environment(_ live: LiveHearth, home: URL) throws -> [String: String] {
        let sandbox = live.sandbox
        // An ID token signs in once (Hearth refuses a replayed one): a second token each for reauthenticating.
        let (nonce, nonce2) = ("seed-nonce-\(UUID().uuidString)", "seed-nonce-\(UUID().uuidString)")
        let (relayNonce, relayNonce2) = ("relay-nonce-\(UUID().uuidString)", "relay-nonce-\(UUID().uuidString)")
        let twitter = try sandbox.signInCredential(for: .twitterUser)
        var environment = ProcessInfo.processInfo.environment
        environment.merge([
            "HEARTH_SERVER_URL": live.baseURL, "HEARTH_API_KEY": live.apiKey, "HEARTH_PROJECT_ID": live.projectID,
            "HOME": home.path, "XDG_DATA_HOME": home.appendingPathComponent("data").path,
            "BROWSER": try browserScript(), "HEARTH_TEST_SANDBOX_SUBJECT": SandboxIdentity.appleRelay.subject,
            "SEED_APPLE_NONCE": nonce,
            "SEED_APPLE_TOKEN": try sandbox.appleIDToken(for: .appleAlice, nonce: .raw(nonce)),
            "SEED_APPLE_EXPIRED_TOKEN": try sandbox.appleIDToken(for: .appleAlice, nonce: .raw(nonce), defect: .expired),
            "SEED_APPLE_NONCE_2": nonce2,
            "SEED_APPLE_TOKEN_2": try sandbox.appleIDToken(for: .appleAlice, nonce: .raw(nonce2)),
            "SEED_APPLE_RELAY_NONCE": relayNonce, "SEED_APPLE_RELAY_NONCE_2": relayNonce2,
            "SEED_APPLE_RELAY_TOKEN_2": try sandbox.appleIDToken(for: .appleRelay, nonce: .raw(relayNonce2)),
            "SEED_APPLE_RELAY_TOKEN": try sandbox.appleIDToken(for: .appleRelay, nonce: .raw(relayNonce)),
            "SEED_FACEBOOK_TOKEN": try sandbox.signInCredential(for: .facebookUser).accessToken ?? "",
            "SEED_GOOGLE_ID_TOKEN": try sandbox.signInCredential(for: .googleGmail).idToken ?? "",
            "SEED_MICROSOFT_ID_TOKEN": try sandbox.signInCredential(for: .microsoftPersonal).idToken ?? "",
            "SEED_TWITTER_TOKEN": twitter.accessToken ?? "", "SEED_TWITTER_SECRET": twitter.oauthTokenSecret ?? "",
            "SEED_GITHUB_TOKEN": try sandbox.signInCredential(for: .githubUser).accessToken ?? "",
        ]) { _, new in new }
        return environment
    }

    /// Tests/HearthCppTests/scripted-browser, found from this source file.
    static func browserScript() throws -> String {
        let path = URL(fileURLWithPath: #filePath).deletingLastPathComponent().appendingPathComponent("scripted-browser").path
        guard FileManager.default.isExecutableFile(atPath: path) else { throw HarnessError("\(path) is not executable") }
        return path
    }

    /// A program `swift build` put next to the tests.
    static func executable(_ name: String) throws -> String {
        let beside = URL(fileURLWithPath: CommandLine.arguments[0]).deletingLastPathComponent()
        let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
        let candidates =
            [beside.appendingPathComponent(name).path]
            + [".build/debug", ".build/release"].map {
                root.appendingPathComponent($0).appendingPathComponent(name).path
            }
        guard let path = candidates.first(where: { FileManager.default.isExecutableFile(atPath: $0) }) else {
            throw HarnessError("\(name) was not built (looked in \(candidates))")
        }
        return path
    }
}

/// Runs a program to its end, with its standard output and error together, and a time limit after which it is
/// killed (a hang fails the test instead of stopping the run).
enum CppProgram {
    struct Outcome {
        var status: Int32
        var output: String
    }

    static func run(_ path: String, _ arguments: [String], environment: [String: String], limit: Duration = .seconds(600)) async throws
        -> Outcome
    {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: path)
        process.arguments = arguments
        process.environment = environment
        let log = FileManager.default.temporaryDirectory.appendingPathComponent("hearth-cpp-\(UUID().uuidString).log")
        _ = FileManager.default.createFile(atPath: log.path, contents: nil)
        defer { try? FileManager.default.removeItem(at: log) }
        let handle = try FileHandle(forWritingTo: log)
        process.standardOutput = handle
        process.standardError = handle
        try process.run()
        let deadline = ContinuousClock.now + limit
        while process.isRunning, ContinuousClock.now < deadline {
            try await Task.sleep(for: .milliseconds(100))
        }
        var killed = false
        if process.isRunning {
            process.terminate()
            killed = true
        }
        process.waitUntilExit()
        try handle.close()
        let output = (try? String(contentsOf: log, encoding: .utf8)) ?? ""
        return Outcome(status: killed ? -1 : process.terminationStatus, output: killed ? output + "\n(killed after \(limit))" : output)
    }
}
