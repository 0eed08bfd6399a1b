import CRS256
import Crypto
import CryptoExtras
import Foundation
import HearthBase64URL

/// A token-signing key's private half, as the server signs with it: RS256 (RSASSA-PKCS1-v1_5 with SHA-256).
///
/// Two libraries can make the signature, and they make the same bytes (PKCS#1 v1.5 is deterministic): swift-crypto's
/// BoringSSL, always there, and the system's libcrypto (OpenSSL 3), whose RSA uses the fastest instructions of the CPU
/// it runs on (on a CPU with AVX-512 IFMA about twice BoringSSL's rate). ``RS256Library/preferred`` picks the faster
/// one on this machine once per process, by a short calibration; a key the system library cannot read falls back to
/// swift-crypto.
public struct RS256SigningKey: Sendable {
    enum Backend: Sendable {
        case swiftCrypto(_RSA.Signing.PrivateKey)
        case libcrypto(LibCryptoRSAKey)
    }

    let backend: Backend

    /// Reads a PEM private key (PKCS#1 or PKCS#8) for `library`.
    public init(pemRepresentation pem: String, library: RS256Library = .preferred) throws {
        if library == .libcrypto, let key = LibCryptoRSAKey(pem: pem) {
            backend = .libcrypto(key)
        } else {
            backend = .swiftCrypto(try _RSA.Signing.PrivateKey(pemRepresentation: pem))
        }
    }

    /// Which library signs with this key.
    public var library: RS256Library {
        switch backend {
        case .swiftCrypto: .swiftCrypto
        case .libcrypto: .libcrypto
        }
    }

    /// The RS256 signature of `message`.
    public func signature(for message: some ContiguousBytes) throws -> [UInt8] {
        switch backend {
        case .swiftCrypto(let key):
            let digest = message.withUnsafeBytes { SHA256.hash(data: $0) }
            return try key.signature(for: digest, padding: .insecurePKCS1v1_5).withUnsafeBytes { Array($0) }
        case .libcrypto(let key):
            return try key.signature(for: message)
        }
    }

    /// A compact JWS: `signingInput` (the base64url header and payload joined by a dot), a dot, and the base64url
    /// signature of `signingInput`.
    public func jws(signingInput: String) throws -> String {
        var input = signingInput
        let signature = try input.withUTF8 { try self.signature(for: UnsafeRawBufferPointer($0)) }
        input.append(".")
        input.append(Base64URL.encode(signature))
        return input
    }
}

/// The library that makes RS256 signatures (``RS256SigningKey``).
public enum RS256Library: String, Sendable, CaseIterable {
    /// swift-crypto's BoringSSL, in the binary.
    case swiftCrypto = "swift-crypto"
    /// The system's OpenSSL libcrypto, linked dynamically.
    case libcrypto

    /// The faster of the two on this machine (``calibrate(rounds:)``), measured once, on first use.
    public static let preferred: RS256Library = calibrate().faster

    /// The system libcrypto's version, as it names itself ("OpenSSL 3.0.17 1 Jul 2025").
    public static var libcryptoVersion: String { String(cString: hearth_rs256_library_version()) }

    /// What ``calibrate(rounds:)`` found.
    public struct Calibration: Sendable {
        /// Seconds per signature with each library on one thread.
        public var secondsPerSignature: [RS256Library: Double]
        public var faster: RS256Library {
            secondsPerSignature.min { $0.value < $1.value }?.key ?? .swiftCrypto
        }
    }

    /// Signs a JWT-sized input `rounds` times with each library, alternating in batches, with a 2048-bit key made for
    /// it, and keeps each library's fastest batch. About 20 ms on a current CPU, once. The fastest batch, not the sum:
    /// on a busy machine (a server starting beside a build) one preemption of a few milliseconds in a batch outweighs
    /// the whole difference between the libraries (40 libcrypto signatures take about 10 ms), and a sum then chose the
    /// slower library for the life of the process.
    public static func calibrate(rounds: Int = 40) -> Calibration {
        guard let pem = try? _RSA.Signing.PrivateKey(keySize: .bits2048).pemRepresentation,
            let fast = try? RS256SigningKey(pemRepresentation: pem, library: .libcrypto), fast.library == .libcrypto,
            let portable = try? RS256SigningKey(pemRepresentation: pem, library: .swiftCrypto)
        else { return Calibration(secondsPerSignature: [.swiftCrypto: 0]) }
        let input = Array(repeating: UInt8(ascii: "e"), count: 600)
        var fastest: [RS256Library: Double] = [:]
        let batch = 5
        for _ in 0..<max(1, rounds / batch) {
            for key in [fast, portable] {
                let start = DispatchTime.now().uptimeNanoseconds
                for _ in 0..<batch { _ = try? key.signature(for: input) }
                let seconds = Double(DispatchTime.now().uptimeNanoseconds - start) / 1e9 / Double(batch)
                fastest[key.library] = min(fastest[key.library] ?? .infinity, seconds)
            }
        }
        return Calibration(secondsPerSignature: fastest)
    }
}

/// An RSA private key held by the system's libcrypto (CRS256), freed with the last reference. libcrypto signs with
/// one key from many threads at once: each signature copies the key's prepared context.
final class LibCryptoRSAKey: @unchecked Sendable {
    private let key: OpaquePointer
    private let signatureLength: Int

    init?(pem: String) {
        var pem = pem
        guard let key = pem.withUTF8({ hearth_rs256_key_new($0.baseAddress, $0.count) }) else { return nil }
        self.key = key
        signatureLength = hearth_rs256_signature_length(key)
    }

    deinit { hearth_rs256_key_free(key) }

    func signature(for message: some ContiguousBytes) throws -> [UInt8] {
        let signature = [UInt8](unsafeUninitializedCapacity: signatureLength) { buffer, count in
            count = message.withUnsafeBytes { message in
                hearth_rs256_sign(key, message.baseAddress?.assumingMemoryBound(to: UInt8.self), message.count, buffer.baseAddress, buffer.count)
            }
        }
        guard signature.count == signatureLength else { throw LibCryptoError() }
        return signature
    }

    struct LibCryptoError: Error, CustomStringConvertible {
        var description: String { "the system's libcrypto could not sign" }
    }
}
