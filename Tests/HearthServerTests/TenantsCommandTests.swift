import Foundation
import HearthCore
import HearthServer
import HearthTesting
import HearthWire
import Testing

/// `hearth tenants …` and `hearth users … --tenant`, the real binary: on a database directly and against a running
/// server.
@Suite("hearth tenants and hearth users --tenant, the real binary")
struct TenantsCommandTests {
    /// `hearth tenants|users ARGUMENTS` on the development-mode database in `directory`.
    static func hearth(_ directory: URL, _ arguments: [String]) async throws -> HearthProcess.CommandResult {
        try await HearthProcess.run(arguments + ["--data-dir", directory.path], environment: ["HEARTH_PASSWORDS_SCRYPT_LOG_N": "4"])
    }

    @Test("on the database directly: create, list, get, update, delete tenants; users create, list, get, set-claims in one; errors exit 1")
    func directly() async throws {
        let directory = try UsersCommandTests.directory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let passwordFile = directory.appendingPathComponent("password")
        try "correct horse\n".write(to: passwordFile, atomically: true, encoding: .utf8)

        let created = try await Self.hearth(directory, ["tenants", "create", "--display-name", "Acme", "--allow-password-sign-up"])
        #expect(created.status == 0, "\(created.standardError)")
        let acme = created.standardOutput.trimmingCharacters(in: .newlines)
        #expect(acme.hasPrefix("acme-") && acme.count == 10, "\(created.standardOutput)")
        let globex = try await Self.hearth(directory, ["tenants", "create", "--display-name", "Globex"]).standardOutput
            .trimmingCharacters(in: .newlines)
        let refused = try await Self.hearth(directory, ["tenants", "create", "--display-name", "1x"])
        #expect(refused.status == 1 && refused.standardError.hasPrefix("hearth: auth/argument-error: "), "\(refused.standardError)")

        let listed = try await Self.hearth(directory, ["tenants", "list"])
        #expect(listed.standardOutput == [acme, globex].sorted().map { $0 == acme ? "\(acme)\tAcme\tpassword\n" : "\(globex)\tGlobex\t\n" }.joined())
        #expect(listed.standardError.hasSuffix("2 tenant(s)\n"))
        let updated = try await Self.hearth(
            directory, ["tenants", "update", acme, "--display-name", "Acme-Two", "--enable-anonymous-user", "true"])
        #expect(updated.status == 0, "\(updated.standardError)")
        #expect(updated.standardOutput.contains("display name:        Acme-Two"), "\(updated.standardOutput)")
        let shown = try await Self.hearth(directory, ["tenants", "get", acme]).standardOutput
        #expect(shown.contains("anonymous users:     true") && shown.contains("password sign-up:    true"), "\(shown)")
        #expect(try await Self.hearth(directory, ["tenants", "update", acme]).status != 0, "nothing to change")

        // A tenant's users, apart from the project's.
        let ada = try await Self.hearth(
            directory, ["users", "create", "--tenant", acme, "--uid", "ada", "--email", "ada@example.com", "--password-file", passwordFile.path])
        #expect(ada.status == 0 && ada.standardOutput == "ada\n", "\(ada.standardError)")
        #expect(try await Self.hearth(directory, ["users", "set-claims", "ada", #"{"admin":true}"#, "--tenant", acme]).status == 0)
        #expect(try await Self.hearth(directory, ["users", "list", "--tenant", acme]).standardOutput == "ada\tada@example.com\tclaims\n")
        #expect(try await Self.hearth(directory, ["users", "list"]).standardOutput == "")
        let got = try await Self.hearth(directory, ["users", "get", "--tenant", acme, "--email", "ada@example.com"])
        #expect(got.standardOutput.contains("uid:            ada"), "\(got.standardError)")
        let elsewhere = try await Self.hearth(directory, ["users", "get", "ada", "--tenant", globex])
        #expect(elsewhere.status == 1 && elsewhere.standardError.hasPrefix("hearth: auth/user-not-found"), "\(elsewhere.standardError)")
        let unknown = try await Self.hearth(directory, ["users", "list", "--tenant", "nobody-12345"])
        #expect(unknown.status == 1 && unknown.standardError.hasPrefix("hearth: auth/tenant-not-found"), "\(unknown.standardError)")

        #expect(try await Self.hearth(directory, ["tenants", "delete", globex]).standardOutput == "deleted \(globex)\n")
        let gone = try await Self.hearth(directory, ["tenants", "get", globex])
        #expect(gone.status == 1 && gone.standardError.hasPrefix("hearth: auth/tenant-not-found"), "\(gone.standardError)")

        // The tenant's user signs in, naming the tenant, on a server opened on that database afterwards.
        let hearth = try await TestHearth.make(directory: directory) {
            $0.dataDirectory = directory.path
            $0.sqlitePath = directory.appendingPathComponent("hearth.sqlite").path
        }
        defer { Task { try? await hearth.close() } }
        try await hearth.withClient { client in
            let signedIn = try await client.post(
                "/v1/accounts:signInWithPassword",
                ["email": .string("ada@example.com"), "password": .string("correct horse"), "tenantId": .string(acme)])
            #expect(signedIn.string("localId") == "ada", "\(signedIn.text)")
            let project = try await client.post(
                "/v1/accounts:signInWithPassword", ["email": .string("ada@example.com"), "password": .string("correct horse")])
            #expect(project.status != .ok)
        }
    }

    @Test("against a running server (Bearer owner): tenants create and list, users --tenant")
    func remotely() async throws {
        try await withLiveHearth { live in
            let created = try await HearthProcess.run(["tenants", "create", "--display-name", "Initech", "--server", live.baseURL])
            #expect(created.status == 0, "\(created.standardError)")
            let tenant = created.standardOutput.trimmingCharacters(in: .newlines)
            let made = try await HearthProcess.run(["users", "create", "--uid", "peter", "--tenant", tenant, "--server", live.baseURL])
            #expect(made.status == 0, "\(made.standardError)")
            let listed = try await HearthProcess.run(["tenants", "list", "--server", live.baseURL])
            #expect(listed.standardOutput == "\(tenant)\tInitech\t\n", "\(listed.standardError)")
            #expect(try await HearthProcess.run(["users", "get", "peter", "--tenant", tenant, "--server", live.baseURL]).status == 0)
            #expect(try await HearthProcess.run(["users", "get", "peter", "--server", live.baseURL]).status == 1)
            #expect(try await live.services.store.user(uid: "peter") == nil)
        }
    }
}
