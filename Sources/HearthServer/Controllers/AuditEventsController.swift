import Foundation
import HearthCore
import HearthWire
import HearthWireMapping
import Hummingbird

/// `GET /v1/projects/{project}/auditEvents`: the audit trail, newest first, for administrators (a Hearth
/// extension under the admin API; Identity Toolkit has no such call).
///
/// Query parameters: `pageSize` (1-1000, default 100), `pageToken` (a previous answer's `nextPageToken`),
/// `uid` (one account's events) and `kind` (one kind, e.g. `user.sign_in_failed`).
struct AuditEventsController<Context: CallerRequestContext>: Sendable {
    let store: any AuditStore

    static var defaultPageSize: Int { 100 }
    static var maximumPageSize: Int { 1_000 }

    static func addRoutes(to group: RouterGroup<Context>, from source: ControllerSource<Self, Context>) {
        group.get("auditEvents", use: source { $0.list })
    }

    @Sendable func list(_ request: Request, context: Context) async throws -> Response {
        try AdminAccountsController<Context>.requireAdministrator(context)
        let parameters = request.uri.queryParameters
        let pageSize =
            try parameters.get("pageSize").map { text -> Int in
                guard let number = Int(text), (1...Self.maximumPageSize).contains(number) else {
                    throw HearthError(.invalidArgument, detail: "pageSize must be an integer between 1 and \(Self.maximumPageSize).")
                }
                return number
            } ?? Self.defaultPageSize
        let cursor = try parameters.get("pageToken").flatMap { token -> AuditCursor? in
            guard !token.isEmpty else { return nil }
            guard let cursor = AuditCursor(token: token) else { throw HearthError(.invalidPageToken) }
            return cursor
        }
        let uid = try parameters.get("uid").map { uid -> String in
            guard UserText.isValidUID(uid) else {
                throw HearthError(.invalidArgument, detail: "uid must be a non-empty string of at most 128 printable characters.")
            }
            return uid
        }
        let kind = try parameters.get("kind").map { name -> AuditEvent.Kind in
            let kind = AuditEvent.Kind(rawValue: name)
            guard AuditEvent.Kind.known.contains(kind) else {
                throw HearthError(
                    .invalidArgument, detail: "kind must be one of \(AuditEvent.Kind.known.map(\.rawValue).joined(separator: ", ")).")
            }
            return kind
        }
        // One more than asked for tells whether another page follows.
        let events = try await store.auditEvents(uid: uid, kind: kind, after: cursor, limit: pageSize + 1)
        let page = events.prefix(pageSize)
        let next = events.count > pageSize ? page.last.map { AuditCursor(after: $0).token } : nil
        return WireCoding.response(ListAuditEventsResponse(events: page.isEmpty ? nil : page.map(Self.info), nextPageToken: next))
    }

    static func info(_ event: AuditEvent) -> AuditEventInfo {
        AuditEventInfo(
            id: event.id, time: timestamp(event.time), kind: event.kind.rawValue, uid: event.uid, actor: event.actor.rawValue,
            actorId: event.actorID, method: event.method, clientAddress: event.clientAddress, details: event.details.isEmpty ? nil : event.details)
    }

    /// RFC 3339 in UTC with milliseconds, as Google's APIs write timestamps.
    static func timestamp(_ date: Date) -> String {
        date.formatted(Date.ISO8601FormatStyle(includingFractionalSeconds: true))
    }
}
