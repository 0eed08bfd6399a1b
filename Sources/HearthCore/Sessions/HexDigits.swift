/// Lowercase hexadecimal text of bytes (digests, key ids), without `String(format:)`.
public enum HexDigits {
    /// The 16 digits as ASCII bytes.
    private static let digits: [UInt8] = Array("0123456789abcdef".utf8)

    /// Two lowercase hex digits per byte, most significant nibble first: `[0x0a, 0xff]` → `"0aff"`.
    public static func lowercase<Bytes: Sequence<UInt8>>(_ bytes: Bytes) -> String {
        var ascii: [UInt8] = []
        ascii.reserveCapacity(bytes.underestimatedCount * 2)
        digits.withUnsafeBufferPointer { digits in
            for byte in bytes {
                ascii.append(digits[Int(byte >> 4)])
                ascii.append(digits[Int(byte & 0x0f)])
            }
        }
        return String(decoding: ascii, as: UTF8.self)
    }
}
