import Foundation

/// Decodes the common request body without Foundation's `JSONDecoder`: one JSON object whose values are strings
/// without escapes, numbers, `true`, `false` or `null` (an ID token, an e-mail address and a password, a refresh
/// token), read into the type's own `Decodable` conformance.
///
/// Anything else gives `nil`, and the caller decodes with `JSONDecoder`, whose result and errors stay the reference:
/// nested objects and arrays, escapes, a value of another type than the one asked for, a missing key, a number that
/// does not fit, bytes that are not UTF-8 or not JSON, a key given twice, a key with an underscore (unless
/// `convertingSnakeCase` and the key is plain snake_case), and any error the type's own decoding throws. So this
/// decoder never accepts what `JSONDecoder` refuses, and never words an error.
public enum FlatJSONDecoder {
    /// `type` from `data`, or `nil` when `data` or `type` needs `JSONDecoder`.
    ///
    /// - Parameter convertingSnakeCase: read `refresh_token` as `refreshToken`, as `JSONDecoder`'s
    ///   `.convertFromSnakeCase` does (the Secure Token endpoint's form). Only words of `a`–`z` joined by single
    ///   underscores are converted here; any other key with an underscore gives `nil`. Two keys that read the same
    ///   after the conversion give `nil` too.
    public static func decode<T: Decodable>(_ type: T.Type, from data: Data, convertingSnakeCase: Bool = false) -> T? {
        guard
            let object = data.withUnsafeBytes({ bytes in
                var parser = FlatObjectParser(bytes: bytes, convertingSnakeCase: convertingSnakeCase)
                return parser.parse()
            })
        else { return nil }
        return try? T(from: FlatDecoder(object: object))
    }
}

/// A value of a flat object.
enum FlatValue {
    case string(String)
    /// The number's text, as valid JSON writes it.
    case number(String)
    case bool(Bool)
    case null
}

/// The decoder gave up: `JSONDecoder` decodes instead.
struct FlatDecodingUnsupported: Error {}

/// Reads one JSON object of scalar values, strictly (RFC 8259), or gives `nil`.
struct FlatObjectParser {
    let bytes: UnsafeRawBufferPointer
    let convertingSnakeCase: Bool
    var index = 0

    init(bytes: UnsafeRawBufferPointer, convertingSnakeCase: Bool = false) {
        self.bytes = bytes
        self.convertingSnakeCase = convertingSnakeCase
    }

    mutating func parse() -> [String: FlatValue]? {
        var object: [String: FlatValue] = [:]
        skipWhitespace()
        guard take(UInt8(ascii: "{")) else { return nil }
        skipWhitespace()
        if !take(UInt8(ascii: "}")) {
            while true {
                skipWhitespace()
                guard let written = string(), let key = self.key(written) else { return nil }
                skipWhitespace()
                guard take(UInt8(ascii: ":")) else { return nil }
                skipWhitespace()
                guard let value = value(), object.updateValue(value, forKey: key) == nil else { return nil }
                skipWhitespace()
                if take(UInt8(ascii: ",")) { continue }
                guard take(UInt8(ascii: "}")) else { return nil }
                break
            }
        }
        skipWhitespace()
        return index == bytes.count ? object : nil
    }

    /// A key as the decoder reads it: as written when it has no underscore; converted when it is plain snake_case
    /// and that is asked for (`refresh_token` → `refreshToken`: what `.convertFromSnakeCase` makes of words of
    /// `a`–`z`); otherwise `nil`.
    private func key(_ written: String) -> String? {
        guard written.utf8.contains(UInt8(ascii: "_")) else { return written }
        guard convertingSnakeCase else { return nil }
        var converted: [UInt8] = []
        converted.reserveCapacity(written.utf8.count)
        var afterUnderscore = false
        for byte in written.utf8 {
            if byte == UInt8(ascii: "_") {
                // No leading, trailing or doubled underscore: JSONDecoder keeps or drops those in ways of its own.
                guard !converted.isEmpty, !afterUnderscore else { return nil }
                afterUnderscore = true
                continue
            }
            guard (UInt8(ascii: "a")...UInt8(ascii: "z")).contains(byte) else { return nil }
            converted.append(afterUnderscore ? byte - 0x20 : byte)
            afterUnderscore = false
        }
        guard !afterUnderscore else { return nil }
        return String(decoding: converted, as: UTF8.self)
    }

    private mutating func value() -> FlatValue? {
        guard index < bytes.count else { return nil }
        switch bytes[index] {
        case UInt8(ascii: "\""): return string().map(FlatValue.string)
        case UInt8(ascii: "t"): return literal("true") ? .bool(true) : nil
        case UInt8(ascii: "f"): return literal("false") ? .bool(false) : nil
        case UInt8(ascii: "n"): return literal("null") ? .null : nil
        default: return number().map(FlatValue.number)
        }
    }

    /// A string without escapes or control characters, in valid UTF-8.
    private mutating func string() -> String? {
        guard take(UInt8(ascii: "\"")) else { return nil }
        let start = index
        while index < bytes.count {
            let byte = bytes[index]
            if byte == UInt8(ascii: "\"") {
                let text = String(validating: UnsafeRawBufferPointer(rebasing: bytes[start..<index]), as: UTF8.self)
                index += 1
                return text
            }
            guard byte >= 0x20, byte != UInt8(ascii: "\\") else { return nil }
            index += 1
        }
        return nil
    }

    /// `-? (0 | [1-9][0-9]*) (. [0-9]+)? ([eE] [+-]? [0-9]+)?`
    private mutating func number() -> String? {
        let start = index
        _ = take(UInt8(ascii: "-"))
        if take(UInt8(ascii: "0")) {
            // no leading zeros
        } else {
            guard digits() > 0 else { return nil }
        }
        if take(UInt8(ascii: ".")) {
            guard digits() > 0 else { return nil }
        }
        if take(UInt8(ascii: "e")) || take(UInt8(ascii: "E")) {
            if !take(UInt8(ascii: "+")) { _ = take(UInt8(ascii: "-")) }
            guard digits() > 0 else { return nil }
        }
        return String(decoding: UnsafeRawBufferPointer(rebasing: bytes[start..<index]), as: UTF8.self)
    }

    private mutating func digits() -> Int {
        let start = index
        while index < bytes.count, (UInt8(ascii: "0")...UInt8(ascii: "9")).contains(bytes[index]) { index += 1 }
        return index - start
    }

    private mutating func literal(_ word: StaticString) -> Bool {
        let length = word.utf8CodeUnitCount
        guard bytes.count - index >= length, memcmp(bytes.baseAddress! + index, word.utf8Start, length) == 0 else { return false }
        index += length
        return true
    }

    private mutating func take(_ byte: UInt8) -> Bool {
        guard index < bytes.count, bytes[index] == byte else { return false }
        index += 1
        return true
    }

    private mutating func skipWhitespace() {
        while index < bytes.count, [0x20, 0x0A, 0x0D, 0x09].contains(bytes[index]) { index += 1 }
    }
}

/// The object as a `Decoder`: keyed at the top, one scalar below.
struct FlatDecoder: Decoder {
    let object: [String: FlatValue]
    var codingPath: [any CodingKey] { [] }
    var userInfo: [CodingUserInfoKey: Any] { [:] }

    func container<Key: CodingKey>(keyedBy type: Key.Type) throws -> KeyedDecodingContainer<Key> {
        KeyedDecodingContainer(FlatKeyedContainer<Key>(object: object))
    }

    func unkeyedContainer() throws -> any UnkeyedDecodingContainer { throw FlatDecodingUnsupported() }
    func singleValueContainer() throws -> any SingleValueDecodingContainer { throw FlatDecodingUnsupported() }
}

struct FlatKeyedContainer<Key: CodingKey>: KeyedDecodingContainerProtocol {
    let object: [String: FlatValue]
    var codingPath: [any CodingKey] { [] }
    var allKeys: [Key] { object.keys.compactMap { Key(stringValue: $0) } }

    func contains(_ key: Key) -> Bool { object[key.stringValue] != nil }

    private func value(_ key: Key) throws -> FlatValue {
        guard let value = object[key.stringValue] else { throw FlatDecodingUnsupported() }
        return value
    }

    func decodeNil(forKey key: Key) throws -> Bool {
        if case .null = try value(key) { return true }
        return false
    }

    func decode<T: Decodable>(_ type: T.Type, forKey key: Key) throws -> T {
        try FlatScalarDecoder(value: value(key)).decode(type)
    }

    func nestedContainer<NestedKey: CodingKey>(keyedBy type: NestedKey.Type, forKey key: Key) throws -> KeyedDecodingContainer<NestedKey> {
        throw FlatDecodingUnsupported()
    }

    func nestedUnkeyedContainer(forKey key: Key) throws -> any UnkeyedDecodingContainer { throw FlatDecodingUnsupported() }
    func superDecoder() throws -> any Decoder { throw FlatDecodingUnsupported() }
    func superDecoder(forKey key: Key) throws -> any Decoder { throw FlatDecodingUnsupported() }
}

/// One scalar value as a `Decoder` and as its single-value container.
struct FlatScalarDecoder: Decoder, SingleValueDecodingContainer {
    let value: FlatValue
    var codingPath: [any CodingKey] { [] }
    var userInfo: [CodingUserInfoKey: Any] { [:] }

    func container<Key: CodingKey>(keyedBy type: Key.Type) throws -> KeyedDecodingContainer<Key> { throw FlatDecodingUnsupported() }
    func unkeyedContainer() throws -> any UnkeyedDecodingContainer { throw FlatDecodingUnsupported() }
    func singleValueContainer() throws -> any SingleValueDecodingContainer { self }

    func decodeNil() -> Bool {
        if case .null = value { return true }
        return false
    }

    func decode<T: Decodable>(_ type: T.Type) throws -> T {
        switch value {
        case .string(let text):
            if let text = text as? T { return text }
        case .bool(let flag):
            if let flag = flag as? T { return flag }
        case .number(let text):
            if let number = Self.number(text, as: type) { return number }
        case .null:
            break
        }
        guard !Self.isScalar(type) else { throw FlatDecodingUnsupported() }
        return try T(from: self)
    }

    /// `text` as `T` when `T` is a number type it fits exactly (integers) or finitely (floating point).
    private static func number<T>(_ text: String, as type: T.Type) -> T? {
        func integer<I: FixedWidthInteger>(_: I.Type) -> T? {
            text.contains(where: { $0 == "." || $0 == "e" || $0 == "E" }) ? nil : I(text) as? T
        }
        func floating<F: BinaryFloatingPoint & LosslessStringConvertible>(_: F.Type) -> T? {
            guard let value = F(text), value.isFinite else { return nil }
            return value as? T
        }
        switch type {
        case is Int.Type: return integer(Int.self)
        case is Int64.Type: return integer(Int64.self)
        case is Int32.Type: return integer(Int32.self)
        case is UInt.Type: return integer(UInt.self)
        case is UInt64.Type: return integer(UInt64.self)
        case is UInt32.Type: return integer(UInt32.self)
        case is Double.Type: return floating(Double.self)
        default: return nil
        }
    }

    /// Types whose own decoding would ask this decoder for themselves again.
    private static func isScalar(_ type: Any.Type) -> Bool {
        type == String.self || type == Bool.self || type == Int.self || type == Int64.self || type == Int32.self || type == Int16.self
            || type == Int8.self || type == UInt.self || type == UInt64.self || type == UInt32.self || type == UInt16.self
            || type == UInt8.self || type == Double.self || type == Float.self
    }
}
