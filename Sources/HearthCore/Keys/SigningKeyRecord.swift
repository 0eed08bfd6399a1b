import Foundation

/// A token-signing key as it is kept in storage.
public struct SigningKeyRecord: Sendable, Equatable {
    /// Key id, 40 hex digits, as in Firebase's `kid`.
    public var kid: String
    /// `RS256`.
    public var algorithm: String
    /// PKCS#8 PEM. A secret: never logged, never in a response; sealed at rest (``SecretSealer``).
    public var privateKeyPEM: String
    /// Self-signed X.509 certificate (PEM) of the public key, for the `x509` publication.
    public var certificatePEM: String
    public var createdAt: Date
    /// From this instant on the key signs new tokens (until a newer key is active).
    public var activatesAt: Date
    /// After this instant the key no longer signs; it stays published until `expiresAt`.
    public var retiresAt: Date
    /// After this instant no token it signed can still be valid; it is unpublished and may be deleted.
    public var expiresAt: Date

    public init(
        kid: String, algorithm: String, privateKeyPEM: String, certificatePEM: String, createdAt: Date,
        activatesAt: Date, retiresAt: Date, expiresAt: Date
    ) {
        self.kid = kid
        self.algorithm = algorithm
        self.privateKeyPEM = privateKeyPEM
        self.certificatePEM = certificatePEM
        self.createdAt = createdAt
        self.activatesAt = activatesAt
        self.retiresAt = retiresAt
        self.expiresAt = expiresAt
    }
}
