/// Base64url without padding (RFC 4648 §5), as JWS (RFC 7515 §2), PKCE and Hearth's own tokens write it: the
/// one encoder and decoder of the server, the sandbox and the SDK. No Foundation, so it runs wherever they do.
public enum Base64URL {
    /// The 64 characters, in the order of their values.
    private static let alphabet: [UInt8] = Array("ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_".utf8)

    /// The base64url text of `bytes`, without padding.
    public static func encode(_ bytes: some Sequence<UInt8>) -> String {
        if let text = bytes.withContiguousStorageIfAvailable(encode(buffer:)) { return text }
        return Array(bytes).withUnsafeBufferPointer(encode(buffer:))
    }

    private static func encode(buffer bytes: UnsafeBufferPointer<UInt8>) -> String {
        var text: [UInt8] = []
        text.reserveCapacity((bytes.count * 4 + 2) / 3)
        var index = 0
        while index + 3 <= bytes.count {
            let group = UInt32(bytes[index]) << 16 | UInt32(bytes[index + 1]) << 8 | UInt32(bytes[index + 2])
            text.append(alphabet[Int(group >> 18)])
            text.append(alphabet[Int(group >> 12 & 0x3F)])
            text.append(alphabet[Int(group >> 6 & 0x3F)])
            text.append(alphabet[Int(group & 0x3F)])
            index += 3
        }
        switch bytes.count - index {
        case 1:
            let group = UInt32(bytes[index]) << 16
            text.append(alphabet[Int(group >> 18)])
            text.append(alphabet[Int(group >> 12 & 0x3F)])
        case 2:
            let group = UInt32(bytes[index]) << 16 | UInt32(bytes[index + 1]) << 8
            text.append(alphabet[Int(group >> 18)])
            text.append(alphabet[Int(group >> 12 & 0x3F)])
            text.append(alphabet[Int(group >> 6 & 0x3F)])
        default:
            break
        }
        return String(decoding: text, as: UTF8.self)
    }

    /// The bytes that `text` encodes, or `nil` unless it is exactly what ``encode(_:)`` writes: padding (`=`),
    /// whitespace, standard base64's `+` and `/`, any other character, a length that leaves one character over,
    /// and a last character whose unused low bits are not zero are all refused, so each byte string has one
    /// text and a token cannot be altered without its bytes changing.
    public static func decode(_ text: some StringProtocol) -> [UInt8]? {
        // The work is done on a buffer: the generic view, unspecialized outside this module, cost more than the decoding.
        if let bytes = text.utf8.withContiguousStorageIfAvailable(decode(utf8:)) { return bytes }
        return Array(text.utf8).withUnsafeBufferPointer(decode(utf8:))
    }

    /// ``decode(_:)`` of text given as its UTF-8 bytes.
    public static func decode(utf8: UnsafeBufferPointer<UInt8>) -> [UInt8]? {
        var bytes: [UInt8] = []
        bytes.reserveCapacity(utf8.count / 4 * 3 + 2)
        var group: UInt32 = 0
        var count = 0
        let values = Self.values
        for character in utf8 {
            let value = values[Int(character)]
            guard value < 64 else { return nil }
            group = group << 6 | UInt32(value)
            count += 1
            if count == 4 {
                bytes.append(UInt8(truncatingIfNeeded: group >> 16))
                bytes.append(UInt8(truncatingIfNeeded: group >> 8))
                bytes.append(UInt8(truncatingIfNeeded: group))
                group = 0
                count = 0
            }
        }
        switch count {
        case 0:
            break
        case 2:  // 12 bits: one byte and four zero bits
            guard group & 0xF == 0 else { return nil }
            bytes.append(UInt8(truncatingIfNeeded: group >> 4))
        case 3:  // 18 bits: two bytes and two zero bits
            guard group & 0x3 == 0 else { return nil }
            bytes.append(UInt8(truncatingIfNeeded: group >> 10))
            bytes.append(UInt8(truncatingIfNeeded: group >> 2))
        default:  // one character carries 6 bits, not a byte
            return nil
        }
        return bytes
    }

    /// The value of each byte as a base64url character, 0xFF for the bytes that are none.
    private static let values: [UInt8] = (0...255).map { value(of: UInt8($0)) ?? 0xFF }

    /// The value of one base64url character, or `nil` for any other byte.
    private static func value(of character: UInt8) -> UInt8? {
        switch character {
        case UInt8(ascii: "A")...UInt8(ascii: "Z"): character - UInt8(ascii: "A")
        case UInt8(ascii: "a")...UInt8(ascii: "z"): character - UInt8(ascii: "a") + 26
        case UInt8(ascii: "0")...UInt8(ascii: "9"): character - UInt8(ascii: "0") + 52
        case UInt8(ascii: "-"): 62
        case UInt8(ascii: "_"): 63
        default: nil
        }
    }
}
