import Foundation

/// Percent-encoding as RFC 3986 and RFC 5849 §3.6 define it, and `application/x-www-form-urlencoded` parsing.
enum FormEncoding {
    /// RFC 5849 §3.6: UTF-8, only `A–Z a–z 0–9 - . _ ~` left as is, everything else `%XX` with upper-case hex.
    static func percentEncode(_ text: String) -> String {
        var result = ""
        for byte in text.utf8 {
            switch byte {
            case UInt8(ascii: "A")...UInt8(ascii: "Z"), UInt8(ascii: "a")...UInt8(ascii: "z"),
                UInt8(ascii: "0")...UInt8(ascii: "9"), UInt8(ascii: "-"), UInt8(ascii: "."), UInt8(ascii: "_"),
                UInt8(ascii: "~"):
                result.unicodeScalars.append(Unicode.Scalar(byte))
            default:
                result += String(format: "%%%02X", byte)
            }
        }
        return result
    }

    /// Decodes `%XX` escapes (and `+` as a space when `plusIsSpace`); `nil` on a malformed escape or invalid UTF-8.
    static func percentDecode(_ text: some StringProtocol, plusIsSpace: Bool) -> String? {
        var bytes: [UInt8] = []
        var iterator = Array(text.utf8).makeIterator()
        while let byte = iterator.next() {
            if byte == UInt8(ascii: "%") {
                guard let high = iterator.next().flatMap(hexValue), let low = iterator.next().flatMap(hexValue) else {
                    return nil
                }
                bytes.append(high << 4 | low)
            } else if byte == UInt8(ascii: "+") && plusIsSpace {
                bytes.append(UInt8(ascii: " "))
            } else {
                bytes.append(byte)
            }
        }
        return String(validating: bytes, as: UTF8.self)
    }

    /// Name/value pairs of a form-encoded string, in order, duplicates kept; `nil` if any escape is malformed.
    static func pairs(_ text: some StringProtocol) -> [(name: String, value: String)]? {
        var result: [(name: String, value: String)] = []
        for part in text.split(separator: "&", omittingEmptySubsequences: true) {
            let pieces = part.split(separator: "=", maxSplits: 1, omittingEmptySubsequences: false)
            guard let name = percentDecode(pieces[0], plusIsSpace: true) else { return nil }
            let value = pieces.count > 1 ? percentDecode(pieces[1], plusIsSpace: true) : ""
            guard let value else { return nil }
            result.append((name, value))
        }
        return result
    }

    /// The form as a dictionary (first value wins); empty when malformed.
    static func dictionary(_ text: some StringProtocol) -> [String: String] {
        var result: [String: String] = [:]
        for pair in pairs(text) ?? [] where result[pair.name] == nil {
            result[pair.name] = pair.value
        }
        return result
    }

    /// Encodes pairs as a form body.
    static func encode(_ pairs: [(String, String)]) -> String {
        pairs.map { "\(percentEncode($0.0))=\(percentEncode($0.1))" }.joined(separator: "&")
    }

    private static func hexValue(_ byte: UInt8) -> UInt8? {
        switch byte {
        case UInt8(ascii: "0")...UInt8(ascii: "9"): byte - UInt8(ascii: "0")
        case UInt8(ascii: "a")...UInt8(ascii: "f"): byte - UInt8(ascii: "a") + 10
        case UInt8(ascii: "A")...UInt8(ascii: "F"): byte - UInt8(ascii: "A") + 10
        default: nil
        }
    }
}
