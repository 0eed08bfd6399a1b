import Crypto
import CryptoExtras

/// A credential public key as a COSE_Key (RFC 9052, RFC 9053) of one of `COSEAlgorithm`'s algorithms, parsed
/// strictly: its `kty`, `alg` and curve must agree, coordinates have their exact lengths, RSA moduli have at
/// least 2048 bits. `encoded` keeps the bytes it was read from, which is what a store keeps.
public struct COSEPublicKey: Sendable {
    /// The algorithm the key is for (its `alg`, label 3).
    public let algorithm: COSEAlgorithm
    /// The COSE_Key's CBOR encoding as the authenticator gave it.
    public let encoded: [UInt8]
    private let key: Key

    private enum Key: Sendable {
        case p256(P256.Signing.PublicKey)
        case ed25519(Curve25519.Signing.PublicKey)
        case rsa(_RSA.Signing.PublicKey)
    }

    /// Reads a COSE_Key from its encoding (as stored), refusing trailing bytes.
    public init(encoded: [UInt8]) throws(WebAuthnError) {
        let value: CBORValue
        do { value = try CBORDecoder(maximumDepth: 1, maximumSize: 2048).decode(encoded) } catch {
            throw .malformedPublicKey("\(error)")
        }
        try self.init(value: value, encoded: encoded)
    }

    /// Reads a COSE_Key already decoded from `encoded`.
    init(value: CBORValue, encoded: [UInt8]) throws(WebAuthnError) {
        guard value.map != nil else { throw .malformedPublicKey("COSE_Key is not a map") }
        guard let label = value[3]?.integer else { throw .malformedPublicKey("COSE_Key has no alg") }
        guard let algorithm = COSEAlgorithm(rawValue: label) else { throw .unsupportedAlgorithm(label) }
        let keyType = value[1]?.integer
        self.algorithm = algorithm
        self.encoded = encoded
        switch algorithm {
        case .es256:
            guard keyType == 2, value[-1]?.integer == 1 else { throw .malformedPublicKey("ES256 needs an EC2 key on P-256") }
            guard let x = value[-2]?.bytes, let y = value[-3]?.bytes, x.count == 32, y.count == 32 else {
                throw .malformedPublicKey("P-256 coordinates must be 32 bytes each")
            }
            do { key = .p256(try P256.Signing.PublicKey(rawRepresentation: x + y)) } catch {
                throw .malformedPublicKey("point is not on P-256")
            }
        case .edDSA:
            guard keyType == 1, value[-1]?.integer == 6 else { throw .malformedPublicKey("EdDSA needs an OKP key on Ed25519") }
            guard let x = value[-2]?.bytes, x.count == 32 else { throw .malformedPublicKey("Ed25519 keys are 32 bytes") }
            do { key = .ed25519(try Curve25519.Signing.PublicKey(rawRepresentation: x)) } catch {
                throw .malformedPublicKey("Ed25519 key is invalid")
            }
        case .rs256:
            guard keyType == 3 else { throw .malformedPublicKey("RS256 needs an RSA key") }
            guard let n = value[-1]?.bytes, let e = value[-2]?.bytes, !n.isEmpty, !e.isEmpty, e.count <= 4 else {
                throw .malformedPublicKey("RSA key needs n and e")
            }
            do { key = .rsa(try _RSA.Signing.PublicKey(n: n, e: e)) } catch {
                throw .malformedPublicKey("RSA key is invalid or shorter than 2048 bits")
            }
        }
    }

    /// Whether `signature` is this key's signature of `data` under its algorithm.
    public func isValidSignature(_ signature: [UInt8], for data: [UInt8]) -> Bool {
        switch key {
        case .p256(let key):
            guard let signature = try? P256.Signing.ECDSASignature(derRepresentation: signature) else { return false }
            return key.isValidSignature(signature, for: data)
        case .ed25519(let key):
            return key.isValidSignature(signature, for: data)
        case .rsa(let key):
            return key.isValidSignature(_RSA.Signing.RSASignature(rawRepresentation: signature), for: data, padding: .insecurePKCS1v1_5)
        }
    }
}
