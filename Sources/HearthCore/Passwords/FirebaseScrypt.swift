import Crypto
import CryptoExtras
import Foundation

/// Firebase's modified scrypt (github.com/firebase/scrypt).
///
/// `key = scrypt(password, salt ‖ saltSeparator, N = 2^memoryCost, r = rounds, p = 1, 32 bytes)`; the hash is
/// the project's signer key encrypted with AES-256-CTR under `key`, counter block all zeros. So the hash is as
/// long as the signer key.
enum FirebaseScrypt {
    static func hash(
        _ password: [UInt8], salt: [UInt8], saltSeparator: [UInt8], signerKey: [UInt8], rounds: Int, memoryCost: Int
    ) throws -> [UInt8] {
        let key = try KDF.Scrypt.deriveKey(
            from: password, salt: salt + saltSeparator, outputByteCount: 32, rounds: 1 << memoryCost, blockSize: rounds,
            parallelism: 1)
        let zeroCounter = try AES._CTR.Nonce(nonceBytes: [UInt8](repeating: 0, count: 16))
        return Array(try AES._CTR.encrypt(signerKey, using: key, nonce: zeroCounter))
    }
}
