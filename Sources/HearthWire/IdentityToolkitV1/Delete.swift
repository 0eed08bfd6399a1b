/// `accounts:delete` (legacy `deleteAccount`).
public struct DeleteAccountRequest: Codable, Sendable, Equatable {
    public var idToken: String?
    public var localId: String?
    public var targetProjectId: String?
    public var tenantId: String?

    public init(idToken: String?) { self.idToken = idToken }
}

public struct DeleteAccountResponse: Codable, Sendable, Equatable {
    public var kind = "identitytoolkit#DeleteAccountResponse"
    public init() {}
}
