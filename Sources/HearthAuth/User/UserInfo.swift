import Foundation

/// A user's identity at one provider (and the user itself, whose ``providerID`` is `"Firebase"`).
public protocol UserInfo: Sendable {
    /// The provider id: `"password"`, `"google.com"`, …; `"Firebase"` for a ``User``.
    var providerID: String { get }
    /// The user's id at the provider (the federated id); the Firebase uid for a ``User``.
    var uid: String { get }
    var displayName: String? { get }
    var photoURL: URL? { get }
    var email: String? { get }
    var phoneNumber: String? { get }
}

/// One entry of ``User/providerData``.
struct ProviderUserInfo: UserInfo, Codable, Equatable {
    var providerID: String
    var uid: String
    var displayName: String?
    var photoURL: URL?
    var email: String?
    var phoneNumber: String?
}

/// When a user was created and last signed in.
public struct UserMetadata: Sendable, Codable, Equatable {
    /// The last sign-in, from the server's `lastLoginAt`.
    public let lastSignInDate: Date?
    /// The creation, from the server's `createdAt`.
    public let creationDate: Date?

    init(lastSignInDate: Date?, creationDate: Date?) {
        self.lastSignInDate = lastSignInDate
        self.creationDate = creationDate
    }
}

/// The decoded contents of an ID token.
public final class AuthTokenResult: @unchecked Sendable {
    /// The ID token (a JWT).
    public let token: String
    /// `exp`
    public let expirationDate: Date
    /// `auth_time`: when the user last signed in with a credential.
    public let authDate: Date
    /// `iat`
    public let issuedAtDate: Date
    /// `firebase.sign_in_provider`: `"password"`, `"anonymous"`, `"google.com"`, `"custom"`, …
    public let signInProvider: String
    /// `firebase.sign_in_second_factor`, or empty.
    public let signInSecondFactor: String
    /// Every claim of the token, custom claims included. Immutable.
    public let claims: [String: Any]

    init(token: String) throws {
        func malformed() -> NSError {
            AuthErrorFactory.error(.malformedJWT, extra: [AuthErrorFactory.dataKey: token])
        }
        guard let claims = JWTPayload.decode(token),
            let exp = JWTPayload.date(claims, "exp"),
            let authTime = JWTPayload.date(claims, "auth_time"),
            let iat = JWTPayload.date(claims, "iat"),
            let firebase = claims["firebase"] as? [String: Any],
            let provider = firebase["sign_in_provider"] as? String
        else { throw malformed() }
        self.token = token
        self.claims = claims
        expirationDate = exp
        authDate = authTime
        issuedAtDate = iat
        signInProvider = provider
        signInSecondFactor = firebase["sign_in_second_factor"] as? String ?? ""
    }
}
