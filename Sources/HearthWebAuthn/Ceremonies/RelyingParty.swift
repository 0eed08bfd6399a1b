import Crypto
import Foundation
import X509

/// A relying party's WebAuthn settings: its RP ID, the origins its pages are served from, whether user
/// verification is required, the algorithms it offers, and the attestation it trusts. Verifies registrations
/// (§7.1) and assertions (§7.2); never stores anything: challenges and credentials are the caller's.
public struct RelyingParty: Sendable {
    /// The RP ID: a registrable domain the origins share (`example.com`), or `localhost`.
    public var id: String
    /// The exact origins (`https://example.com`, `http://localhost:9099`) a ceremony may come from; one ending in
    /// `:*` (`http://localhost:*`) stands for its scheme and host on any port.
    public var origins: [String]
    /// Whether the user-verified flag must be set (a PIN, a fingerprint), or user presence suffices.
    public var requiresUserVerification: Bool
    /// The algorithms offered in `pubKeyCredParams`; a credential of another is refused.
    public var algorithms: [COSEAlgorithm]
    /// Roots an `x5c` attestation must chain to. Empty: an x5c attestation's signature is checked but its
    /// certificate is not (the result says `trusted: false`).
    public var trustAnchors: [Certificate]
    /// Whether only attestation that chains to `trustAnchors` is accepted (`none` and self attestation refused).
    public var requiresTrustedAttestation: Bool

    public init(
        id: String,
        origins: [String],
        requiresUserVerification: Bool = false,
        algorithms: [COSEAlgorithm] = COSEAlgorithm.allCases,
        trustAnchors: [Certificate] = [],
        requiresTrustedAttestation: Bool = false
    ) {
        self.id = id
        self.origins = origins
        self.requiresUserVerification = requiresUserVerification
        self.algorithms = algorithms
        self.trustAnchors = trustAnchors
        self.requiresTrustedAttestation = requiresTrustedAttestation
    }

    /// SHA-256 of the RP ID, which authenticator data must start with.
    var idHash: [UInt8] { Array(SHA256.hash(data: Array(id.utf8))) }

    /// The flag rules both ceremonies share: the RP ID's hash, user presence, user verification if required.
    func checkFlags(_ data: AuthenticatorData) throws(WebAuthnError) {
        guard data.rpIDHash == idHash else { throw .rpIDHashMismatch }
        guard data.flags.contains(.userPresent) else { throw .userNotPresent }
        guard !requiresUserVerification || data.flags.contains(.userVerified) else { throw .userNotVerified }
    }
}
