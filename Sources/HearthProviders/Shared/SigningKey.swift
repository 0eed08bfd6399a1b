import JWTKit

/// One usable public key from a provider's JWKS, ready to verify signatures with.
struct SigningKey: Sendable {
    let kid: String
    /// The one algorithm this key verifies (from its key type and curve, and its `alg` if it declares one).
    let algorithm: IDTokenAlgorithm
    /// A collection holding only this key, with its algorithm pinned, so jwt-kit can never fall back to
    /// another key or to an algorithm chosen by the token's header.
    let collection: JWTKeyCollection
}
