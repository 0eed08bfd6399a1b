import Foundation
import HearthBase64URL

/// Random strings shaped like the providers' identifiers and secrets.
enum SandboxRandom {
    static func bytes(_ count: Int) -> Data {
        var generator = SystemRandomNumberGenerator()
        return Data((0..<count).map { _ in UInt8.random(in: 0...255, using: &generator) })
    }

    static func hex(bytes count: Int) -> String { bytes(count).hexString }

    static func base64URL(bytes count: Int) -> String { Base64URL.encode(bytes(count)) }

    static func string(_ count: Int, from alphabet: String) -> String {
        let characters = Array(alphabet)
        var generator = SystemRandomNumberGenerator()
        return String((0..<count).map { _ in characters[Int.random(in: 0..<characters.count, using: &generator)] })
    }

    static func alphanumeric(_ count: Int) -> String {
        string(count, from: "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789")
    }

    static func digits(_ count: Int) -> String {
        string(1, from: "123456789") + string(max(0, count - 1), from: "0123456789")
    }

    /// A lower-case UUID string.
    static func uuid() -> String { UUID().uuidString.lowercased() }
}
