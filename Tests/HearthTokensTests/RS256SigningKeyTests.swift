import Crypto
import CryptoExtras
import Foundation
import HearthBase64URL
import HearthTokens
import Testing

/// The two libraries a token-signing key signs with: the same signature bytes from each (RSASSA-PKCS1-v1_5 is
/// deterministic), each verified by swift-crypto's public key, and the calibration that picks one.
@Suite("RS256SigningKey")
struct RS256SigningKeyTests {
    static let key = try! _RSA.Signing.PrivateKey(keySize: .bits2048)

    @Test("libcrypto and swift-crypto make the same signature, and it verifies", arguments: [0, 1, 600, 70_000])
    func sameSignature(length: Int) throws {
        let message = (0..<length).map { UInt8(truncatingIfNeeded: $0 &* 31) }
        let system = try RS256SigningKey(pemRepresentation: Self.key.pemRepresentation, library: .libcrypto)
        let portable = try RS256SigningKey(pemRepresentation: Self.key.pemRepresentation, library: .swiftCrypto)
        #expect(system.library == .libcrypto)
        #expect(portable.library == .swiftCrypto)
        let signature = try system.signature(for: message)
        #expect(signature == (try portable.signature(for: message)))
        #expect(signature.count == 256)
        #expect(
            Self.key.publicKey.isValidSignature(_RSA.Signing.RSASignature(rawRepresentation: signature), for: message, padding: .insecurePKCS1v1_5))
    }

    @Test("A PKCS#8 key reads as a PKCS#1 one does")
    func pkcs8() throws {
        let system = try RS256SigningKey(pemRepresentation: Self.key.pkcs8PEMRepresentation, library: .libcrypto)
        #expect(system.library == .libcrypto)
        #expect(
            try system.signature(for: [1, 2, 3])
                == (try Self.key.signature(for: [UInt8]([1, 2, 3]), padding: .insecurePKCS1v1_5).withUnsafeBytes { Array($0) }))
    }

    @Test("A JWS is the input, a dot and the base64url signature")
    func jws() throws {
        let key = try RS256SigningKey(pemRepresentation: Self.key.pemRepresentation)
        let input = "eyJhbGciOiJSUzI1NiJ9.eyJzdWIiOiJhIn0"
        let token = try key.jws(signingInput: input)
        let parts = token.split(separator: ".")
        #expect(parts.count == 3 && token.hasPrefix(input + "."))
        let signature = try #require(Base64URL.decode(parts[2]))
        #expect(
            Self.key.publicKey.isValidSignature(
                _RSA.Signing.RSASignature(rawRepresentation: signature), for: Array(input.utf8), padding: .insecurePKCS1v1_5))
    }

    @Test("What is not an RSA private key is refused by both libraries")
    func notAKey() throws {
        let ecKey = P256.Signing.PrivateKey().pemRepresentation
        for text in ["", "-----BEGIN PRIVATE KEY-----\nAAAA\n-----END PRIVATE KEY-----\n", ecKey, "\0"] {
            for library in RS256Library.allCases {
                #expect(throws: (any Error).self) { try RS256SigningKey(pemRepresentation: text, library: library) }
            }
        }
    }

    @Test("Calibration times both libraries and picks the faster; preferred is that pick")
    func calibration() throws {
        let calibration = RS256Library.calibrate(rounds: 10)
        #expect(Set(calibration.secondsPerSignature.keys) == Set(RS256Library.allCases))
        #expect(calibration.secondsPerSignature.values.allSatisfy { $0 > 0 })
        #expect(RS256Library.allCases.contains(RS256Library.preferred))
        #expect(RS256Library.libcryptoVersion.hasPrefix("OpenSSL "))
    }

    @Test("Signing from many tasks at once with one libcrypto key")
    func concurrent() async throws {
        let key = try RS256SigningKey(pemRepresentation: Self.key.pemRepresentation, library: .libcrypto)
        let publicKey = Self.key.publicKey
        try await withThrowingTaskGroup(of: Bool.self) { group in
            for index in 0..<64 {
                group.addTask {
                    let message = Array("message \(index)".utf8)
                    let signature = try key.signature(for: message)
                    return publicKey.isValidSignature(
                        _RSA.Signing.RSASignature(rawRepresentation: signature), for: message, padding: .insecurePKCS1v1_5)
                }
            }
            for try await valid in group { #expect(valid) }
        }
    }
}
