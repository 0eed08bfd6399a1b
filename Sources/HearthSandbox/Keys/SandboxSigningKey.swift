import Crypto
import CryptoExtras
import Foundation
import HearthBase64URL

/// One key the sandbox signs ID tokens with: RSA 2048 (RS256: PKCS#1 v1.5 padding over SHA-256) for most
/// providers, P-256 (ES256: ECDSA over SHA-256, the JWS signature the raw 64-byte `r || s`) for Yahoo.
struct SandboxSigningKey: Sendable {
    /// How a provider's key ids look, so that verifiers meet realistic `kid` values.
    enum KeyIDStyle: Sendable {
        /// Apple: short alphanumerics such as `W6WcOKB`.
        case short
        /// Google, Facebook: 40 hexadecimal digits (a SHA-1 thumbprint).
        case hex40
        /// Yahoo: 32 hexadecimal digits.
        case hex32
        /// Microsoft: 27 base64url characters (a base64url SHA-1 thumbprint).
        case thumbprint
        /// Generic OIDC issuers: a UUID.
        case uuid
    }

    /// The JWS algorithm a key signs with.
    enum Algorithm: String, Sendable {
        case rs256 = "RS256"
        case es256 = "ES256"
    }

    enum Material: Sendable {
        case rsa(_RSA.Signing.PrivateKey)
        case p256(P256.Signing.PrivateKey)
    }

    let kid: String
    let material: Material

    init(style: KeyIDStyle, algorithm: Algorithm = .rs256) throws {
        switch algorithm {
        case .rs256: material = .rsa(try _RSA.Signing.PrivateKey(keySize: .bits2048))
        case .es256: material = .p256(P256.Signing.PrivateKey())
        }
        switch style {
        case .short: kid = SandboxRandom.alphanumeric(7)
        case .hex40: kid = SandboxRandom.hex(bytes: 20)
        case .hex32: kid = SandboxRandom.hex(bytes: 16)
        case .thumbprint: kid = SandboxRandom.base64URL(bytes: 20)
        case .uuid: kid = SandboxRandom.uuid()
        }
    }

    /// The header `alg` of the tokens this key signs.
    var algorithm: Algorithm {
        switch material {
        case .rsa: .rs256
        case .p256: .es256
        }
    }

    /// The public key as PEM (SubjectPublicKeyInfo), the secret of the ``SandboxTokenDefect/hs256WithPublicKey`` forgery.
    var publicKeyPEM: String {
        switch material {
        case .rsa(let key): key.publicKey.pemRepresentation
        case .p256(let key): key.publicKey.pemRepresentation
        }
    }

    /// The JWS signature of `data`: RS256 or ES256 (`r || s`, 64 bytes).
    func sign(_ data: Data) throws -> Data {
        switch material {
        case .rsa(let key):
            try key.signature(for: SHA256.hash(data: data), padding: .insecurePKCS1v1_5).rawRepresentation
        case .p256(let key):
            try key.signature(for: SHA256.hash(data: data)).rawRepresentation
        }
    }

    /// Whether `signature` is this key's JWS signature of `data`.
    func isValidSignature(_ signature: Data, for data: Data) -> Bool {
        switch material {
        case .rsa(let key):
            key.publicKey.isValidSignature(
                _RSA.Signing.RSASignature(rawRepresentation: signature), for: SHA256.hash(data: data), padding: .insecurePKCS1v1_5)
        case .p256(let key):
            (try? P256.Signing.ECDSASignature(rawRepresentation: signature))
                .map { key.publicKey.isValidSignature($0, for: SHA256.hash(data: data)) } ?? false
        }
    }

    /// The public JWK: `{"kty":"RSA","kid","use":"sig","alg":"RS256","n","e"}` or
    /// `{"kty":"EC","crv":"P-256","kid","use":"sig","alg":"ES256","x","y"}`.
    func jwk() throws -> SandboxJSON {
        switch material {
        case .rsa(let key):
            let primitives = try key.publicKey.getKeyPrimitives()
            return [
                "kty": "RSA", "kid": .string(kid), "use": "sig", "alg": "RS256",
                "n": .string(Base64URL.encode(Self.unsigned(primitives.modulus))),
                "e": .string(Base64URL.encode(Self.unsigned(primitives.publicExponent))),
            ]
        case .p256(let key):
            // The raw public key is x || y, 32 bytes each (RFC 7518 §6.2.1.2: full length, leading zeros kept).
            let point = key.publicKey.rawRepresentation
            return [
                "kty": "EC", "crv": "P-256", "kid": .string(kid), "use": "sig", "alg": "ES256",
                "x": .string(Base64URL.encode(point.prefix(32))),
                "y": .string(Base64URL.encode(point.suffix(32))),
            ]
        }
    }

    /// Big-endian magnitude without leading zero bytes (RFC 7518 §6.3.1).
    private static func unsigned(_ bytes: Data) -> Data {
        let trimmed = bytes.drop(while: { $0 == 0 })
        return trimmed.isEmpty ? Data([0]) : Data(trimmed)
    }
}
