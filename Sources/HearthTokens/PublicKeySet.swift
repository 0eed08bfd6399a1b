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

        /// The JWK of `record`'s key, whose public half is `publicKey`.
        init(record: SigningKeyRecord, publicKey: Insecure.RSA.PublicKey) throws {
            let primitives = try publicKey.getKeyPrimitives()
            self.init(
                kty: "RSA", alg: record.algorithm, use: "sig", kid: record.kid, n: Base64URL.encode(primitives.modulus),
                e: Base64URL.encode(primitives.publicExponent))
        }

        init(kty: String, alg: String, use: String, kid: String, n: String, e: String) {
            self.kty = kty
            self.alg = alg
            self.use = use
            self.kid = kid
            self.n = n
            self.e = e
        }
    }

    public var keys: [JWK]
    /// kid → PEM certificate, Google's `x509` publication format.
    public var certificates: [String: String]

    public init(records: [SigningKeyRecord]) throws {
        var keys: [JWK] = []
        var certificates: [String: String] = [:]
        for record in records {
            keys.append(try JWK(record: record, publicKey: Insecure.RSA.PrivateKey(pem: record.privateKeyPEM).publicKey))
            certificates[record.kid] = record.certificatePEM
        }
        self.keys = keys
        self.certificates = certificates
    }

    public init(keys: [JWK], certificates: [String: String]) {
        self.keys = keys
        self.certificates = certificates
    }
}
