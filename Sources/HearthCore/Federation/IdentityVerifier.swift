/// Checks a provider credential and says whose it is.
///
/// Implementations verify signatures, issuers, audiences, expiry and nonces (ID tokens) or ask the
/// provider (access tokens, OAuth 1.0a). Failures throw ``HearthError`` with
/// ``HearthError/Code/invalidIDPResponse``, ``HearthError/Code/missingOrInvalidNonce`` or
/// ``HearthError/Code/operationNotAllowed`` (provider switched off), never a hang: provider calls time out.
public protocol IdentityVerifier: Sendable {
    /// Whether `providerID` is configured and switched on.
    func isEnabled(_ providerID: String) -> Bool
    func verify(_ credential: FederatedCredential) async throws -> FederatedProfile
    /// Brings the verifier up to date with settings other replicas may have changed; called before a
    /// federated sign-in. Cheap when nothing changed.
    func refresh() async throws
}

extension IdentityVerifier {
    public func refresh() async throws {}
}

/// The verifier of a server with no identity provider configured: every provider is switched off.
public struct NoIdentityProviders: IdentityVerifier {
    public init() {}
    public func isEnabled(_ providerID: String) -> Bool { false }
    public func verify(_ credential: FederatedCredential) async throws -> FederatedProfile {
        throw HearthError(.operationNotAllowed)
    }
}
