/// An `int64` field as proto3 JSON carries it: written as a string of digits, read from a string or a
/// bare number (the Node Admin SDK sends `validSince: 1611780718`), as Google's APIs read it.
public struct WireInt64: Codable, Sendable, Hashable, ExpressibleByIntegerLiteral, CustomStringConvertible {
    public var value: Int64

    public init(_ value: Int64) { self.value = value }
    public init(integerLiteral value: Int64) { self.value = value }

    public init(from decoder: any Decoder) throws {
        value = try WireInteger.decode(from: decoder, as: Int64.self)
    }

    public func encode(to encoder: any Encoder) throws {
        var container = encoder.singleValueContainer()
        try container.encode(String(value))
    }

    public var description: String { String(value) }
}

/// An `int32` field as proto3 JSON carries it: written as a number, read from a number or a string of digits.
public struct WireInt32: Codable, Sendable, Hashable, ExpressibleByIntegerLiteral, CustomStringConvertible {
    public var value: Int32

    public init(_ value: Int32) { self.value = value }
    public init(integerLiteral value: Int32) { self.value = value }

    public init(from decoder: any Decoder) throws {
        value = try WireInteger.decode(from: decoder, as: Int32.self)
    }

    public func encode(to encoder: any Encoder) throws {
        var container = encoder.singleValueContainer()
        try container.encode(value)
    }

    public var description: String { String(value) }
}

enum WireInteger {
    /// Reads a JSON number without a fraction, or a string holding one in decimal (an optional `-`, digits
    /// only: no spaces, no `+`, no exponent), that fits `T`.
    static func decode<T: FixedWidthInteger & Decodable>(from decoder: any Decoder, as type: T.Type) throws -> T {
        let container = try decoder.singleValueContainer()
        if let number = try? container.decode(T.self) { return number }
        if let text = try? container.decode(String.self) {
            let digits = text.hasPrefix("-") ? text.dropFirst() : Substring(text)
            if !digits.isEmpty, digits.count <= 20, digits.utf8.allSatisfy({ $0 >= 0x30 && $0 <= 0x39 }), let number = T(text) {
                return number
            }
        }
        throw DecodingError.typeMismatch(
            T.self, DecodingError.Context(codingPath: decoder.codingPath, debugDescription: "not an integer of \(T.bitWidth) bits"))
    }
}
