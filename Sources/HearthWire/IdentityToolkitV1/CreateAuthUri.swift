/// `accounts:createAuthUri` (legacy `createAuthUri`): which sign-in methods an e-mail has.
public struct CreateAuthUriRequest: Codable, Sendable, Equatable {
    public var identifier: String?
    public var continueUri: String?
    public var providerId: String?
    public var sessionId: String?
    public var tenantId: String?

    public init(identifier: String?, continueUri: String? = "http://localhost") {
        self.identifier = identifier
        self.continueUri = continueUri
    }
}

public struct CreateAuthUriResponse: Codable, Sendable, Equatable {
    public var kind = "identitytoolkit#CreateAuthUriResponse"
    public var registered: Bool?
    public var allProviders: [String]?
    public var signinMethods: [String]?
    public var sessionId: String?

    public init(registered: Bool?, allProviders: [String]?, signinMethods: [String]?, sessionId: String?) {
        self.registered = registered
        self.allProviders = allProviders
        self.signinMethods = signinMethods
        self.sessionId = sessionId
    }
}
