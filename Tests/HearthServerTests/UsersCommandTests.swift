import Foundation
import HearthCore
import HearthServer
import HearthTesting
import HearthWire
import Testing

/// `hearth users …`, the real binary: on a database directly, and against a running server with `Bearer owner`
/// (development) or a service-account file (production); export and import of Firebase CLI files.
@Suite("hearth users, the real binary")
struct UsersCommandTests {
    static func directory() throws -> URL {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("hearth-users-\(UUID().uuidString)")
        try PrivateFiles.createDirectory(atPath: directory.path)
        return directory
    }

    /// `hearth users ARGUMENTS` on the development-mode database in `directory`.
    static func users(_ directory: URL, _ arguments: [String]) async throws -> HearthProcess.CommandResult {
        try await HearthProcess.run(["users"] + arguments + ["--data-dir", directory.path], environment: ["HEARTH_PASSWORDS_SCRYPT_LOG_N": "4"])
    }

    @Test("on the database directly: create, get, list, update, claims, disable, enable, revoke, delete; errors exit 1 with the Admin SDK's code")
    func directly() async throws {
        let directory = try Self.directory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let passwordFile = directory.appendingPathComponent("password")
        try "analytical\n".write(to: passwordFile, atomically: true, encoding: .utf8)

        let created = try await Self.users(
            directory, ["create", "--uid", "ada", "--email", "Ada@Example.com", "--password-file", passwordFile.path, "--display-name", "Ada"])
        #expect(created.status == 0, "\(created.standardError)")
        #expect(created.standardOutput == "ada\n")
        #expect(try await Self.users(directory, ["create", "--uid", "bob"]).status == 0)

        let listed = try await Self.users(directory, ["list"])
        #expect(listed.standardOutput == "ada\tada@example.com\t\nbob\t-\t\n", "\(listed.standardError)")
        #expect(listed.standardError.hasSuffix("2 user(s)\n"))

        #expect(try await Self.users(directory, ["set-claims", "ada", #"{"admin":true}"#]).status == 0)
        #expect(try await Self.users(directory, ["update", "ada", "--phone", "+15555550100", "--email-verified", "true"]).status == 0)
        #expect(try await Self.users(directory, ["disable", "ada"]).standardOutput == "disabled ada\n")
        let shown = try await Self.users(directory, ["get", "--email", "ada@example.com"])
        #expect(shown.standardOutput.contains("disabled:       true"), "\(shown.standardOutput)")
        #expect(shown.standardOutput.contains("ada@example.com (verified)"))
        #expect(shown.standardOutput.contains(#"custom claims:  {"admin":true}"#))
        #expect(shown.standardOutput.contains("phone:          +15555550100"))
        #expect(try await Self.users(directory, ["enable", "ada"]).standardOutput == "enabled ada\n")
        #expect(try await Self.users(directory, ["revoke", "ada"]).standardOutput == "revoked the sessions of ada\n")

        let reserved = try await Self.users(directory, ["set-claims", "ada", #"{"sub":"x"}"#])
        #expect(reserved.status == 1)
        #expect(reserved.standardError == "hearth: auth/reserved-claim: \"sub\" is a reserved claim name.\n", "\(reserved.standardError)")
        let missing = try await Self.users(directory, ["get", "nobody"])
        #expect(missing.status == 1 && missing.standardError.hasPrefix("hearth: auth/user-not-found"), "\(missing.standardError)")
        let notJSON = try await Self.users(directory, ["set-claims", "ada", "[1]"])
        #expect(notJSON.status == 2 && notJSON.standardError == "hearth: the claims must be a JSON object\n")

        #expect(try await Self.users(directory, ["delete", "bob"]).standardOutput == "deleted bob\n")
        #expect(try await Self.users(directory, ["list"]).standardOutput == "ada\tada@example.com\tverified,claims,phone\n")

        // The user signs in on a server opened on that database afterwards.
        let hearth = try await TestHearth.make(directory: directory) {
            $0.dataDirectory = directory.path
            $0.sqlitePath = directory.appendingPathComponent("hearth.sqlite").path
        }
        defer { Task { try? await hearth.close() } }
        try await hearth.withClient { client in
            let signedIn = try await client.post(
                "/v1/accounts:signInWithPassword", ["email": .string("ada@example.com"), "password": .string("analytical")])
            #expect(signedIn.string("localId") == "ada", "\(signedIn.text)")
        }
    }

    @Test(
        "phone numbers: create --phone, get --phone, list and get show it, update --phone '' removes it with its provider, an import file's number is exported; errors exit 1 with the Admin SDK's code"
    )
    func phoneNumbers() async throws {
        let directory = try Self.directory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let created = try await Self.users(directory, ["create", "--uid", "grace", "--phone", "+15555550110"])
        #expect(created.status == 0 && created.standardOutput == "grace\n", "\(created.standardError)")

        let shown = try await Self.users(directory, ["get", "--phone", "+15555550110"])
        #expect(shown.status == 0, "\(shown.standardError)")
        #expect(shown.standardOutput.hasPrefix("uid:            grace\n"), "\(shown.standardOutput)")
        #expect(shown.standardOutput.contains("phone:          +15555550110\n"))
        #expect(shown.standardOutput.contains("providers:      phone (+15555550110)\n"), "\(shown.standardOutput)")
        #expect(try await Self.users(directory, ["get", "grace"]).standardOutput == shown.standardOutput)
        #expect(try await Self.users(directory, ["list"]).standardOutput == "grace\t-\tphone\n")

        let taken = try await Self.users(directory, ["create", "--uid", "alan", "--phone", "+15555550110"])
        #expect(taken.status == 1)
        #expect(taken.standardError == "hearth: auth/phone-number-already-exists: PHONE_NUMBER_EXISTS\n", "\(taken.standardError)")
        let malformed = try await Self.users(directory, ["update", "grace", "--phone", "555-0110"])
        #expect(malformed.status == 1)
        #expect(
            malformed.standardError == "hearth: auth/invalid-phone-number: INVALID_PHONE_NUMBER : Invalid format.\n", "\(malformed.standardError)")
        let badLookup = try await Self.users(directory, ["get", "--phone", "555-0110"])
        #expect(badLookup.status == 1)
        #expect(
            badLookup.standardError
                == "hearth: auth/invalid-phone-number: The phone number must be a non-empty E.164 standard compliant identifier string.\n",
            "\(badLookup.standardError)")
        let nobody = try await Self.users(directory, ["get", "--phone", "+15555550119"])
        #expect(nobody.status == 1 && nobody.standardError.hasPrefix("hearth: auth/user-not-found"), "\(nobody.standardError)")
        let both = try await Self.users(directory, ["get", "grace", "--phone", "+15555550110"])
        #expect(both.status != 0 && both.standardError.contains("give one of a uid, --email or --phone"), "\(both.standardError)")

        #expect(try await Self.users(directory, ["update", "grace", "--phone", ""]).status == 0)
        let removed = try await Self.users(directory, ["get", "grace"])
        #expect(
            removed.standardOutput.contains("phone:          -\n") && removed.standardOutput.contains("providers:      \n"),
            "\(removed.standardOutput)")
        #expect(try await Self.users(directory, ["list"]).standardOutput == "grace\t-\t\n")

        let file = directory.appendingPathComponent("phones.json")
        try #"{"users":[{"localId":"imported","phoneNumber":"+15555550111"}]}"#.write(to: file, atomically: true, encoding: .utf8)
        let imported = try await Self.users(directory, ["import", file.path])
        #expect(imported.status == 0 && imported.standardOutput == "imported 1 of 1 user(s)\n", "\(imported.standardError)")
        #expect(try await Self.users(directory, ["get", "--phone", "+15555550111"]).standardOutput.contains("uid:            imported\n"))
        let exportFile = directory.appendingPathComponent("export.json")
        #expect(try await Self.users(directory, ["export", exportFile.path]).status == 0)
        let export = try JSONDecoder().decode(AuthExportFile.self, from: Data(contentsOf: exportFile))
        #expect(export.users.first { $0.localId == "imported" }?.phoneNumber == "+15555550111")
        #expect(export.users.first { $0.localId == "grace" }?.phoneNumber == nil)
    }

    @Test(
        "second factors: get lists them (numbers masked), mfa remove --enrollment removes one and --all the rest, an unknown id exits 1; export writes phone factors as mfaInfo unless --without-second-factors"
    )
    func secondFactors() async throws {
        let directory = try Self.directory()
        defer { try? FileManager.default.removeItem(at: directory) }
        #expect(try await Self.users(directory, ["create", "--uid", "ada", "--email", "ada@example.com", "--email-verified"]).status == 0)
        let hearth = try await TestHearth.make(directory: directory) {
            $0.dataDirectory = directory.path
            $0.sqlitePath = directory.appendingPathComponent("hearth.sqlite").path
        }
        let enrolled = Date(timeIntervalSince1970: 1_577_934_245)
        try await hearth.services.store.updateUser(uid: "ada", session: nil) {
            $0.secondFactors = [
                SecondFactorEnrollment(id: "p1", displayName: "Work", enrolledAt: enrolled, factor: .phone("+15555550100")),
                SecondFactorEnrollment(id: "t1", displayName: nil, enrolledAt: enrolled, factor: .totp(sealedSecret: "SEALED")),
            ]
            $0.recoveryCodeHashes = ["hash"]
        }
        try await hearth.close()

        let shown = try await Self.users(directory, ["get", "ada"])
        #expect(
            shown.standardOutput.hasSuffix(
                "second factors: 2\n  p1  phone  Work  +*******0100  2020-01-02T03:04:05Z\n  t1  totp  -  -  2020-01-02T03:04:05Z\n"),
            "\(shown.standardOutput)")
        #expect(!shown.standardOutput.contains("5555550100"))
        #expect(try await Self.users(directory, ["list"]).standardOutput == "ada\tada@example.com\tverified,mfa\n")

        let file = directory.appendingPathComponent("users.json").path
        #expect(try await Self.users(directory, ["export", file]).status == 0)
        let exported = try String(contentsOfFile: file, encoding: .utf8)
        #expect(exported.contains(#""phoneInfo" : "+15555550100""#) && !exported.contains("totpInfo") && !exported.contains("SEALED"), "\(exported)")
        #expect(try await Self.users(directory, ["export", "--without-second-factors", file]).status == 0)
        #expect(try !String(contentsOfFile: file, encoding: .utf8).contains("mfaInfo"))

        let unknown = try await Self.users(directory, ["mfa", "remove", "ada", "--enrollment", "nope"])
        #expect(unknown.status == 1)
        #expect(unknown.standardError == "hearth: auth/multi-factor-info-not-found: ada has no second factor nope.\n", "\(unknown.standardError)")
        #expect(try await Self.users(directory, ["mfa", "remove", "ada"]).status != 0)

        let one = try await Self.users(directory, ["mfa", "remove", "ada", "--enrollment", "p1"])
        #expect(one.standardOutput == "removed 1 second factor(s) of ada; 1 left\n", "\(one.standardError)")
        #expect(
            try await Self.users(directory, ["get", "ada"]).standardOutput.hasSuffix("second factors: 1\n  t1  totp  -  -  2020-01-02T03:04:05Z\n"))
        let all = try await Self.users(directory, ["mfa", "remove", "ada", "--all"])
        #expect(all.standardOutput == "removed 1 second factor(s) of ada; 0 left\n", "\(all.standardError)")
        #expect(try await Self.users(directory, ["get", "ada"]).standardOutput.hasSuffix("second factors: -\n"))

        let reopened = try await TestHearth.make(directory: directory) {
            $0.dataDirectory = directory.path
            $0.sqlitePath = directory.appendingPathComponent("hearth.sqlite").path
        }
        defer { Task { try? await reopened.close() } }
        let user = try #require(try await reopened.services.store.user(uid: "ada"))
        #expect(user.secondFactors.isEmpty && user.recoveryCodeHashes.isEmpty)
    }

    @Test("export to JSON and CSV (mode 0600) and import into another database with the printed options: the passwords still sign in")
    func exportAndImport() async throws {
        let source = try Self.directory()
        let target = try Self.directory()
        defer {
            try? FileManager.default.removeItem(at: source)
            try? FileManager.default.removeItem(at: target)
        }
        let passwordFile = source.appendingPathComponent("password")
        try "builder-1".write(to: passwordFile, atomically: true, encoding: .utf8)
        for uid in ["u1", "u2", "u3"] {
            let made = try await Self.users(source, ["create", "--uid", uid, "--email", "\(uid)@example.com", "--password-file", passwordFile.path])
            #expect(made.status == 0, "\(made.standardError)")
        }
        for format in ["json", "csv"] {
            let file = source.appendingPathComponent("users.\(format)")
            let exported = try await Self.users(source, ["export", file.path])
            #expect(exported.status == 0, "\(exported.standardError)")
            #expect(exported.standardOutput.hasPrefix("exported 3 user(s) to \(file.path) (\(format)); 3 with a password hash\n"))
            #expect(PrivateFiles.mode(ofPath: file.path) == 0o600)
            let options = try #require(exported.standardOutput.split(separator: "\n").last?.split(separator: ": ", maxSplits: 1).last)
            // The tool runs at scrypt's cheapest cost here (log N = 4, as HEARTH_PASSWORDS_SCRYPT_LOG_N says).
            #expect(options == "--hash-algo STANDARD_SCRYPT --mem-cost 16 --block-size 8 --parallelization 1 --dk-len 32")

            let into = target.appendingPathComponent(format)
            let imported = try await Self.users(into, ["import", file.path] + options.split(separator: " ").map(String.init))
            #expect(imported.status == 0, "\(imported.standardError)")
            #expect(imported.standardOutput == "imported 3 of 3 user(s)\n")
            #expect(imported.standardError.contains("[##############################] 3/3"))

            let hearth = try await TestHearth.make(directory: into) {
                $0.dataDirectory = into.path
                $0.sqlitePath = into.appendingPathComponent("hearth.sqlite").path
            }
            defer { Task { try? await hearth.close() } }
            try await hearth.withClient { client in
                let signedIn = try await client.post(
                    "/v1/accounts:signInWithPassword", ["email": .string("u2@example.com"), "password": .string("builder-1")])
                #expect(signedIn.string("localId") == "u2", "\(signedIn.text)")
            }
            try await hearth.close()
        }

        // Failures are listed by uid, the rest imported; a file that is not an export is refused before anything is sent.
        let mixed = source.appendingPathComponent("mixed.json")
        try #"{"users":[{"localId":"n1","email":"fresh@example.com"},{"localId":"n2","email":"not an e-mail"}]}"#.write(
            to: mixed, atomically: true, encoding: .utf8)
        let partly = try await Self.users(target.appendingPathComponent("json"), ["import", mixed.path])
        #expect(partly.status == 1)
        #expect(partly.standardError.contains("  n2: email is invalid"), "\(partly.standardError)")
        #expect(partly.standardOutput == "imported 1 of 2 user(s); 1 failed (listed above)\n")
        let broken = source.appendingPathComponent("broken.json")
        try #"{"users":[{"email":"x@example.com"}]}"#.write(to: broken, atomically: true, encoding: .utf8)
        let refused = try await Self.users(target.appendingPathComponent("json"), ["import", broken.path])
        #expect(refused.status != 0 && refused.standardError.contains("users.0.localId is missing"), "\(refused.standardError)")
        // The whole file is read through first: a defect after the users refuses them all.
        let trailing = source.appendingPathComponent("trailing.json")
        try #"{"users":[{"localId":"t1"}]} and more"#.write(to: trailing, atomically: true, encoding: .utf8)
        let late = try await Self.users(target.appendingPathComponent("json"), ["import", trailing.path])
        #expect(late.status != 0 && late.standardError.contains("it is not JSON"), "\(late.standardError)")
        #expect(try await Self.users(target.appendingPathComponent("json"), ["get", "t1"]).status != 0)
    }

    @Test("against a running server: Bearer owner in development, a service-account file in production, a wrong credential refused")
    func remote() async throws {
        try await withLiveHearth(clock: ManualClock(Date())) { live in
            let made = try await HearthProcess.run(["users", "create", "--uid", "remote-1", "--server", live.baseURL])
            #expect(made.status == 0, "\(made.standardError)")
            #expect(try await live.services.store.user(uid: "remote-1") != nil)
        }
        try await AdminSDKScriptTests.withProductionHearth { live in
            let file = live.directory.appendingPathComponent("users-cli.json")
            let key = try await AdminSDKScriptTests.hearthAdmin(live, ["create-key", "--name", "users-cli", "--out", file.path])
            try #require(key.status == 0, "\(key.standardError)")
            let made = try await HearthProcess.run(["users", "create", "--uid", "prod-1", "--server", live.baseURL, "--credentials", file.path])
            #expect(made.status == 0, "\(made.standardError)")
            let listed = try await HearthProcess.run(["users", "list", "--server", live.baseURL, "--credentials", file.path])
            #expect(listed.standardOutput.contains("prod-1\t-\t"), "\(listed.standardError)")
            let owner = try await HearthProcess.run(["users", "list", "--server", live.baseURL, "--project", AdminSDKScriptTests.project])
            #expect(owner.status == 1, "\(owner.standardOutput)")
            #expect(owner.standardError.contains("refused the credential"), "\(owner.standardError)")
        }
    }
}
