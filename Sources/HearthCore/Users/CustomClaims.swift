import Foundation

/// Developer claims of a user (`customAttributes`): a JSON object of at most 1,000 bytes whose names are
/// not the ID token's own. They are copied to the top level of the user's ID tokens.
public enum CustomClaims {
    /// Claims of the ID token itself, which custom claims may not name (Firebase's reserved claims, and
    /// the ones Hearth's tokens carry at the top level).
    public static let reservedNames: Set<String> = [
        "iss", "aud", "auth_time", "user_id", "sub", "iat", "exp", "email", "email_verified", "phone_number",
        "name", "picture", "provider_id", "firebase", "nbf", "jti", "nonce", "azp", "acr", "amr", "cnf",
        "at_hash", "c_hash",
    ]

    public static let maxBytes = 1_000

    /// The claims to store for `text`: `nil` for an empty object (no claims).
    /// - Throws: `CLAIMS_TOO_LARGE` over ``maxBytes``, `INVALID_CLAIMS` for anything but a JSON object,
    ///   `FORBIDDEN_CLAIM : <name>` for a reserved name (the first in sorted order).
    public static func validated(_ text: String) throws -> String? {
        guard text.utf8.count <= maxBytes else { throw HearthError(.claimsTooLarge) }
        guard UserText.isStorable(text), let claims = JSONValue.object(fromJSON: text) else { throw HearthError(.invalidClaims) }
        if let reserved = claims.keys.sorted().first(where: reservedNames.contains) {
            throw HearthError(.forbiddenClaim, detail: reserved)
        }
        return claims.isEmpty ? nil : text
    }
}
