import Foundation
import HearthWire
import Testing

/// `hearth audit`, the real binary, on a database directly.
@Suite("hearth audit, the real binary")
struct AuditCommandTests {
    @Test("lists the newest events as tab-separated lines or JSON, filtered by --uid and --kind, up to --limit; bad input is refused")
    func listing() async throws {
        let directory = try UsersCommandTests.directory()
        defer { try? FileManager.default.removeItem(at: directory) }
        #expect(try await UsersCommandTests.users(directory, ["create", "--uid", "ada", "--email", "ada@example.com"]).status == 0)
        #expect(try await UsersCommandTests.users(directory, ["create", "--uid", "bob"]).status == 0)
        #expect(try await UsersCommandTests.users(directory, ["update", "ada", "--display-name", "Ada"]).status == 0)

        let all = try await Self.audit(directory, [])
        #expect(all.status == 0, "\(all.standardError)")
        let rows = all.standardOutput.split(separator: "\n").map { $0.split(separator: "\t", omittingEmptySubsequences: false).map(String.init) }
        #expect(rows.map { $0.count } == [7, 7, 7, 7], "\(all.standardOutput)")
        #expect(rows.map { $0[1] } == ["admin.user_updated", "admin.user_created", "admin.user_created", "keys.rotated"])
        #expect(rows.map { $0[2] } == ["ada", "bob", "ada", "-"])
        // The command's one-time admin token, named by 8 hex digits of its digest.
        #expect(rows.prefix(3).allSatisfy { $0[3].hasPrefix("administrator(token:") && $0[3].count == "administrator(token:12345678)".count })
        #expect(rows.last?[3] == "system")
        #expect(rows.first?[6] == "fields=displayName")
        #expect(rows.last?[6].hasPrefix("activatesAt=") == true && rows.last?[6].contains("trigger=first") == true)
        #expect(rows.allSatisfy { $0[0].hasSuffix("Z") && $0[0].contains("T") })

        let ada = try await Self.audit(directory, ["--uid", "ada"])
        #expect(ada.standardOutput.split(separator: "\n").map { $0.split(separator: "\t")[1] } == ["admin.user_updated", "admin.user_created"])
        let newest = try await Self.audit(directory, ["--kind", "admin.user_created", "--limit", "1"])
        #expect(newest.standardOutput.split(separator: "\n").map { $0.split(separator: "\t")[2] } == ["bob"])

        let json = try await Self.audit(directory, ["--json", "--limit", "2"])
        let decoded = try json.standardOutput.split(separator: "\n").map { try JSONDecoder().decode(AuditEventInfo.self, from: Data($0.utf8)) }
        #expect(decoded.map(\.kind) == ["admin.user_updated", "admin.user_created"])
        #expect(decoded.first?.details == ["fields": "displayName"] && decoded.first?.uid == "ada" && decoded.first?.id.count == 32)

        let badKind = try await Self.audit(directory, ["--kind", "user.hacked"])
        #expect(badKind.status == 1 && badKind.standardError.hasPrefix("hearth: auth/argument-error:"), "\(badKind.standardError)")
        let badLimit = try await Self.audit(directory, ["--limit", "0"])
        #expect(badLimit.status != 0 && badLimit.standardError.contains("--limit must be between 1 and 100000"), "\(badLimit.standardError)")
    }

    static func audit(_ directory: URL, _ arguments: [String]) async throws -> HearthProcess.CommandResult {
        try await HearthProcess.run(["audit"] + arguments + ["--data-dir", directory.path], environment: ["HEARTH_PASSWORDS_SCRYPT_LOG_N": "4"])
    }
}
