/// `POST /v1/projects/{project}:createSessionCookie` (admin): a session cookie for a fresh ID token.
public struct CreateSessionCookieRequest: Codable, Sendable, Equatable {
    public var idToken: String?
    /// Seconds the cookie stays valid (300…1209600), an int64 in proto3 JSON: Google's APIs take a string or a
    /// bare number, and the Admin SDKs send either. Kept as the text received; the server parses it.
    public var validDuration: String?
    public var tenantId: String?

    public init(idToken: String?, validDuration: String? = nil) {
        self.idToken = idToken
        self.validDuration = validDuration
    }

    enum CodingKeys: String, CodingKey {
        case idToken, validDuration, tenantId
    }

    public init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        idToken = try container.decodeIfPresent(String.self, forKey: .idToken)
        tenantId = try container.decodeIfPresent(String.self, forKey: .tenantId)
        if let number = try? container.decodeIfPresent(Int64.self, forKey: .validDuration) {
            validDuration = String(number)
        } else {
            validDuration = try container.decodeIfPresent(String.self, forKey: .validDuration)
        }
    }
}

public struct CreateSessionCookieResponse: Codable, Sendable, Equatable {
    public var sessionCookie: String

    public init(sessionCookie: String) { self.sessionCookie = sessionCookie }
}
