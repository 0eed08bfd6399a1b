import Crypto
import CryptoExtras
import Foundation
import HearthCore

/// A signing key a fake provider publishes (or, for forgeries, does not), and signs test tokens with.
/// Signing is done here by hand, independently of jwt-kit, so the tests do not check the library with itself.
struct TestKey: Sendable {
    enum Material: Sendable {
        case rsa(_RSA.Signing.PrivateKey)
        case ec(P256.Signing.PrivateKey)
    }

    let kid: String
    let material: Material

    static func rsa(_ kid: String) -> TestKey {
        // Test-only: key generation cannot fail for a supported size.
        TestKey(kid: kid, material: .rsa(try! _RSA.Signing.PrivateKey(keySize: .bits2048)))
    }

    static func ec(_ kid: String) -> TestKey { TestKey(kid: kid, material: .ec(P256.Signing.PrivateKey())) }

    /// Keys made once per test process (RSA generation is slow).
    static let primary = TestKey.rsa("key-1")
    static let second = TestKey.rsa("key-2")
    static let rogue = TestKey.rsa("key-1")  // same kid as `primary`, never published: forgeries
    static let elliptic = TestKey.ec("ec-1")

    var algorithm: String {
        switch material {
        case .rsa: "RS256"
        case .ec: "ES256"
        }
    }

    /// The public JWK as providers publish it.
    var jwk: JSONValue {
        switch material {
        case .rsa(let key):
            let primitives = try! key.publicKey.getKeyPrimitives()
            return .object([
                "kty": "RSA", "use": "sig", "alg": "RS256", "kid": .string(kid),
                "n": .string(Self.base64url(primitives.modulus)), "e": .string(Self.base64url(primitives.publicExponent)),
            ])
        case .ec(let key):
            let raw = key.publicKey.rawRepresentation
            return .object([
                "kty": "EC", "use": "sig", "crv": "P-256", "kid": .string(kid),
                "x": .string(Self.base64url(raw.prefix(32))), "y": .string(Self.base64url(raw.suffix(32))),
            ])
        }
    }

    /// The public key in PEM, for the "HS256 keyed with the public key" attack.
    var publicPEM: String {
        switch material {
        case .rsa(let key): key.publicKey.pemRepresentation
        case .ec(let key): key.publicKey.pemRepresentation
        }
    }

    func sign(_ input: Data) -> Data {
        switch material {
        case .rsa(let key): try! key.signature(for: input, padding: .insecurePKCS1v1_5).rawRepresentation
        case .ec(let key): try! key.signature(for: input).rawRepresentation
        }
    }

    static func base64url(_ data: some DataProtocol) -> String {
        Data(data).base64EncodedString().replacingOccurrences(of: "+", with: "-").replacingOccurrences(of: "/", with: "_")
            .replacingOccurrences(of: "=", with: "")
    }
}
