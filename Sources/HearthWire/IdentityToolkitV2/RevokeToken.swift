/// `POST /v2/accounts:revokeToken`: revokes the token an identity provider issued to the signed-in user (only
/// `apple.com` today). With `tokenType` `CODE` the server first redeems the authorization code, then revokes what
/// it got.
public struct RevokeTokenRequest: Codable, Sendable, Equatable {
    /// The signed-in user's ID token.
    public var idToken: String?
    /// `apple.com`.
    public var providerId: String?
    public var tokenType: WireEnum<RevokeTokenTypeNames>?
    /// The refresh token, access token or authorization code.
    public var token: String?
    /// The `redirect_uri` of the authorization request that produced a web flow's code; native apps send none.
    public var redirectUri: String?
    public var tenantId: String?

    public init(idToken: String?, providerId: String?, tokenType: WireEnum<RevokeTokenTypeNames>?, token: String?) {
        self.idToken = idToken
        self.providerId = providerId
        self.tokenType = tokenType
        self.token = token
    }
}

/// Google's `RevokeTokenResponse`: an empty object.
public struct RevokeTokenResponse: Codable, Sendable, Equatable {
    public init() {}
}

/// `tokenType` of `accounts:revokeToken`; the iOS SDK sends the number as a string (`"3"` for `CODE`).
public enum RevokeTokenTypeNames: WireEnumValues {
    public static let names = ["TOKEN_TYPE_UNSPECIFIED", "REFRESH_TOKEN", "ACCESS_TOKEN", "CODE"]
}
