import Foundation
import HearthWire

/// One audit event of the server (see ``HearthAdmin/auditEvents(pageSize:pageToken:uid:kind:)``).
public struct AuditEntry: Sendable, Equatable {
    public let id: String
    public let time: Date
    /// A dotted name such as `user.signed_in`.
    public let kind: String
    public let uid: String?
    /// `user`, `administrator` or `system`.
    public let actor: String
    /// Which administrator: the credential that called (`owner`, `token:<8 hex digits>`, `key:<key id>:<service account>`).
    public let actorID: String?
    /// The sign-in method or provider id, when one applies.
    public let method: String?
    public let clientAddress: String?
    public let details: [String: String]
}

/// One page of audit events, newest first.
public struct AuditEntryPage: Sendable, Equatable {
    public let events: [AuditEntry]
    /// Pass to the next call for the following page; `nil` after the last.
    public let nextPageToken: String?
}

extension HearthAdmin {
    /// One page of the server's audit trail, newest first, at most `pageSize` (1…1000) events; only `uid`'s
    /// and only of `kind` (`user.sign_in_failed`, …) when given. A Hearth extension: Firebase has no such call.
    public func auditEvents(pageSize: Int = 100, pageToken: String? = nil, uid: String? = nil, kind: String? = nil) async throws
        -> AuditEntryPage
    {
        guard (1...1_000).contains(pageSize) else { throw HearthAdminError(.argumentError, "pageSize must be between 1 and 1000.") }
        var components = URLComponents()
        components.queryItems = [URLQueryItem(name: "pageSize", value: String(pageSize))]
        if let pageToken { components.queryItems?.append(URLQueryItem(name: "pageToken", value: pageToken)) }
        if let uid { components.queryItems?.append(URLQueryItem(name: "uid", value: uid)) }
        if let kind { components.queryItems?.append(URLQueryItem(name: "kind", value: kind)) }
        let query = (components.percentEncodedQuery ?? "").replacingOccurrences(of: "+", with: "%2B")
        let response = try await get(projectPath("auditEvents") + "?" + query, as: ListAuditEventsResponse.self)
        let events = try (response.events ?? []).map { info in
            guard let time = try? Date(info.time, strategy: Date.ISO8601FormatStyle(includingFractionalSeconds: true)) else {
                throw HearthAdminError(.internalError, "The server's answer could not be read.")
            }
            return AuditEntry(
                id: info.id, time: time, kind: info.kind, uid: info.uid, actor: info.actor, actorID: info.actorId, method: info.method,
                clientAddress: info.clientAddress, details: info.details ?? [:])
        }
        return AuditEntryPage(events: events, nextPageToken: response.nextPageToken.flatMap { $0.isEmpty ? nil : $0 })
    }
}
