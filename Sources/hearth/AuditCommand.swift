import ArgumentParser
import Foundation
import HearthAdmin
import HearthWire

/// `hearth audit [--uid UID] [--kind KIND] [--limit N] [--json]`: the newest audit events, through the admin API
/// of a running server or of the database directly (see ``AdminConnectionOptions``).
struct AuditCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "audit",
        abstract: "Show the newest audit events (sign-ups, sign-ins, failed sign-ins, account and settings changes, key rotations).",
        discussion: """
            One event a line, newest first: time, kind, uid, actor, method, client address and details, separated by tabs \
            ('-' for none). With --json, one JSON object a line instead, with the admin API's field names. Without \
            --server the configured database is read (on SQLite stop the server first).
            """)

    @OptionGroup var connection: TenantAdminConnectionOptions
    @Option(name: .long, help: "Only this account's events.") var uid: String?
    @Option(name: .long, help: "Only events of this kind, e.g. user.sign_in_failed.") var kind: String?
    @Option(name: .long, help: "At most this many events (1-100000).") var limit = 50
    @Flag(name: .long, help: "One JSON object a line.") var json = false

    func validate() throws {
        guard (1...100_000).contains(limit) else { throw ValidationError("--limit must be between 1 and 100000") }
    }

    func run() async throws {
        let (uid, kind, limit, json) = (self.uid, self.kind, self.limit, self.json)
        try await connection.withAdmin { admin in
            var token: String?
            var shown = 0
            repeat {
                let page = try await admin.auditEvents(pageSize: min(1_000, limit - shown), pageToken: token, uid: uid, kind: kind)
                for event in page.events.prefix(limit - shown) {
                    print(json ? try Self.jsonLine(event) : Self.line(event))
                }
                shown += page.events.count
                token = page.nextPageToken
            } while token != nil && shown < limit
        }
    }

    /// Tab-separated: time, kind, uid, actor (with the administrator's credential), method, client address, details as
    /// `name=value` pairs.
    static func line(_ event: AuditEntry) -> String {
        let details = event.details.sorted { $0.key < $1.key }.map { "\($0.key)=\($0.value)" }.joined(separator: " ")
        return [
            timestamp(event.time), event.kind, event.uid ?? "-", event.actor + (event.actorID.map { "(\($0))" } ?? ""), event.method ?? "-",
            event.clientAddress ?? "-",
            details.isEmpty ? "-" : details,
        ].map(printable).joined(separator: "\t")
    }

    static func jsonLine(_ event: AuditEntry) throws -> String {
        let info = AuditEventInfo(
            id: event.id, time: timestamp(event.time), kind: event.kind, uid: event.uid, actor: event.actor, actorId: event.actorID,
            method: event.method,
            clientAddress: event.clientAddress, details: event.details.isEmpty ? nil : event.details)
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
        return String(decoding: try encoder.encode(info), as: UTF8.self)
    }

    static func timestamp(_ date: Date) -> String {
        date.formatted(Date.ISO8601FormatStyle(includingFractionalSeconds: true))
    }

    /// Control characters (a tab or newline in a uid or detail would break the columns) as `\u{…}`.
    static func printable(_ text: String) -> String {
        String(
            text.unicodeScalars.flatMap { scalar -> [Character] in
                scalar.properties.generalCategory == .control ? Array("\\u{\(String(scalar.value, radix: 16))}") : [Character(scalar)]
            })
    }
}
