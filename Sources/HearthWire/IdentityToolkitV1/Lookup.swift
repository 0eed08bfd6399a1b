/// `accounts:lookup` (legacy `getAccountInfo`).
public struct LookupRequest: Codable, Sendable, Equatable {
    public var idToken: String?
    public var localId: [String]?
    public var email: [String]?
    public var tenantId: String?

    public init(idToken: String?) { self.idToken = idToken }
}

public struct LookupResponse: Codable, Sendable, Equatable {
    public var kind = "identitytoolkit#GetAccountInfoResponse"
    /// Omitted entirely when nothing matched.
    public var users: [UserInfo]?

    public init(users: [UserInfo]?) { self.users = users }
}
