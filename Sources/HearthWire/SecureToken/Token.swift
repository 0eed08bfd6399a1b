/// `securetoken.googleapis.com/v1/token`. Accepted as JSON or form, camelCase or snake_case.
public struct TokenRequest: Codable, Sendable, Equatable {
    public var grantType: String?
    public var refreshToken: String?

    public init(grantType: String? = "refresh_token", refreshToken: String?) {
        self.grantType = grantType
        self.refreshToken = refreshToken
    }
}

/// Snake_case, as the Secure Token API answers. `access_token` carries the ID token.
public struct TokenResponse: Codable, Sendable, Equatable {
    public var accessToken: String
    public var expiresIn: String
    public var tokenType = "Bearer"
    public var refreshToken: String
    public var idToken: String
    public var userId: String
    public var projectId: String

    enum CodingKeys: String, CodingKey {
        case accessToken = "access_token"
        case expiresIn = "expires_in"
        case tokenType = "token_type"
        case refreshToken = "refresh_token"
        case idToken = "id_token"
        case userId = "user_id"
        case projectId = "project_id"
    }

    public init(idToken: String, expiresIn: String, refreshToken: String, userId: String, projectId: String) {
        self.accessToken = idToken
        self.expiresIn = expiresIn
        self.refreshToken = refreshToken
        self.idToken = idToken
        self.userId = userId
        self.projectId = projectId
    }
}
