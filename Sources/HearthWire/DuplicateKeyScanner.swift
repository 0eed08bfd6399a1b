import Foundation

/// Finds a key given twice in one JSON object. Foundation's decoder keeps one of them silently while
/// proxies and other parsers may keep the other, so a body with duplicate keys could mean one thing to a
/// filter in front of Hearth and another to Hearth: such bodies are refused. Keys are compared after
/// unescaping (`"a"` and `"\u0061"` are the same key). Malformed JSON is left to the decoder.
public enum DuplicateKeyScanner {
    /// What one pass over a body finds about its keys.
    public struct Scan: Sendable, Equatable {
        /// The first key that appears twice in the same object.
        public var duplicate: String?
        /// Whether some key holds `_` (after unescaping): only then does a snake_case key need converting.
        public var hasUnderscoredKey = false
    }

    /// The keys of `data`, looked at once.
    public static func scan(_ data: Data) -> Scan {
        data.withUnsafeBytes { raw in scan(raw.bindMemory(to: UInt8.self)) }
    }

    private struct Object {
        var keys: Set<String> = []
        var expectsKey = true
    }

    private static func scan(_ bytes: UnsafeBufferPointer<UInt8>) -> Scan {
        var found = Scan()
        // One entry per open container: an object's keys so far, or nil for an array.
        var open: [Object?] = []
        var index = 0
        while index < bytes.count {
            switch bytes[index] {
            case UInt8(ascii: "{"):
                open.append(Object())
            case UInt8(ascii: "["):
                open.append(nil)
            case UInt8(ascii: "}"), UInt8(ascii: "]"):
                _ = open.popLast()
            case UInt8(ascii: ","):
                if open.last??.expectsKey == false { open[open.count - 1]?.expectsKey = true }
            case UInt8(ascii: ":"):
                if open.last != nil, open.last! != nil { open[open.count - 1]?.expectsKey = false }
            case UInt8(ascii: "\""):
                guard let object = open.last ?? nil, object.expectsKey else {
                    // A value: only its end matters.
                    index = end(ofStringIn: bytes, from: index + 1)
                    continue
                }
                let (text, end) = string(in: bytes, from: index + 1)
                if object.keys.contains(text) {
                    found.duplicate = text
                    return found
                }
                if !found.hasUnderscoredKey, text.utf8.contains(UInt8(ascii: "_")) { found.hasUnderscoredKey = true }
                open[open.count - 1]?.keys.insert(text)
                index = end
                continue
            default:
                break
            }
            index += 1
        }
        return found
    }

    /// The index after the closing quote of the string starting after its opening quote (escapes skipped).
    private static func end(ofStringIn bytes: UnsafeBufferPointer<UInt8>, from start: Int) -> Int {
        var index = start
        while index < bytes.count {
            switch bytes[index] {
            case UInt8(ascii: "\""): return index + 1
            case UInt8(ascii: "\\"): index += 2
            default: index += 1
            }
        }
        return bytes.count
    }

    /// The unescaped string starting after its opening quote, and the index after its closing quote.
    private static func string(in bytes: UnsafeBufferPointer<UInt8>, from start: Int) -> (String, Int) {
        var utf8: [UInt8] = []
        var index = start
        var pendingHighSurrogate: UInt32?
        func append(_ scalar: UInt32) {
            let value = Unicode.Scalar(scalar) ?? "\u{FFFD}"
            utf8.append(contentsOf: Array(String(value).utf8))
        }
        while index < bytes.count {
            let byte = bytes[index]
            if byte == UInt8(ascii: "\"") { return (String(decoding: utf8, as: UTF8.self), index + 1) }
            if byte != UInt8(ascii: "\\") {
                if let high = pendingHighSurrogate {
                    append(high)
                    pendingHighSurrogate = nil
                }
                utf8.append(byte)
                index += 1
                continue
            }
            guard index + 1 < bytes.count else { break }
            let escaped = bytes[index + 1]
            index += 2
            if escaped == UInt8(ascii: "u"), index + 4 <= bytes.count,
                let code = UInt32(String(decoding: UnsafeBufferPointer(rebasing: bytes[index..<index + 4]), as: UTF8.self), radix: 16)
            {
                index += 4
                if (0xD800...0xDBFF).contains(code) {
                    if let high = pendingHighSurrogate { append(high) }
                    pendingHighSurrogate = code
                } else if (0xDC00...0xDFFF).contains(code), let high = pendingHighSurrogate {
                    append(0x10000 + ((high - 0xD800) << 10) + (code - 0xDC00))
                    pendingHighSurrogate = nil
                } else {
                    if let high = pendingHighSurrogate {
                        append(high)
                        pendingHighSurrogate = nil
                    }
                    append(code)
                }
                continue
            }
            if let high = pendingHighSurrogate {
                append(high)
                pendingHighSurrogate = nil
            }
            switch escaped {
            case UInt8(ascii: "b"): utf8.append(0x08)
            case UInt8(ascii: "f"): utf8.append(0x0C)
            case UInt8(ascii: "n"): utf8.append(0x0A)
            case UInt8(ascii: "r"): utf8.append(0x0D)
            case UInt8(ascii: "t"): utf8.append(0x09)
            default: utf8.append(escaped)
            }
        }
        return (String(decoding: utf8, as: UTF8.self), bytes.count)
    }
}
