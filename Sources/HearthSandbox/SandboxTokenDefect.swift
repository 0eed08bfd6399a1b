/// A deliberate flaw in a minted ID token, for tests that a verifier rejects it.
///
/// Every ID-token minting method takes one (`defect:`); the rest of the token stays exactly as a good one.
public enum SandboxTokenDefect: Sendable, Hashable, CaseIterable {
    /// `exp` ten minutes in the past (all time claims shifted back), well beyond any clock-skew allowance.
    case expired
    /// `iat` (and `nbf`, `auth_time`) ten minutes in the future.
    case notYetValid
    /// `aud` is `sandbox-wrong-audience.example`.
    case wrongAudience
    /// `iss` is `https://issuer.attacker.example`.
    case wrongIssuer
    /// Microsoft only: `iss` names a different tenant GUID than `tid` (other providers: same as ``wrongIssuer``).
    case issuerTenantMismatch
    /// The `nonce` claim is the SHA-256 of some other value (added even when no nonce was asked for).
    case wrongNonce
    /// Signed by a key that is not in the JWKS, with the `kid` of the published active key.
    case unpublishedKey
    /// Signed by a key that is not in the JWKS, with its own `kid` (unknown even after a JWKS refetch).
    case unknownKeyID
    /// `{"alg":"none"}` and an empty signature.
    case algNone
    /// `{"alg":"HS256"}`, HMAC-SHA256 keyed with the published public key's PEM text (the algorithm-confusion attack).
    case hs256WithPublicKey
    /// A valid signature over the original claims, then the `sub` claim changed.
    case tamperedPayload
}
