import Foundation

/// Seals the TOTP secrets of enrolments with the server's key-encryption key, each bound to its account and
/// enrolment (a sealed secret copied to another account does not open). Without a key the secrets are kept as they
/// are, like every other secret of such a server (`hearth keys seal` seals them later).
public struct MultiFactorSecrets: Sendable {
    public let sealer: SecretSealer?

    public init(sealer: SecretSealer?) { self.sealer = sealer }

    /// The context a secret is sealed for.
    public static func context(uid: String, enrollmentID: String) -> String { "totp/\(uid)/\(enrollmentID)" }

    public func seal(_ secret: String, uid: String, enrollmentID: String) throws -> String {
        guard let sealer else { return secret }
        return try sealer.seal(secret, context: Self.context(uid: uid, enrollmentID: enrollmentID))
    }

    /// The secret; throws when it was sealed with another key or for another account.
    public func open(_ stored: String, uid: String, enrollmentID: String) throws -> String {
        guard SecretSealer.isSealed(stored) else { return stored }
        guard let sealer else { throw HearthError(.internalError, reason: "a TOTP secret is sealed but the server has no key") }
        return try sealer.open(stored, context: Self.context(uid: uid, enrollmentID: enrollmentID))
    }
}
