import Crypto
import Foundation

/// A name for an API key that can go in a log: `key-` and the first 8 hex digits of its SHA-256. It tells an
/// operator's keys apart without revealing one.
public enum APIKeyName {
    public static func of(_ key: String) -> String {
        if let known = known.withLock({ $0[key] }) { return known }
        let digits = Array("0123456789abcdef".utf8)
        var text = Array("key-".utf8)
        for byte in SHA256.hash(data: Data(key.utf8)).prefix(4) {
            text += [digits[Int(byte >> 4)], digits[Int(byte & 0xF)]]
        }
        let name = String(decoding: text, as: UTF8.self)
        // A project has a few keys, named on every request; what callers invent is not kept.
        known.withLock { if $0.count < 16 { $0[key] = name } }
        return name
    }

    private static let known = LockedBox<[String: String]>([:])
}
