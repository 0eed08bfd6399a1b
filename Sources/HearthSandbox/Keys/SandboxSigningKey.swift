import Crypto
import CryptoExtras
import Foundation
import HearthBase64URL

/// One RSA 2048 key the sandbox signs ID tokens with (RS256: PKCS#1 v1.5 padding over SHA-256).
struct SandboxSigningKey: Sendable {
    /// How a provider's key ids look, so that verifiers meet realistic `kid` values.
    enum KeyIDStyle: Sendable {
        /// Apple: short alphanumerics such as `W6WcOKB`.
        case short
        /// Google, Facebook: 40 hexadecimal digits (a SHA-1 thumbprint).
        case hex40
        /// Microsoft: 27 base64url characters (a base64url SHA-1 thumbprint).
        case thumbprint
        /// Generic OIDC issuers: a UUID.
        case uuid
    }

    let kid: String
    let privateKey: _RSA.Signing.PrivateKey

    init(style: KeyIDStyle) throws {
        privateKey = try _RSA.Signing.PrivateKey(keySize: .bits2048)
        switch style {
        case .short: kid = SandboxRandom.alphanumeric(7)
        case .hex40: kid = SandboxRandom.hex(bytes: 20)
        case .thumbprint: kid = SandboxRandom.base64URL(bytes: 20)
        case .uuid: kid = SandboxRandom.uuid()
        }
    }

    var publicKey: _RSA.Signing.PublicKey { privateKey.publicKey }

    /// RS256 signature of `data`.
    func sign(_ data: Data) throws -> Data {
        try privateKey.signature(for: SHA256.hash(data: data), padding: .insecurePKCS1v1_5).rawRepresentation
    }

    /// The public JWK: `{"kty":"RSA","kid","use":"sig","alg":"RS256","n","e"}`.
    func jwk() throws -> SandboxJSON {
        let primitives = try publicKey.getKeyPrimitives()
        return [
            "kty": "RSA", "kid": .string(kid), "use": "sig", "alg": "RS256",
            "n": .string(Base64URL.encode(Self.unsigned(primitives.modulus))),
            "e": .string(Base64URL.encode(Self.unsigned(primitives.publicExponent))),
        ]
    }

    /// Big-endian magnitude without leading zero bytes (RFC 7518 §6.3.1).
    private static func unsigned(_ bytes: Data) -> Data {
        let trimmed = bytes.drop(while: { $0 == 0 })
        return trimmed.isEmpty ? Data([0]) : Data(trimmed)
    }
}
