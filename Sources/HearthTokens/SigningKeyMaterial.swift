import Crypto
import CryptoExtras
import Foundation
import HearthCore
import SwiftASN1
import X509

/// Creates RS256 signing keys with the self-signed certificate Firebase verifiers expect.
///
/// RS256 (RSASSA-PKCS1-v1_5 with SHA-256) is what Firebase ID tokens use and what every Firebase
/// token verifier accepts, so we use it knowingly even though swift-crypto files RSA under `_RSA`.
public enum SigningKeyMaterial {
    public static func make(now: Date, activatesAt: Date, retiresAt: Date, expiresAt: Date) throws -> SigningKeyRecord {
        let key = try _RSA.Signing.PrivateKey(keySize: .bits2048)
        var kidBytes = [UInt8](repeating: 0, count: 20)
        var generator = SystemRandomNumberGenerator()
        for i in kidBytes.indices { kidBytes[i] = UInt8.random(in: .min ... .max, using: &generator) }
        let kid = HexDigits.lowercase(kidBytes)

        let certificateKey = Certificate.PrivateKey(key)
        let name = try DistinguishedName { CommonName("securetoken.system.gserviceaccount.com") }
        let certificate = try Certificate(
            version: .v3,
            serialNumber: Certificate.SerialNumber(),
            publicKey: certificateKey.publicKey,
            notValidBefore: now.addingTimeInterval(-300),
            notValidAfter: expiresAt.addingTimeInterval(86_400),
            issuer: name,
            subject: name,
            signatureAlgorithm: .sha256WithRSAEncryption,
            extensions: Certificate.Extensions {},
            issuerPrivateKey: certificateKey
        )
        return SigningKeyRecord(
            kid: kid, algorithm: "RS256", privateKeyPEM: key.pemRepresentation,
            certificatePEM: try certificate.serializeAsPEM().pemString,
            createdAt: now, activatesAt: activatesAt, retiresAt: retiresAt, expiresAt: expiresAt
        )
    }
}
