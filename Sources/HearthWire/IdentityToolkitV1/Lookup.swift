/// `accounts:lookup` (legacy `getAccountInfo`).
public struct LookupRequest: Codable, Sendable, Equatable {
    public var idToken: String?
    public var localId: [String]?
    public var email: [String]?
    /// Administrators only, as are `localId` and `email`.
    public var phoneNumber: [String]?
    public var federatedUserId: [FederatedUserIdentifier]?
    public var targetProjectId: String?
    public var tenantId: String?

    public init(idToken: String?) { self.idToken = idToken }
}

public struct LookupResponse: Codable, Sendable, Equatable {
    public var kind = "identitytoolkit#GetAccountInfoResponse"
    /// Omitted entirely when nothing matched.
    public var users: [UserInfo]?

    public init(users: [UserInfo]?) { self.users = users }
}

/// A provider identity to look a user up by.
public struct FederatedUserIdentifier: Codable, Sendable, Equatable {
    public var providerId: String?
    public var rawId: String?

    public init(providerId: String?, rawId: String?) {
        self.providerId = providerId
        self.rawId = rawId
    }
}
