import HearthCore

/// A provider adapter that proves an identity from an OpenID Connect ID token.
protocol IDTokenVerifier: Sendable {
    /// Verifies `idToken` (signature, claims, nonce against `credential.rawNonce`) and maps its claims.
    func verify(idToken: String, credential: FederatedCredential) async throws -> FederatedProfile
}
