/// The JWS algorithms Hearth accepts on a provider's ID token. `none` and the HMAC family are never
/// accepted: a provider's token is signed with a private key whose public half is in its JWKS.
public enum IDTokenAlgorithm: String, Sendable, Hashable, CaseIterable {
    /// RSASSA-PKCS1-v1_5 with SHA-256 (Apple, Microsoft, Google, Facebook Limited Login, most OIDC providers).
    case rs256 = "RS256"
    /// ECDSA P-256 with SHA-256.
    case es256 = "ES256"
}
