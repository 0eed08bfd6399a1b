import Foundation

/// The verified claims of an ID token or a session cookie. Use ``uid`` to decide what data the caller may see.
public struct DecodedToken: Sendable, Equatable {
    /// The user's id (`sub`).
    public let uid: String
    public let issuer: String
    public let audience: String
    /// When the user signed in (`auth_time`); revocation is judged by it.
    public let authTime: Date
    public let issuedAt: Date
    public let expiresAt: Date
    /// Every claim of the token, reserved and custom, as sent.
    public let claims: [String: ClaimValue]

    public var email: String? { claims["email"]?.stringValue }
    public var emailVerified: Bool? { claims["email_verified"]?.boolValue }
    public var phoneNumber: String? { claims["phone_number"]?.stringValue }
    /// `firebase.sign_in_provider`: `password`, `anonymous`, `custom`, `google.com`, …
    public var signInProvider: String? { claims["firebase"]?.objectValue?["sign_in_provider"]?.stringValue }
    /// `firebase.tenant`: the tenant of the user; `nil` for the project's own users.
    public var tenantID: String? { claims["firebase"]?.objectValue?["tenant"]?.stringValue }

    /// Names a developer cannot use for custom claims: the reserved claims of ID tokens.
    public static let reservedClaimNames: Set<String> = [
        "acr", "amr", "at_hash", "aud", "auth_time", "azp", "cnf", "c_hash", "exp", "firebase", "iat", "iss", "jti", "nbf",
        "nonce", "sub",
    ]

    /// The developer's claims: what is left without the standard and Firebase claims.
    public var customClaims: [String: ClaimValue] {
        let standard: Set<String> = Self.reservedClaimNames.union([
            "user_id", "email", "email_verified", "phone_number", "name", "picture", "provider_id",
        ])
        return claims.filter { !standard.contains($0.key) }
    }
}
