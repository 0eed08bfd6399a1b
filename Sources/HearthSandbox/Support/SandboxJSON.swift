import Foundation

/// A JSON value: what the sandbox puts in token claims and response bodies.
///
/// Tests use it to add or override claims (`extraClaims`) and to read the sandbox's answers.
public enum SandboxJSON: Sendable, Hashable {
    case null
    case bool(Bool)
    case int(Int)
    case double(Double)
    case string(String)
    case array([SandboxJSON])
    case object([String: SandboxJSON])

    /// The member `key` of an object, or `nil`.
    public subscript(key: String) -> SandboxJSON? {
        if case .object(let object) = self { return object[key] }
        return nil
    }

    /// The string, if this is a string.
    public var stringValue: String? {
        if case .string(let value) = self { return value }
        return nil
    }

    /// The integer, if this is an integral number.
    public var intValue: Int? {
        switch self {
        case .int(let value): value
        case .double(let value): value.rounded() == value && abs(value) < 9.0e15 ? Int(value) : nil
        default: nil
        }
    }

    /// The boolean, if this is a boolean.
    public var boolValue: Bool? {
        if case .bool(let value) = self { return value }
        return nil
    }

    /// The elements, if this is an array.
    public var arrayValue: [SandboxJSON]? {
        if case .array(let value) = self { return value }
        return nil
    }

    /// The members, if this is an object.
    public var objectValue: [String: SandboxJSON]? {
        if case .object(let value) = self { return value }
        return nil
    }

    /// Compact JSON text with sorted keys and unescaped slashes.
    public var jsonData: Data {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
        // Encoding a closed enum of JSON-representable cases cannot fail except for non-finite doubles,
        // which the sandbox never produces; fall back to `null` rather than crash.
        return (try? encoder.encode(self)) ?? Data("null".utf8)
    }

    /// Parses JSON text; `nil` when it is not JSON.
    public init?(jsonData: Data) {
        guard let value = try? JSONDecoder().decode(SandboxJSON.self, from: jsonData) else { return nil }
        self = value
    }
}

extension SandboxJSON: Codable {
    public init(from decoder: any Decoder) throws {
        let container = try decoder.singleValueContainer()
        if container.decodeNil() {
            self = .null
        } else if let value = try? container.decode(Bool.self) {
            self = .bool(value)
        } else if let value = try? container.decode(Int.self) {
            self = .int(value)
        } else if let value = try? container.decode(Double.self) {
            self = .double(value)
        } else if let value = try? container.decode(String.self) {
            self = .string(value)
        } else if let value = try? container.decode([SandboxJSON].self) {
            self = .array(value)
        } else {
            self = .object(try container.decode([String: SandboxJSON].self))
        }
    }

    public func encode(to encoder: any Encoder) throws {
        var container = encoder.singleValueContainer()
        switch self {
        case .null: try container.encodeNil()
        case .bool(let value): try container.encode(value)
        case .int(let value): try container.encode(value)
        case .double(let value): try container.encode(value)
        case .string(let value): try container.encode(value)
        case .array(let value): try container.encode(value)
        case .object(let value): try container.encode(value)
        }
    }
}

extension SandboxJSON: ExpressibleByStringLiteral, ExpressibleByIntegerLiteral, ExpressibleByBooleanLiteral,
    ExpressibleByArrayLiteral, ExpressibleByDictionaryLiteral, ExpressibleByNilLiteral, ExpressibleByFloatLiteral
{
    public init(stringLiteral value: String) { self = .string(value) }
    public init(integerLiteral value: Int) { self = .int(value) }
    public init(booleanLiteral value: Bool) { self = .bool(value) }
    public init(floatLiteral value: Double) { self = .double(value) }
    public init(arrayLiteral elements: SandboxJSON...) { self = .array(elements) }
    public init(dictionaryLiteral elements: (String, SandboxJSON)...) {
        self = .object(Dictionary(elements, uniquingKeysWith: { _, last in last }))
    }
    public init(nilLiteral: ()) { self = .null }
}

extension SandboxJSON {
    /// `.string(value)` or `.null`.
    static func optional(_ value: String?) -> SandboxJSON { value.map { .string($0) } ?? .null }
}
