import Foundation
import HearthConfiguration
import HearthCore
import HearthPostgresLauncher
import HearthServer
import HearthTesting
import HearthTokens
import Testing

#if canImport(Glibc)
import Glibc
#endif

/// `hearth admin create-key|list-keys|delete-key`, the real binary, and scripts/admin-sdk-check.sh: Google's
/// google-auth and firebase-admin from PyPI against a live production-mode server with the key's file.
@Suite("hearth admin keys and the Python Admin SDK against a live server")
struct AdminSDKScriptTests {
    static let project = "hearth-sdk-check"
    static let apiKey = "admin-sdk-check-api-key"
    static let repository = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()

    /// Runs `arguments` to its end (at most `timeout`) with `environment` added; the exit status and both outputs.
    static func run(_ arguments: [String], environment: [String: String] = [:], timeout: TimeInterval) async throws
        -> (status: Int32, output: String)
    {
        let log = FileManager.default.temporaryDirectory.appendingPathComponent("hearth-script-\(UUID().uuidString).log")
        defer { try? FileManager.default.removeItem(at: log) }
        // The server's settings stay out; the Python environment's place (.ci/run gives a fresh one) goes through.
        var env = ProcessInfo.processInfo.environment.filter { !$0.key.hasPrefix("HEARTH_") || $0.key == "HEARTH_PYTHON_VENV" }
        env.merge(environment) { $1 }
        let child = try ChildProcess.start(arguments, environment: env, output: log, errorOutput: log)
        guard let status = try await child.wait(timeout: timeout) else {
            child.send(SIGKILL)
            _ = try await child.wait(timeout: 5)
            throw HarnessError("\(arguments.joined(separator: " ")) did not finish within \(timeout) s")
        }
        return (status, (try? String(contentsOf: log, encoding: .utf8)) ?? "")
    }

    /// `hearth admin …` on the live server's database (its PostgreSQL database on that backend).
    static func hearthAdmin(_ live: LiveHearth, _ arguments: [String]) async throws -> HearthProcess.CommandResult {
        var environment: [String: String] = [:]
        if let url = try await TestDatabase.url(forDataDirectory: live.directory.path) { environment["HEARTH_DATABASE_URL"] = url }
        return try await HearthProcess.run(
            ["admin"] + arguments + ["--data-dir", live.directory.path, "--project", project, "--port", String(live.port)],
            environment: environment)
    }

    /// A production-mode server whose clock starts at the real time: the Python libraries sign with theirs.
    static func withProductionHearth(_ body: (LiveHearth) async throws -> Void) async throws {
        let configure: (inout ServerConfiguration) -> Void = { configuration in
            configuration.mode = .production
            configuration.projectID = project
            configuration.apiKeys = [apiKey]
            configuration.secrets.key = KeyEncryptionKey.generate().base64
        }
        try await withLiveHearth(clock: ManualClock(Date()), configure) { live in
            // On PostgreSQL nothing made the data directory; the key files go there.
            try PrivateFiles.createDirectory(atPath: live.directory.path)
            try await followingRealTime(live.clock) { try await body(live) }
        }
    }

    /// Runs `body` while `clock` keeps up with the real time: the Python libraries and the command-line tool sign
    /// assertions with the machine's clock, which a server clock frozen at its start falls behind of on a loaded
    /// machine ("The assertion is issued in the future").
    static func followingRealTime<T>(_ clock: ManualClock, _ body: () async throws -> T) async throws -> T {
        let ticker = Task {
            while !Task.isCancelled {
                clock.set(Date())
                try? await Task.sleep(for: .milliseconds(100))
            }
        }
        defer { ticker.cancel() }
        return try await body()
    }

    @Test("create-key writes a 0600 file and stores the public key; list-keys and delete-key; bad names and ids refused")
    func commands() async throws {
        try await Self.withProductionHearth { live in
            let file = live.directory.appendingPathComponent("key.json")
            let created = try await Self.hearthAdmin(live, ["create-key", "--name", "ci-admin", "--out", file.path])
            #expect(created.status == 0, "\(created.standardError)")
            #expect(PrivateFiles.mode(ofPath: file.path) == 0o600)
            let text = try String(contentsOf: file, encoding: .utf8)
            let json = try #require(JSONValue.object(fromJSON: text))
            #expect(json["client_email"] == .string("ci-admin@\(Self.project).iam.hearth.local"))
            #expect(json["token_uri"] == .string("\(live.baseURL)/oauth2/v4/token"))
            guard case .string(let keyID)? = json["private_key_id"] else { throw HarnessError("no private_key_id in \(text)") }
            #expect(!created.standardOutput.contains("PRIVATE KEY"))
            #expect(!created.standardError.contains("PRIVATE KEY"))
            #expect(
                try await ServiceAccountKeys(store: live.services.store).key(id: keyID)?.clientEmail == "ci-admin@\(Self.project).iam.hearth.local")

            let again = try await Self.hearthAdmin(live, ["create-key", "--out", file.path])
            #expect(again.status == 2)
            #expect(again.standardError.contains("exists"))
            let badName = try await Self.hearthAdmin(live, ["create-key", "--name", "Bad_Name"])
            #expect(badName.status != 0)
            #expect(badName.standardError.contains("--name"))

            let listed = try await Self.hearthAdmin(live, ["list-keys"])
            #expect(listed.status == 0)
            #expect(listed.standardOutput.hasPrefix("\(keyID)  ci-admin@\(Self.project).iam.hearth.local  "), "\(listed.standardOutput)")

            let deleted = try await Self.hearthAdmin(live, ["delete-key", keyID])
            #expect(deleted.status == 0, "\(deleted.standardError)")
            #expect(try await ServiceAccountKeys(store: live.services.store).key(id: keyID) == nil)
            let missing = try await Self.hearthAdmin(live, ["delete-key", keyID])
            #expect(missing.status == 1)
            #expect(missing.standardError == "hearth: no service-account key \(keyID)\n")
            #expect(try await Self.hearthAdmin(live, ["list-keys"]).standardOutput.hasPrefix("no service-account keys"))
        }
    }

    @Test("google-auth and firebase-admin from PyPI: a token from Hearth, an admin call, a custom token that signs in")
    func pythonAdminSDK() async throws {
        let venv = try await Self.run(["/usr/bin/env", "python3", "-c", "import venv, ensurepip"], timeout: 60)
        if venv.status != 0 { try Test.cancel("python3 -m venv is missing (python3 with venv and ensurepip): \(venv.output)") }
        try await Self.withProductionHearth { live in
            let file = live.directory.appendingPathComponent("sdk-check.json")
            let created = try await Self.hearthAdmin(live, ["create-key", "--name", "sdk-check", "--out", file.path])
            try #require(created.status == 0, "\(created.standardError)")
            let script = Self.repository.appendingPathComponent("scripts/admin-sdk-check.sh").path
            let result = try await Self.run(
                ["/bin/bash", script],
                environment: ["GOOGLE_APPLICATION_CREDENTIALS": file.path, "HEARTH_URL": live.baseURL, "HEARTH_API_KEY": Self.apiKey],
                timeout: 900)
            #expect(result.status == 0, "\(result.output)")
            #expect(result.output.contains("all checks passed"), "\(result.output)")
            #expect(try await live.services.store.user(uid: "admin-sdk-check-user") != nil)
        }
    }

    @Test("the official firebase-admin Python SDK in emulator mode (Bearer owner) against development mode: every user-management call")
    func firebaseAdminEmulator() async throws {
        let venv = try await Self.run(["/usr/bin/env", "python3", "-c", "import venv, ensurepip"], timeout: 60)
        if venv.status != 0 { try Test.cancel("python3 -m venv is missing (python3 with venv and ensurepip): \(venv.output)") }
        // The SDK checks token times against the real clock.
        try await withLiveHearth(clock: ManualClock(Date())) { live in
            try await Self.followingRealTime(live.clock) {
                let script = Self.repository.appendingPathComponent("scripts/firebase-admin-emulator.sh").path
                let host = String(live.baseURL.dropFirst("http://".count))
                let result = try await Self.run(
                    ["/bin/bash", script], environment: ["FIREBASE_AUTH_EMULATOR_HOST": host, "HEARTH_PROJECT": live.projectID], timeout: 900)
                #expect(result.status == 0, "\(result.output)")
                #expect(result.output.contains("all checks passed"), "\(result.output)")
            }
        }
    }

    @Test("scripts/python-venv.sh run three times at once from nothing builds the venv once; a half-built one is rebuilt")
    func venvFromScratch() async throws {
        let venv = try await Self.run(["/usr/bin/env", "python3", "-c", "import venv, ensurepip"], timeout: 60)
        if venv.status != 0 { try Test.cancel("python3 -m venv is missing (python3 with venv and ensurepip): \(venv.output)") }
        let cache = FileManager.default.temporaryDirectory.appendingPathComponent("hearth-venv-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: cache) }
        let place = cache.appendingPathComponent("python/venv").path
        let script = Self.repository.appendingPathComponent("scripts/python-venv.sh").path
        let runs = try await withThrowingTaskGroup(of: (status: Int32, output: String).self) { group in
            for _ in 0..<3 {
                group.addTask {
                    try await Self.run(["/bin/bash", script, "python-packages.py"], environment: ["HEARTH_PYTHON_VENV": place], timeout: 900)
                }
            }
            return try await group.reduce(into: []) { $0.append($1) }
        }
        for run in runs {
            #expect(run.status == 0, "\(run.output)")
            #expect(run.output.contains("google-auth ") && run.output.contains("firebase-admin "), "\(run.output)")
        }
        // One venv and its lock, no building folder left behind.
        let left = try FileManager.default.contentsOfDirectory(atPath: cache.appendingPathComponent("python").path).sorted()
        #expect(left == ["venv", "venv.lock"])

        // A build that died half way (no list of packages) is never taken for a finished one.
        try FileManager.default.removeItem(atPath: place + "/.hearth-packages")
        try FileManager.default.removeItem(atPath: place + "/bin")
        let again = try await Self.run(["/bin/bash", script, "python-packages.py"], environment: ["HEARTH_PYTHON_VENV": place], timeout: 900)
        #expect(again.status == 0, "\(again.output)")
        #expect(FileManager.default.fileExists(atPath: place + "/.hearth-packages"))
    }
}
