import Foundation
import HearthBase64URL
import HearthCore
import JWTKit

/// The public halves of the signing keys, in the two forms Firebase verifiers read.
public struct PublicKeySet: Sendable, Equatable {
    public struct JWK: Codable, Sendable, Equatable {
        public var kty: String
        public var alg: String
        public var use: String
        public var kid: String
        public var n: String
        public var e: String
    }

    public var keys: [JWK]
    /// kid → PEM certificate, Google's `x509` publication format.
    public var certificates: [String: String]

    public init(records: [SigningKeyRecord]) throws {
        var keys: [JWK] = []
        var certificates: [String: String] = [:]
        for record in records {
            let publicKey = try Insecure.RSA.PrivateKey(pem: record.privateKeyPEM).publicKey
            let primitives = try publicKey.getKeyPrimitives()
            keys.append(
                JWK(
                    kty: "RSA", alg: record.algorithm, use: "sig", kid: record.kid,
                    n: Base64URL.encode(primitives.modulus), e: Base64URL.encode(primitives.publicExponent)))
            certificates[record.kid] = record.certificatePEM
        }
        self.keys = keys
        self.certificates = certificates
    }
}
