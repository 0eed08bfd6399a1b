import AsyncHTTPClient
import Foundation
import HearthCore
import HearthPostgresLauncher
import HearthTesting
import Testing

/// The files in deploy/ that docs/deploying.md installs: systemd accepts the units, and Hearth the example
/// configuration.
@Suite("deploy/: the systemd units and the example configuration")
struct DeploymentFilesTests {
    static let deploy = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .deletingLastPathComponent().appendingPathComponent("deploy")
    static let units = ["hearth.service", "hearth-backup.service", "hearth-backup.timer"]

    static func temporaryDirectory() throws -> URL {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("hearth-deploy-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        return directory
    }

    @Test("systemd-analyze verify accepts the units (with ExecStart pointed at the built hearth)")
    func unitsVerify() async throws {
        let analyze = "/usr/bin/systemd-analyze"
        guard FileManager.default.isExecutableFile(atPath: analyze) else {
            throw HarnessError("this test needs \(analyze) (Debian: apt-get install systemd)")
        }
        let directory = try Self.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        // verify checks that ExecStart's program exists: the copies name the binary the tests built.
        let executable = try HearthProcess.executable()
        for unit in Self.units {
            let text = try String(contentsOf: Self.deploy.appendingPathComponent(unit), encoding: .utf8)
            #expect(unit.hasSuffix(".timer") || text.contains("ExecStart=/usr/local/bin/hearth "), "\(unit) does not start /usr/local/bin/hearth")
            try text.replacingOccurrences(of: "/usr/local/bin/hearth ", with: executable + " ")
                .write(to: directory.appendingPathComponent(unit), atomically: true, encoding: .utf8)
        }
        let output = directory.appendingPathComponent("verify.log")
        let child = try ChildProcess.start(
            [analyze, "verify"] + Self.units.map { directory.appendingPathComponent($0).path }, output: output)
        let status = try await child.wait(timeout: 120)
        let log = (try? String(contentsOf: output, encoding: .utf8)) ?? ""
        #expect(status == 0, "\(log)")
        #expect(log.isEmpty, "systemd-analyze verify complained:\n\(log)")
    }

    @Test("the service's settings: its own user, its reload, its hardening")
    func serviceSettings() throws {
        let lines = Set(
            try String(contentsOf: Self.deploy.appendingPathComponent("hearth.service"), encoding: .utf8)
                .split(separator: "\n").map(String.init))
        for line in [
            "ExecStart=/usr/local/bin/hearth serve --config /etc/hearth/hearth.yaml", "ExecReload=/bin/kill -HUP $MAINPID",
            "DynamicUser=yes", "StateDirectory=hearth", "ConfigurationDirectory=hearth", "NoNewPrivileges=yes", "ProtectSystem=strict",
            "ProtectHome=yes", "PrivateTmp=yes", "PrivateDevices=yes", "CapabilityBoundingSet=", "MemoryDenyWriteExecute=yes",
            "SystemCallFilter=@system-service", "RestrictAddressFamilies=AF_INET AF_INET6 AF_UNIX", "Restart=on-failure",
        ] {
            #expect(lines.contains(line), "hearth.service lacks \(line)")
        }
    }

    @Test("deploy/hearth.yaml starts a production server as the unit runs it, and hearth backup reads it")
    func exampleConfiguration() async throws {
        let directory = try Self.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        // The unit gives the key file through HEARTH_SECRETS_KEY_FILE; the data directory comes from --data-dir.
        let keyFile = directory.appendingPathComponent("secrets.key")
        #expect(try PrivateFiles.createFile(atPath: keyFile.path, contents: Data((KeyEncryptionKey.generate().base64 + "\n").utf8)))
        let configuration = Self.deploy.appendingPathComponent("hearth.yaml").path
        let server = try await HearthProcess.start(
            environment: ["HEARTH_SECRETS_KEY_FILE": keyFile.path], arguments: ["--config", configuration])
        defer { server.stop() }
        let health = try await HTTPClient.shared.execute(HTTPClientRequest(url: server.baseURL + "/healthz"), timeout: .seconds(10))
        #expect(health.status == .ok)
        #expect(server.log.contains("project id : acme-prod"), "\(server.log)")

        let copy = directory.appendingPathComponent("copy.sqlite")
        let backup = try await HearthProcess.run(
            ["backup", "--config", configuration, "--data-dir", server.dataDirectory.path, "--force", copy.path],
            environment: ["HEARTH_SECRETS_KEY_FILE": keyFile.path])
        #expect(backup.status == 0, "\(backup.standardError)")
        #expect(FileManager.default.fileExists(atPath: copy.path))
    }
}
