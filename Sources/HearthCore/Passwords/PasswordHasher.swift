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
        let derived = try Self.scrypt(password, salt: salt, logN: logN, r: blockSize, p: parallelism)
        return "$scrypt$ln=\(logN),r=\(blockSize),p=\(parallelism)$\(Data(salt).base64EncodedString())$\(derived.base64EncodedString())"
    }

    /// Whether `password` matches `encoded`. Unknown or malformed encodings never match.
    public func verify(_ password: String, against encoded: String) -> Bool {
        let parts = encoded.split(separator: "$", omittingEmptySubsequences: true).map(String.init)
        guard parts.count == 4,
            let salt = Data(base64Encoded: parts[2]), let expected = Data(base64Encoded: parts[3])
        else { return false }
        let params = Self.parameters(parts[1])
        let derived: Data
        switch parts[0] {
        case "scrypt":
            guard let ln = params["ln"], let r = params["r"], let p = params["p"], (1...20).contains(ln), (1...32).contains(r), (1...16).contains(p),
                let value = try? Self.scrypt(password, salt: Array(salt), logN: ln, r: r, p: p)
            else { return false }
            derived = value
        case "pbkdf2-sha256":
            guard let rounds = params["i"], rounds > 0,
                let key = try? KDF.Insecure.PBKDF2.deriveKey(
                    from: Array(password.utf8), salt: Array(salt), using: .sha256,
                    outputByteCount: expected.count, unsafeUncheckedRounds: rounds)
            else { return false }
            derived = key.withUnsafeBytes { Data($0) }
        default:
            return false
        }
        return Self.constantTimeEqual(derived, expected)
    }

    /// Whether a hash was made with weaker parameters than this hasher's and should be redone at sign-in.
    public func needsRehash(_ encoded: String) -> Bool {
        !encoded.hasPrefix("$scrypt$ln=\(logN),r=\(blockSize),p=\(parallelism)$")
    }

    private static func scrypt(_ password: String, salt: [UInt8], logN: Int, r: Int, p: Int) throws -> Data {
        let key = try KDF.Scrypt.deriveKey(
            from: Array(password.utf8), salt: salt, outputByteCount: 32,
            rounds: 1 << logN, blockSize: r, parallelism: p)
        return key.withUnsafeBytes { Data($0) }
    }

    private static func parameters(_ text: String) -> [String: Int] {
        var result: [String: Int] = [:]
        for pair in text.split(separator: ",") {
            let kv = pair.split(separator: "=", maxSplits: 1)
            if kv.count == 2, let value = Int(kv[1]) { result[String(kv[0])] = value }
        }
        return result
    }

    private static func constantTimeEqual(_ a: Data, _ b: Data) -> Bool {
        guard a.count == b.count else { return false }
        var diff: UInt8 = 0
        for (x, y) in zip(a, b) { diff |= x ^ y }
        return diff == 0
    }
}
