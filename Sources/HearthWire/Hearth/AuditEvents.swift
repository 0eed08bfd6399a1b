/// `GET /v1/projects/{project}/auditEvents` (a Hearth extension; Identity Toolkit has no audit API),
/// administrators only: audit events newest first, `pageSize` at a time, the next page named by `nextPageToken`.
public struct ListAuditEventsResponse: Codable, Sendable, Equatable {
    /// Absent when there are none.
    public var events: [AuditEventInfo]?
    /// Present when more events follow.
    public var nextPageToken: String?

    public init(events: [AuditEventInfo]?, nextPageToken: String?) {
        self.events = events
        self.nextPageToken = nextPageToken
    }
}

/// One audit event as the admin API shows it.
public struct AuditEventInfo: Codable, Sendable, Equatable {
    /// 32 lower-case hex digits.
    public var id: String
    /// RFC 3339 in UTC with milliseconds, e.g. `2026-11-25T10:15:30.123Z`.
    public var time: String
    /// A dotted name such as `user.signed_in`.
    public var kind: String
    public var uid: String?
    /// `user`, `administrator` or `system`.
    public var actor: String
    /// Which administrator: the credential that called (`owner`, `token:<8 hex digits>`, `key:<key id>:<service account>`).
    public var actorId: String?
    /// The sign-in method or provider id, when one applies.
    public var method: String?
    public var clientAddress: String?
    public var details: [String: String]?

    public init(
        id: String, time: String, kind: String, uid: String? = nil, actor: String, actorId: String? = nil, method: String? = nil,
        clientAddress: String? = nil,
        details: [String: String]? = nil
    ) {
        self.id = id
        self.time = time
        self.kind = kind
        self.uid = uid
        self.actor = actor
        self.actorId = actorId
        self.method = method
        self.clientAddress = clientAddress
        self.details = details
    }
}
