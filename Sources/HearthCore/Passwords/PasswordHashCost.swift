import Crypto
import CryptoExtras
import Foundation

#if canImport(Glibc)
// With swift-certificates in the module graph (HearthWebAuthn), `timespec` resolves to CoreFoundation's import of it.
import CoreFoundation
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// What one check of a stored hash costs on this machine, estimated from its parameters and from rates
/// measured here: scrypt work is N·r·p, bcrypt's 2^cost rounds, PBKDF2's iterations; the plain and keyed
/// digests (at most 8192 hashes) count as nothing.
public struct PasswordHashCost: Sendable, Equatable {
    /// Seconds per unit of scrypt work (one N·r·p).
    public var scryptSecondsPerUnit: Double
    /// Seconds per round of bcrypt's key schedule (a hash of cost c runs 2^c).
    public var bcryptSecondsPerRound: Double
    /// Seconds per PBKDF2 iteration (measured with SHA-256; SHA-1 is taken to cost the same).
    public var pbkdf2SecondsPerIteration: Double

    public init(scryptSecondsPerUnit: Double, bcryptSecondsPerRound: Double, pbkdf2SecondsPerIteration: Double) {
        self.scryptSecondsPerUnit = scryptSecondsPerUnit
        self.bcryptSecondsPerRound = bcryptSecondsPerRound
        self.pbkdf2SecondsPerIteration = pbkdf2SecondsPerIteration
    }

    /// Estimated seconds of one check against `encoded`; `nil` for a string no check runs for (unknown,
    /// malformed, or beyond the format's own limits: see ``PasswordHasher/verify(_:against:)``).
    public func seconds(_ encoded: String) -> Double? {
        if encoded.hasPrefix("$2") { return Bcrypt.cost(of: encoded).map { Double(1 << $0) * bcryptSecondsPerRound } }
        guard let hash = EncodedPasswordHash(encoded) else { return nil }
        switch hash.scheme {
        case "scrypt":
            guard let ln = hash.int("ln", in: 1...20), let r = hash.int("r", in: 1...32), let p = hash.int("p", in: 1...16) else { return nil }
            return Double((1 << ln) * r * p) * scryptSecondsPerUnit
        case "firebase-scrypt":
            guard let r = hash.int("r", in: 1...8), let m = hash.int("m", in: 1...14) else { return nil }
            return Double((1 << m) * r) * scryptSecondsPerUnit
        case "pbkdf2-sha1", "pbkdf2-sha256":
            return hash.int("i", in: 1...1_000_000).map { Double($0) * pbkdf2SecondsPerIteration }
        case "hmac-sha512", "hmac-sha256", "hmac-sha1", "hmac-md5", "sha512", "sha256", "sha1", "md5":
            return 0
        default:
            return nil
        }
    }

    /// Estimated seconds of one check of a hash imported with `options` (for the parameters the whole batch
    /// shares; a bcrypt hash carries its own cost, so `nil` for BCRYPT).
    public func seconds(_ options: PasswordHashImport) -> Double? {
        switch options.algorithm {
        case .standardScrypt:
            guard let n = options.cpuMemCost, let r = options.blockSize, let p = options.parallelization else { return nil }
            return Double(n) * Double(r) * Double(p) * scryptSecondsPerUnit
        case .scrypt:
            guard let m = options.memoryCost, let r = options.rounds, (0...20).contains(m) else { return nil }
            return Double(1 << m) * Double(r) * scryptSecondsPerUnit
        case .pbkdfSHA1, .pbkdf2SHA256:
            return options.rounds.map { Double(max($0, 1)) * pbkdf2SecondsPerIteration }
        case .bcrypt:
            return nil
        case .hmacSHA512, .hmacSHA256, .hmacSHA1, .hmacMD5, .sha512, .sha256, .sha1, .md5:
            return 0
        }
    }

    /// Measures the rates on this machine: one scrypt check at `hasher`'s parameters, but at N = 2^14 at least
    /// (so a cheap test hasher measures real work, not its overhead), one bcrypt check at cost 6 and 20,000
    /// PBKDF2-SHA256 iterations, each the fastest of `runs`. Takes about 3 × 50 ms in a release build.
    ///
    /// CPU-bound: call it off the event loop (``PasswordHashing/measured(hasher:importedCostLimit:importedConcurrency:threads:)``
    /// does).
    public static func measure(_ hasher: PasswordHasher, runs: Int = 2) -> PasswordHashCost {
        let logN = max(hasher.logN, 14)
        let salt = [UInt8](repeating: 0x5a, count: 16)
        let password = Array("measure the cost of a check".utf8)
        let scrypt = fastest(runs) {
            _ = try? KDF.Scrypt.deriveKey(
                from: password, salt: salt, outputByteCount: 32, rounds: 1 << logN, blockSize: hasher.blockSize,
                parallelism: hasher.parallelism)
        }
        let bcryptHash = (try? Bcrypt.hash("measure the cost of a check", cost: 6)) ?? ""
        let bcrypt = fastest(runs) { _ = Bcrypt.verify("measure the cost of a check", against: bcryptHash) }
        let pbkdf2 = fastest(runs) {
            _ = try? KDF.Insecure.PBKDF2.deriveKey(from: password, salt: salt, using: .sha256, outputByteCount: 32, unsafeUncheckedRounds: 20_000)
        }
        return PasswordHashCost(
            scryptSecondsPerUnit: scrypt / Double((1 << logN) * hasher.blockSize * hasher.parallelism),
            bcryptSecondsPerRound: bcrypt / Double(1 << 6), pbkdf2SecondsPerIteration: pbkdf2 / 20_000)
    }

    /// The least CPU time of the calling thread that `work` took in `runs` runs. CPU time, not wall time: on a loaded
    /// machine the wall time of one algorithm's run grows with whatever else runs then, and the budget compares
    /// algorithms measured at different moments (a slow measure of the server's own check once admitted bcrypt 16).
    private static func fastest(_ runs: Int, _ work: () -> Void) -> Double {
        var best = Double.infinity
        for _ in 0..<max(runs, 1) {
            let start = threadCPUSeconds()
            work()
            best = min(best, threadCPUSeconds() - start)
        }
        return best
    }

    private static func threadCPUSeconds() -> Double {
        var time = timespec()
        clock_gettime(CLOCK_THREAD_CPUTIME_ID, &time)
        return Double(time.tv_sec) + Double(time.tv_nsec) / 1e9
    }
}
