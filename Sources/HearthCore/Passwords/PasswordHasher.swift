import Crypto
import CryptoExtras
import Foundation

/// Hashes and verifies passwords.
///
/// Hashes are stored as self-describing strings, so the algorithm and its parameters can change
/// while old hashes keep verifying:
///
///     $scrypt$ln=14,r=8,p=1$<salt, base64>$<hash, base64>
///     $pbkdf2-sha256$i=600000$<salt, base64>$<hash, base64>
///
/// ``verify(_:against:)`` also knows the formats of hashes imported from other systems (Firebase scrypt,
/// bcrypt, PBKDF2, HMAC, plain digests; see ``PasswordHashImport``); ``needsRehash(_:)`` is true for them.
///
/// Hashing is CPU-bound and deliberately slow: call it off the event loop.
public struct PasswordHasher: Sendable, Equatable {
    /// scrypt cost: N = 2^logN.
    public var logN: Int
    public var blockSize: Int
    public var parallelism: Int

    public init(logN: Int = 14, blockSize: Int = 8, parallelism: Int = 1) {
        self.logN = logN
        self.blockSize = blockSize
        self.parallelism = parallelism
    }

    /// A cheap cost for tests and benchmarks of other paths; never use it in production.
    public static let fastForTesting = PasswordHasher(logN: 4, blockSize: 8, parallelism: 1)

    public func hash(_ password: String) throws -> String {
        var salt = [UInt8](repeating: 0, count: 16)
        var generator = SystemRandomNumberGenerator()
        for i in salt.indices { salt[i] = UInt8.random(in: .min ... .max, using: &generator) }
        let derived = try Self.scrypt(Array(password.utf8), salt: salt, logN: logN, r: blockSize, p: parallelism, length: 32)
        return "$scrypt$ln=\(logN),r=\(blockSize),p=\(parallelism)$\(Data(salt).base64EncodedString())$\(Data(derived).base64EncodedString())"
    }

    /// Whether `password` matches `encoded`. Unknown or malformed encodings never match.
    ///
    /// Besides Hearth's own formats this knows the imported ones (see ``PasswordHashImport``) and bcrypt
    /// strings. Costs are bounded per format, so no stored string can make one check allocate or run unboundedly.
    public func verify(_ password: String, against encoded: String) -> Bool {
        if encoded.hasPrefix("$2") { return Bcrypt.verify(password, against: encoded) }
        guard let hash = EncodedPasswordHash(encoded) else { return false }
        let password = Array(password.utf8)
        switch hash.scheme {
        case "scrypt":
            guard hash.hasParameters(["ln", "r", "p"]), hash.fields.count == 2,
                let ln = hash.int("ln", in: 1...20), let r = hash.int("r", in: 1...32), let p = hash.int("p", in: 1...16),
                128 * r << ln <= PasswordHashImport.scryptMaximumMemory, r * p << ln <= PasswordHashImport.scryptMaximumWork,
                PasswordHashImport.derivedKeyLengths.contains(hash.fields[1].count),
                let derived = try? Self.scrypt(password, salt: hash.fields[0], logN: ln, r: r, p: p, length: hash.fields[1].count)
            else { return false }
            return constantTimeEqual(derived, hash.fields[1])
        default:
            return Self.verifyImported(password, hash)
        }
    }

    /// Whether a hash was made with weaker parameters than this hasher's and should be redone at sign-in: true
    /// for every format but this hasher's own scrypt (an imported scrypt hash of another length included).
    public func needsRehash(_ encoded: String) -> Bool {
        guard encoded.hasPrefix("$scrypt$ln=\(logN),r=\(blockSize),p=\(parallelism)$"), let hash = EncodedPasswordHash(encoded),
            hash.fields.count == 2
        else { return true }
        return hash.fields[1].count != 32
    }

    private static func scrypt(_ password: [UInt8], salt: [UInt8], logN: Int, r: Int, p: Int, length: Int) throws -> [UInt8] {
        let key = try KDF.Scrypt.deriveKey(
            from: password, salt: salt, outputByteCount: length, rounds: 1 << logN, blockSize: r, parallelism: p)
        return key.withUnsafeBytes { Array($0) }
    }
}
