import Crypto
import Foundation

/// The plain and keyed digests of imported hashes (`sha256`, `hmac-sha256`, …), by their stored scheme name.
enum LegacyDigest {
    /// Output size in bytes of `scheme`'s digest, or `nil` for an unknown scheme.
    static func size(_ scheme: String) -> Int? {
        switch scheme.replacingOccurrences(of: "hmac-", with: "") {
        case "sha512": 64
        case "sha256": 32
        case "sha1": 20
        case "md5": 16
        default: nil
        }
    }

    /// Whether `hash` has the length of `scheme`'s output (for MD5 with rounds 0 also: its lowercase hex text).
    static func matchesLength(_ scheme: String, rounds: Int, hash: [UInt8]) -> Bool {
        guard let size = size(scheme) else { return false }
        return hash.count == size || (scheme == "md5" && rounds == 0 && hash.count == 2 * size)
    }

    static func hash(_ scheme: String, _ data: [UInt8]) -> [UInt8] {
        switch scheme {
        case "sha512": Array(SHA512.hash(data: data))
        case "sha256": Array(SHA256.hash(data: data))
        case "sha1": Array(Insecure.SHA1.hash(data: data))
        default: Array(Insecure.MD5.hash(data: data))
        }
    }

    static func hmac(_ scheme: String, key: [UInt8], _ data: [UInt8]) -> [UInt8] {
        let key = SymmetricKey(data: key)
        switch scheme {
        case "hmac-sha512": return Array(HMAC<SHA512>.authenticationCode(for: data, using: key))
        case "hmac-sha256": return Array(HMAC<SHA256>.authenticationCode(for: data, using: key))
        case "hmac-sha1": return Array(HMAC<Insecure.SHA1>.authenticationCode(for: data, using: key))
        default: return Array(HMAC<Insecure.MD5>.authenticationCode(for: data, using: key))
        }
    }

    /// `rounds` hashes: the first over `data`, each next one over the previous digest (0 counts as 1).
    static func repeated(_ scheme: String, rounds: Int, _ data: [UInt8]) -> [UInt8] {
        var digest = hash(scheme, data)
        for _ in 1..<max(rounds, 1) { digest = hash(scheme, digest) }
        return digest
    }

    static func hex(_ bytes: [UInt8]) -> [UInt8] {
        let digits = Array("0123456789abcdef".utf8)
        return bytes.flatMap { [digits[Int($0 >> 4)], digits[Int($0 & 0x0f)]] }
    }
}
