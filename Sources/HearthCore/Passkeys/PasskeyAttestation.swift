import HearthWebAuthn

/// The attestation passkey enrolments trust, the server's for every tenant (`passkeys.attestationTrustAnchors`,
/// `passkeys.requireTrustedAttestation`, read at start-up): root certificates a `packed` `x5c` chain must lead to (one
/// that leads elsewhere is refused), and whether only such attestation is accepted (`none` and self attestation
/// refused: only the authenticators those roots vouch for can enrol). With anchors, the creation options ask for
/// `direct` attestation.
public struct PasskeyAttestation: Sendable {
    /// The roots; `nil`: an x5c chain's signature is checked but not where it leads.
    public var anchors: TrustAnchors?
    public var requiresTrustedAttestation: Bool

    public init(anchors: TrustAnchors?, requiresTrustedAttestation: Bool) {
        self.anchors = anchors
        self.requiresTrustedAttestation = requiresTrustedAttestation
    }

    /// The roots of `anchorsPEM` (one or more CA certificates in PEM; `nil`: none). Throws what is wrong with them
    /// (``TrustAnchors/Problem``).
    public init(anchorsPEM: String?, requiresTrustedAttestation: Bool) throws {
        self.init(anchors: try anchorsPEM.map { try TrustAnchors(pemEncoded: $0) }, requiresTrustedAttestation: requiresTrustedAttestation)
    }

    /// How many roots there are.
    public var anchorCount: Int { anchors?.certificates.count ?? 0 }

    /// No anchors, any attestation (`none` included): what most relying parties want of passkeys.
    public static let any = PasskeyAttestation(anchors: nil, requiresTrustedAttestation: false)
}

extension PasskeySettings {
    /// The relying party enrolments are verified against: these settings' and `attestation`'s.
    func relyingParty(trusting attestation: PasskeyAttestation) -> RelyingParty {
        var party = relyingParty
        party.trustAnchors = attestation.anchors?.certificates ?? []
        party.requiresTrustedAttestation = attestation.requiresTrustedAttestation
        return party
    }
}
