import Crypto
import CryptoExtras
import Foundation

extension PasswordHasher {
    /// Verifies the formats ``PasswordHashImport/storedHash(passwordHash:salt:)`` writes (and `pbkdf2-sha256`).
    static func verifyImported(_ password: [UInt8], _ hash: EncodedPasswordHash) -> Bool {
        let fields = hash.fields
        switch hash.scheme {
        case "firebase-scrypt":
            guard hash.hasParameters(["r", "m"]), fields.count == 4, let r = hash.int("r", in: 1...8), let m = hash.int("m", in: 1...14),
                (1...PasswordHashImport.maximumKeyLength).contains(fields[2].count), fields[3].count == fields[2].count,
                let derived = try? FirebaseScrypt.hash(
                    password, salt: fields[0], saltSeparator: fields[1], signerKey: fields[2], rounds: r, memoryCost: m)
            else { return false }
            return constantTimeEqual(derived, fields[3])
        case "pbkdf2-sha1", "pbkdf2-sha256":
            guard hash.hasParameters(["i"]), fields.count == 2, let rounds = hash.int("i", in: 1...1_000_000),
                PasswordHashImport.derivedKeyLengths.contains(fields[1].count),
                let key = try? KDF.Insecure.PBKDF2.deriveKey(
                    from: password, salt: fields[0], using: hash.scheme == "pbkdf2-sha1" ? .insecureSHA1 : .sha256,
                    outputByteCount: fields[1].count, unsafeUncheckedRounds: rounds)
            else { return false }
            return constantTimeEqual(key.withUnsafeBytes { Array($0) }, fields[1])
        case "hmac-sha512", "hmac-sha256", "hmac-sha1", "hmac-md5":
            guard hash.hasParameters(["o"]), fields.count == 3, let message = message(password, salt: fields[1], order: hash.parameters["o"]),
                (1...PasswordHashImport.maximumKeyLength).contains(fields[0].count), fields[2].count == LegacyDigest.size(hash.scheme)
            else { return false }
            return constantTimeEqual(LegacyDigest.hmac(hash.scheme, key: fields[0], message), fields[2])
        case "sha512", "sha256", "sha1", "md5":
            guard hash.hasParameters(["r", "o"]), fields.count == 2, let rounds = hash.int("r", in: 0...8192),
                let message = message(password, salt: fields[0], order: hash.parameters["o"]),
                LegacyDigest.matchesLength(hash.scheme, rounds: rounds, hash: fields[1])
            else { return false }
            let digest = LegacyDigest.repeated(hash.scheme, rounds: rounds, message)
            if fields[1].count == digest.count { return constantTimeEqual(digest, fields[1]) }
            return constantTimeEqual(LegacyDigest.hex(digest), fields[1].map { (65...70).contains($0) ? $0 + 32 : $0 })
        default:
            return false
        }
    }

    /// The hashed message: `sp` is salt ‖ password, `ps` password ‖ salt.
    private static func message(_ password: [UInt8], salt: [UInt8], order: String?) -> [UInt8]? {
        switch order {
        case "sp": salt + password
        case "ps": password + salt
        default: nil
        }
    }
}
