import Foundation

#if canImport(CryptoKit)
import CryptoKit
#endif

/// The nonce of a Sign in with Apple (or OpenID Connect) request: send ``sha256Hex(_:)`` of a fresh
/// ``random(length:)`` to the provider, keep the raw value, and pass it to
/// ``OAuthProvider/appleCredential(withIDToken:rawNonce:fullName:)``. The server checks that the ID token's
/// `nonce` is the SHA-256 of the raw nonce, so a stolen token cannot be replayed with another nonce.
public enum AuthNonce {
    /// The characters of a nonce, as Firebase's Sign in with Apple guide uses them.
    static let charset = Array("0123456789ABCDEFGHIJKLMNOPQRSTUVXYZabcdefghijklmnopqrstuvwxyz-._")

    /// A random nonce from the system's cryptographically secure generator.
    /// - Parameter length: number of characters; at least 1 (32 is customary).
    public static func random(length: Int = 32) -> String {
        precondition(length > 0, "A nonce needs at least one character.")
        var generator = SystemRandomNumberGenerator()
        // Each character is drawn uniformly: `randomElement(using:)` rejects biased values.
        return String((0..<length).map { _ in charset.randomElement(using: &generator)! })
    }

    /// The lowercase hexadecimal SHA-256 of the nonce's UTF-8 bytes: CryptoKit's on Apple platforms,
    /// HearthAuth's own FIPS 180-4 implementation elsewhere.
    public static func sha256Hex(_ input: String) -> String {
        #if canImport(CryptoKit)
        let digest = Array(SHA256.hash(data: Data(input.utf8)))
        #else
        let digest = PortableSHA256.hash(input.utf8)
        #endif
        return digest.map { byte in
            let hex = String(byte, radix: 16)
            return byte < 16 ? "0" + hex : hex
        }.joined()
    }
}
