/// `application/x-www-form-urlencoded` (and RFC 3986 / RFC 5849 §3.6 percent-encoding), as the server, the
/// providers and the sandbox read and write it: the one form codec of Hearth. No Foundation, no Hearth
/// dependencies, so both sides of the sandbox boundary use it.
///
/// Reading comes in two strengths. ``pairs(_:)`` refuses a malformed escape or invalid UTF-8 (`nil`);
/// ``lenientPairs(_:)`` keeps such a component as written, as Firebase does with a `postBody`. What to do with
/// a repeated name is the caller's rule: ``firstValues(_:)`` keeps the first, ``uniqueValues(_:)`` refuses.
public enum FormEncoding {
    /// RFC 3986 §2.3 / RFC 5849 §3.6: UTF-8, only `A–Z a–z 0–9 - . _ ~` left as is, every other byte `%XX`
    /// with upper-case hex. (A space is `%20`, never `+`.)
    public static func percentEncode(_ text: some StringProtocol) -> String {
        var result: [UInt8] = []
        result.reserveCapacity(text.utf8.count)
        for byte in text.utf8 {
            if isUnreserved(byte) {
                result.append(byte)
            } else {
                result += [UInt8(ascii: "%"), hexDigits[Int(byte >> 4)], hexDigits[Int(byte & 0x0F)]]
            }
        }
        return String(decoding: result, as: UTF8.self)
    }

    /// `A–Z a–z 0–9 - . _ ~`.
    public static func isUnreserved(_ byte: UInt8) -> Bool {
        switch byte {
        case UInt8(ascii: "A")...UInt8(ascii: "Z"), UInt8(ascii: "a")...UInt8(ascii: "z"), UInt8(ascii: "0")...UInt8(ascii: "9"),
            UInt8(ascii: "-"), UInt8(ascii: "."), UInt8(ascii: "_"), UInt8(ascii: "~"):
            true
        default: false
        }
    }

    /// Decodes `%XX` escapes (and `+` as a space when `plusIsSpace`); `nil` on a malformed escape or invalid UTF-8.
    public static func percentDecode(_ text: some StringProtocol, plusIsSpace: Bool = true) -> String? {
        percentDecode(utf8: text.utf8, plusIsSpace: plusIsSpace)
    }

    /// ``percentDecode(_:plusIsSpace:)`` of UTF-8 bytes.
    static func percentDecode(utf8 text: some Collection<UInt8>, plusIsSpace: Bool = true) -> String? {
        var bytes: [UInt8] = []
        bytes.reserveCapacity(text.count)
        var iterator = text.makeIterator()
        while let byte = iterator.next() {
            if byte == UInt8(ascii: "%") {
                guard let high = iterator.next().flatMap(hexValue), let low = iterator.next().flatMap(hexValue) else { return nil }
                bytes.append(high << 4 | low)
            } else if byte == UInt8(ascii: "+") && plusIsSpace {
                bytes.append(UInt8(ascii: " "))
            } else {
                bytes.append(byte)
            }
        }
        return String(validating: bytes, as: UTF8.self)
    }

    /// A form component decoded, or as written when its escapes are malformed.
    public static func decodeLeniently(_ text: some StringProtocol) -> String {
        percentDecode(text) ?? String(text)
    }

    /// ``decodeLeniently(_:)`` of UTF-8 bytes (kept as written when malformed, invalid UTF-8 repaired).
    static func decodeLeniently(utf8 text: some Collection<UInt8>) -> String {
        percentDecode(utf8: text) ?? String(decoding: text, as: UTF8.self)
    }

    /// The `name=value` parts of a form, split on its bytes (a form is ASCII punctuation around escapes: splitting
    /// by bytes finds the same parts as by characters, without walking grapheme clusters through a large value).
    private static func parts(_ text: some StringProtocol) -> [(name: Substring.UTF8View, value: Substring.UTF8View?)] {
        let utf8 = Substring(text).utf8
        return utf8.split(separator: UInt8(ascii: "&"), omittingEmptySubsequences: true).map { part in
            guard let equals = part.firstIndex(of: UInt8(ascii: "=")) else { return (part, nil) }
            return (part[..<equals], part[part.index(after: equals)...])
        }
    }

    /// Name/value pairs of a form-encoded string, in order, duplicates kept (a pair without `=` has the
    /// value ""); `nil` if any escape is malformed.
    public static func pairs(_ text: some StringProtocol) -> [(name: String, value: String)]? {
        var result: [(name: String, value: String)] = []
        for part in parts(text) {
            guard let name = percentDecode(utf8: part.name), let value = part.value.map({ percentDecode(utf8: $0) }) ?? "" else { return nil }
            result.append((name, value))
        }
        return result
    }

    /// Name/value pairs, in order, duplicates kept; a malformed component is kept as written and a pair
    /// without a name is skipped.
    public static func lenientPairs(_ text: some StringProtocol) -> [(name: String, value: String)] {
        parts(text).compactMap { part in
            let name = decodeLeniently(utf8: part.name)
            guard !name.isEmpty else { return nil }
            return (name, part.value.map { decodeLeniently(utf8: $0) } ?? "")
        }
    }

    /// The form as a dictionary, the first value of a name winning; empty when malformed.
    public static func dictionary(_ text: some StringProtocol) -> [String: String] {
        firstValues(pairs(text) ?? [])
    }

    /// The pairs as a dictionary, the first value of a name winning.
    public static func firstValues(_ pairs: [(name: String, value: String)]) -> [String: String] {
        var result: [String: String] = [:]
        for pair in pairs where result[pair.name] == nil { result[pair.name] = pair.value }
        return result
    }

    /// The pairs as a dictionary; `nil` when a name repeats (RFC 6749 §3.2: servers and proxies disagree on
    /// which value wins).
    public static func uniqueValues(_ pairs: [(name: String, value: String)]) -> [String: String]? {
        var result: [String: String] = [:]
        for pair in pairs {
            guard result[pair.name] == nil else { return nil }
            result[pair.name] = pair.value
        }
        return result
    }

    /// Encodes pairs as a form body (or query), every name and value ``percentEncode(_:)``d.
    public static func encode(_ pairs: [(String, String)]) -> String {
        pairs.map { "\(percentEncode($0.0))=\(percentEncode($0.1))" }.joined(separator: "&")
    }

    private static let hexDigits: [UInt8] = Array("0123456789ABCDEF".utf8)

    private static func hexValue(_ byte: UInt8) -> UInt8? {
        switch byte {
        case UInt8(ascii: "0")...UInt8(ascii: "9"): byte - UInt8(ascii: "0")
        case UInt8(ascii: "a")...UInt8(ascii: "f"): byte - UInt8(ascii: "a") + 10
        case UInt8(ascii: "A")...UInt8(ascii: "F"): byte - UInt8(ascii: "A") + 10
        default: nil
        }
    }
}
