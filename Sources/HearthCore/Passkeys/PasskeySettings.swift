import HearthWebAuthn

/// A project's or tenant's passkey settings: the relying party its users' passkeys are scoped to and the pages
/// that may use them.
public struct PasskeySettings: Sendable, Equatable {
    /// The RP ID (`example.com`): the origins' registrable domain, which the passkeys are bound to.
    public var rpID: String
    /// The name an authenticator shows beside the account.
    public var rpName: String
    /// The exact origins (`https://example.com`) `clientDataJSON` may name.
    public var origins: [String]
    /// Whether the authenticator must verify the user (PIN, biometrics), not only see them present.
    public var requiresUserVerification: Bool

    public init(rpID: String, rpName: String, origins: [String], requiresUserVerification: Bool = false) {
        self.rpID = rpID
        self.rpName = rpName
        self.origins = origins
        self.requiresUserVerification = requiresUserVerification
    }

    /// The relying party HearthWebAuthn verifies against.
    var relyingParty: RelyingParty {
        RelyingParty(id: rpID, origins: origins, requiresUserVerification: requiresUserVerification)
    }
}
