/// One decoded CBOR (RFC 8949) data item, limited to the kinds WebAuthn's attestation objects, COSE keys and
/// extension outputs use: integers, byte and text strings, arrays, maps, booleans and null. Tags, floats,
/// `undefined` and indefinite lengths are refused by `CBORDecoder` before a value is ever made.
public indirect enum CBORValue: Sendable, Equatable {
    /// An unsigned integer (major type 0).
    case unsigned(UInt64)
    /// A negative integer (major type 1) stored as CBOR does: the value is `-1 - n`.
    case negative(UInt64)
    /// A byte string (major type 2).
    case bytes([UInt8])
    /// A UTF-8 text string (major type 3), checked to be valid UTF-8.
    case text(String)
    /// An array (major type 4).
    case array([CBORValue])
    /// A map (major type 5) in the order its pairs were encoded; no key appears twice.
    case map([CBORMapEntry])
    /// `true` or `false` (simple values 20 and 21).
    case bool(Bool)
    /// `null` (simple value 22).
    case null

    /// The value as a Swift `Int` when it is an integer that fits one.
    public var integer: Int? {
        switch self {
        case .unsigned(let value): value <= UInt64(Int.max) ? Int(value) : nil
        case .negative(let value): value < UInt64(Int.max) ? -1 - Int(value) : nil
        default: nil
        }
    }

    /// The bytes of a byte string.
    public var bytes: [UInt8]? {
        if case .bytes(let value) = self { return value }
        return nil
    }

    /// The text of a text string.
    public var text: String? {
        if case .text(let value) = self { return value }
        return nil
    }

    /// The pairs of a map.
    public var map: [CBORMapEntry]? {
        if case .map(let value) = self { return value }
        return nil
    }

    /// The value a map holds under `key`, nil when this is no map or the key is absent.
    public subscript(key: CBORValue) -> CBORValue? {
        map?.first { $0.key == key }?.value
    }

    /// The value a map holds under the integer `key` (COSE's labels).
    public subscript(label: Int) -> CBORValue? {
        self[label >= 0 ? .unsigned(UInt64(label)) : .negative(UInt64(-1 - label))]
    }

    /// The value a map holds under the text `key` (the attestation object's `fmt`, `attStmt`, `authData`).
    public subscript(name: String) -> CBORValue? {
        self[.text(name)]
    }
}

/// One key and value of a CBOR map.
public struct CBORMapEntry: Sendable, Equatable {
    public let key: CBORValue
    public let value: CBORValue

    public init(key: CBORValue, value: CBORValue) {
        self.key = key
        self.value = value
    }
}
