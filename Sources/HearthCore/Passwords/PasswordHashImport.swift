import Foundation

/// How imported password hashes were made: the hash options of Identity Toolkit's `accounts:batchCreate`
/// (and of the Admin SDKs' `importUsers`, the Firebase CLI's `auth:import`).
///
/// ``storedHash(passwordHash:salt:)`` turns one user's imported hash into the self-describing string Hearth
/// stores; ``PasswordHasher/verify(_:against:)`` checks a password against it, and
/// ``PasswordHasher/needsRehash(_:)`` is true for all of them, so the first sign-in moves the user to scrypt.
///
/// What each algorithm computes (password and salt are bytes; the password is UTF-8):
/// - `SCRYPT`, Firebase's own: `key = scrypt(password, salt ‖ saltSeparator, N = 2^memoryCost, r = rounds,
///   p = 1, 32 bytes)`, and the hash is `signerKey` encrypted with AES-256-CTR under `key` with an all-zero
///   counter block (github.com/firebase/scrypt; the tests check its README's vector and the one of
///   firebase-admin-node's import integration test). Stored as
///   `$firebase-scrypt$r=<rounds>,m=<memoryCost>$<salt>$<saltSeparator>$<signerKey>$<hash>`.
/// - `STANDARD_SCRYPT`: RFC 7914 scrypt with `N = cpuMemCost` (the Admin SDKs' `memoryCost`, an N such as 1024,
///   not its logarithm; firebase-admin-node's import integration test), `r = blockSize`, `p = parallelization`,
///   `dkLen` bytes. Stored in Hearth's own `$scrypt$ln=…,r=…,p=…$<salt>$<hash>` form.
/// - `BCRYPT`: the imported `passwordHash` is the ASCII `$2a$`/`$2b$`/`$2y$` string; stored as is (see ``Bcrypt``).
/// - `PBKDF_SHA1`, `PBKDF2_SHA256`: PBKDF2 (RFC 8018) over the password with the salt, `rounds` iterations,
///   the output as long as the imported hash. Stored as `$pbkdf2-sha1$i=…$<salt>$<hash>` (and `pbkdf2-sha256`).
///   The Admin SDKs accept `rounds = 0` but the backend rejects it (firebase-admin-node#1222); 0 is taken as 1.
/// - `HMAC_SHA512`, `HMAC_SHA256`, `HMAC_SHA1`, `HMAC_MD5`: `HMAC(key: signerKey, message)`. Firebase's
///   default message is password ‖ salt: firebase-admin-node's integration test imports
///   `HMAC-SHA256(key, password + salt)` without an order and signs in. Stored as
///   `$hmac-sha256$o=ps$<signerKey>$<salt>$<hash>` (`o=sp` for salt ‖ password).
/// - `SHA512`, `SHA256`, `SHA1`, `MD5`: `h = H(salt ‖ password)` by default (the same test; a maintainer in
///   firebase-admin-node#792: "SDK only support salt-first"), then `h = H(h)` until `rounds` hashes were taken.
///   Rounds 0 and 1 both mean one hash; 0 is allowed only for MD5 ("round = 0 only works for MD5", the Auth
///   team in firebase-tools#1701). For MD5 with rounds 0 Firebase's own test imports the lowercase hex digest
///   as the hash bytes (as does the MD5 import example in gist kmcnellis/a88f86a2), so both that and the raw
///   16 bytes are accepted. The repeated-hash rule for rounds > 1 is not documented by Firebase; this is the
///   usual reading. Stored as `$sha256$r=…,o=sp$<salt>$<hash>`.
///
/// Base64 in stored hashes is standard base64 with padding; any field may be empty (for example no salt).
///
/// Hearth's own limits, beyond Firebase's ranges, so that one verification stays bounded: bcrypt cost at most
/// 16 (``Bcrypt/costs``); STANDARD_SCRYPT N a power of two up to 2^20, r ≤ 32, p ≤ 16, 128·r·N ≤ 1 GiB,
/// N·r·p ≤ 2^24; scrypt and PBKDF2 outputs of 16–64 bytes; keys, separators and salts up to 1024 bytes. A
/// server narrows these by time: with its ``PasswordHashBudget`` (``validate(within:)``) it refuses any
/// parameters whose check would take longer than a multiple of its own.
public struct PasswordHashImport: Sendable, Equatable {
    /// Identity Toolkit's `hashAlgorithm` values.
    public enum Algorithm: String, Sendable, CaseIterable {
        case scrypt = "SCRYPT"
        case standardScrypt = "STANDARD_SCRYPT"
        case bcrypt = "BCRYPT"
        case pbkdfSHA1 = "PBKDF_SHA1"
        case pbkdf2SHA256 = "PBKDF2_SHA256"
        case hmacSHA512 = "HMAC_SHA512"
        case hmacSHA256 = "HMAC_SHA256"
        case hmacSHA1 = "HMAC_SHA1"
        case hmacMD5 = "HMAC_MD5"
        case sha512 = "SHA512"
        case sha256 = "SHA256"
        case sha1 = "SHA1"
        case md5 = "MD5"

        /// The algorithm named `name` on the wire; throws ``HearthError/Code/invalidHashParameter`` for any other name.
        public init(wireName name: String) throws {
            guard let algorithm = Algorithm(rawValue: name) else {
                throw Self.invalid("INVALID_HASH_ALGORITHM", "Unsupported hash algorithm provider \"\(name)\".")
            }
            self = algorithm
        }

        /// `detail` is what the client reads: the backend's error name, then the Admin SDKs' message.
        static func invalid(_ name: String, _ message: String) -> HearthError {
            HearthError(.invalidHashParameter, detail: "\(name) : \(message)", reason: name)
        }
    }

    /// Identity Toolkit's `passwordHashOrder`: which comes first in the hashed message.
    public enum Order: String, Sendable, CaseIterable {
        case saltAndPassword = "SALT_AND_PASSWORD"
        case passwordAndSalt = "PASSWORD_AND_SALT"
    }

    public var algorithm: Algorithm
    /// `signerKey`: the HMAC key, or Firebase scrypt's signer key.
    public var signerKey: [UInt8]
    /// `saltSeparator` (Firebase scrypt only).
    public var saltSeparator: [UInt8]
    public var rounds: Int?
    /// `memoryCost` (Firebase scrypt: N = 2^memoryCost).
    public var memoryCost: Int?
    /// `cpuMemCost` (STANDARD_SCRYPT's N).
    public var cpuMemCost: Int?
    public var parallelization: Int?
    public var blockSize: Int?
    public var dkLen: Int?
    /// `passwordHashOrder`; `nil` is Firebase's default: password first for HMAC, salt first for plain hashes.
    public var passwordHashOrder: Order?

    public init(
        algorithm: Algorithm, signerKey: [UInt8] = [], saltSeparator: [UInt8] = [], rounds: Int? = nil,
        memoryCost: Int? = nil, cpuMemCost: Int? = nil, parallelization: Int? = nil, blockSize: Int? = nil,
        dkLen: Int? = nil, passwordHashOrder: Order? = nil
    ) {
        self.algorithm = algorithm
        self.signerKey = signerKey
        self.saltSeparator = saltSeparator
        self.rounds = rounds
        self.memoryCost = memoryCost
        self.cpuMemCost = cpuMemCost
        self.parallelization = parallelization
        self.blockSize = blockSize
        self.dkLen = dkLen
        self.passwordHashOrder = passwordHashOrder
    }

    /// Limits that keep one verification bounded (STANDARD_SCRYPT: memory 128·r·N, work N·r·p; output sizes).
    static let scryptMaximumMemory = 1 << 30
    static let scryptMaximumWork = 1 << 24
    static let derivedKeyLengths = 16...64
    static let maximumKeyLength = 1024

    /// Checks the parameters the algorithm needs, with the Admin SDKs' messages in `detail`.
    ///
    /// Throws ``HearthError/Code/invalidHashParameter``; `reason` is the backend's error name (`INVALID_HASH_ROUNDS`,
    /// `INVALID_HASH_MEMORY_COST`, `INVALID_HASH_KEY`, `INVALID_HASH_PARALLELIZATION`, `INVALID_HASH_BLOCK_SIZE`,
    /// `INVALID_HASH_DERIVED_KEY_LENGTH`). With a `budget`, parameters whose checks would take longer than it
    /// allows are refused with the error of the parameter that sets the cost (`INVALID_HASH_MEMORY_COST` for
    /// the scrypts, `INVALID_HASH_ROUNDS` for PBKDF2).
    public func validate(within budget: PasswordHashBudget? = nil) throws {
        try validateRanges()
        guard let budget, !budget.admits(self) else { return }
        let name = algorithm.rawValue
        switch algorithm {
        case .scrypt:
            throw Algorithm.invalid(
                "INVALID_HASH_MEMORY_COST", "A valid \"hash.memoryCost\" number between 1 and 14 must be provided for hash algorithm \(name).")
        case .pbkdfSHA1, .pbkdf2SHA256:
            throw Algorithm.invalid(
                "INVALID_HASH_ROUNDS", "A valid \"hash.rounds\" number between 0 and 120000 must be provided for hash algorithm \(name).")
        default:
            throw Algorithm.invalid("INVALID_HASH_MEMORY_COST", "A valid \"hash.memoryCost\" number must be provided for hash algorithm \(name).")
        }
    }

    private func validateRanges() throws {
        let name = algorithm.rawValue
        func invalid(_ reason: String, _ message: String) -> HearthError { Algorithm.invalid(reason, message) }
        switch algorithm {
        case .hmacSHA512, .hmacSHA256, .hmacSHA1, .hmacMD5:
            guard (1...Self.maximumKeyLength).contains(signerKey.count) else {
                throw invalid("INVALID_HASH_KEY", "A non-empty \"hash.key\" byte buffer must be provided for hash algorithm \(name).")
            }
        case .md5, .sha1, .sha256, .sha512:
            let minimum = algorithm == .md5 ? 0 : 1
            guard let rounds, (minimum...8192).contains(rounds) else {
                throw invalid(
                    "INVALID_HASH_ROUNDS",
                    "A valid \"hash.rounds\" number between \(minimum) and 8192 must be provided for hash algorithm \(name).")
            }
        case .pbkdfSHA1, .pbkdf2SHA256:
            guard let rounds, (0...120_000).contains(rounds) else {
                throw invalid(
                    "INVALID_HASH_ROUNDS", "A valid \"hash.rounds\" number between 0 and 120000 must be provided for hash algorithm \(name).")
            }
        case .scrypt:
            guard (1...Self.maximumKeyLength).contains(signerKey.count) else {
                throw invalid("INVALID_HASH_KEY", "A \"hash.key\" byte buffer must be provided for hash algorithm \(name).")
            }
            guard let rounds, (1...8).contains(rounds) else {
                throw invalid("INVALID_HASH_ROUNDS", "A valid \"hash.rounds\" number between 1 and 8 must be provided for hash algorithm \(name).")
            }
            guard let memoryCost, (1...14).contains(memoryCost) else {
                throw invalid(
                    "INVALID_HASH_MEMORY_COST", "A valid \"hash.memoryCost\" number between 1 and 14 must be provided for hash algorithm \(name).")
            }
            guard saltSeparator.count <= Self.maximumKeyLength else {
                throw invalid("INVALID_HASH_SALT_SEPARATOR", "\"hash.saltSeparator\" must be a byte buffer.")
            }
        case .standardScrypt:
            // The Admin SDKs only ask for numbers; Hearth also needs them to be a valid, bounded scrypt.
            guard let n = cpuMemCost, n > 1, n.nonzeroBitCount == 1, n <= 1 << 20 else {
                throw invalid("INVALID_HASH_MEMORY_COST", "A valid \"hash.memoryCost\" number must be provided for hash algorithm \(name).")
            }
            guard let p = parallelization, (1...16).contains(p) else {
                throw invalid(
                    "INVALID_HASH_PARALLELIZATION", "A valid \"hash.parallelization\" number must be provided for hash algorithm \(name).")
            }
            guard let r = blockSize, (1...32).contains(r), 128 * r * n <= Self.scryptMaximumMemory, n * r * p <= Self.scryptMaximumWork else {
                throw invalid("INVALID_HASH_BLOCK_SIZE", "A valid \"hash.blockSize\" number must be provided for hash algorithm \(name).")
            }
            guard let dkLen, Self.derivedKeyLengths.contains(dkLen) else {
                throw invalid(
                    "INVALID_HASH_DERIVED_KEY_LENGTH", "A valid \"hash.derivedKeyLength\" number must be provided for hash algorithm \(name).")
            }
        case .bcrypt:
            break
        }
    }

    /// The string Hearth stores for one imported user: everything ``PasswordHasher/verify(_:against:)`` needs.
    ///
    /// Validates the options first (see ``validate()``). Throws ``HearthError/Code/invalidHashParameter`` with reason
    /// `INVALID_PASSWORD_HASH` when `passwordHash` cannot be a hash of this algorithm (wrong length, not a
    /// bcrypt string, a bcrypt cost outside ``Bcrypt/costs``, or with a `budget` a bcrypt hash whose check would
    /// take longer than it allows), so an import never stores a hash that can't match.
    public func storedHash(passwordHash: [UInt8], salt: [UInt8], within budget: PasswordHashBudget? = nil) throws -> String {
        try validate(within: budget)
        let invalidHash = Algorithm.invalid("INVALID_PASSWORD_HASH", "Invalid password hash for hash algorithm \(algorithm.rawValue).")
        func b64(_ bytes: [UInt8]) -> String { Data(bytes).base64EncodedString() }
        guard salt.count <= Self.maximumKeyLength else {
            throw Algorithm.invalid("INVALID_PASSWORD_SALT", "Invalid password salt.")
        }
        switch algorithm {
        case .scrypt:
            guard passwordHash.count == signerKey.count, let rounds, let memoryCost else { throw invalidHash }
            return "$firebase-scrypt$r=\(rounds),m=\(memoryCost)$\(b64(salt))$\(b64(saltSeparator))$\(b64(signerKey))$\(b64(passwordHash))"
        case .standardScrypt:
            guard passwordHash.count == dkLen, let n = cpuMemCost, let r = blockSize, let p = parallelization else { throw invalidHash }
            return "$scrypt$ln=\(n.trailingZeroBitCount),r=\(r),p=\(p)$\(b64(salt))$\(b64(passwordHash))"
        case .bcrypt:
            let text = String(decoding: passwordHash, as: UTF8.self)
            guard Bcrypt.cost(of: text) != nil, budget?.admits(text) ?? true else { throw invalidHash }
            return text
        case .pbkdfSHA1, .pbkdf2SHA256:
            guard Self.derivedKeyLengths.contains(passwordHash.count), let rounds else { throw invalidHash }
            let scheme = algorithm == .pbkdfSHA1 ? "pbkdf2-sha1" : "pbkdf2-sha256"
            return "$\(scheme)$i=\(max(rounds, 1))$\(b64(salt))$\(b64(passwordHash))"
        case .hmacSHA512, .hmacSHA256, .hmacSHA1, .hmacMD5:
            let scheme = Self.scheme(algorithm)
            guard passwordHash.count == LegacyDigest.size(scheme) else { throw invalidHash }
            let order = (passwordHashOrder ?? .passwordAndSalt) == .passwordAndSalt ? "ps" : "sp"
            return "$\(scheme)$o=\(order)$\(b64(signerKey))$\(b64(salt))$\(b64(passwordHash))"
        case .sha512, .sha256, .sha1, .md5:
            let scheme = Self.scheme(algorithm)
            guard let rounds, LegacyDigest.matchesLength(scheme, rounds: rounds, hash: passwordHash) else { throw invalidHash }
            let order = (passwordHashOrder ?? .saltAndPassword) == .passwordAndSalt ? "ps" : "sp"
            return "$\(scheme)$r=\(rounds),o=\(order)$\(b64(salt))$\(b64(passwordHash))"
        }
    }

    private static func scheme(_ algorithm: Algorithm) -> String {
        algorithm.rawValue.lowercased().replacingOccurrences(of: "_", with: "-")
    }
}
