/// A strict CBOR decoder for what WebAuthn hands a relying party. It refuses, rather than skips, everything a
/// well-formed authenticator never sends and an attacker might: indefinite lengths, tags, floats, `undefined`,
/// other simple values, integers or lengths not in their shortest form, text that is not UTF-8, a key twice in
/// one map, nesting deeper than `maximumDepth`, more than `maximumItems` items in all, and input longer than
/// `maximumSize`. Map keys must be integers or text.
public struct CBORDecoder: Sendable {
    /// How deep arrays and maps may nest (an attestation object needs 3: its map, `attStmt`, `x5c`).
    public var maximumDepth: Int
    /// How many bytes the whole input may have.
    public var maximumSize: Int
    /// How many data items (every array element, map key and map value counted) the input may hold.
    public var maximumItems: Int

    public init(maximumDepth: Int = 4, maximumSize: Int = 64 * 1024, maximumItems: Int = 512) {
        self.maximumDepth = maximumDepth
        self.maximumSize = maximumSize
        self.maximumItems = maximumItems
    }

    /// Decodes exactly one data item that spans all of `bytes`; trailing bytes are refused.
    public func decode(_ bytes: [UInt8]) throws(CBORError) -> CBORValue {
        let (value, end) = try decodePrefix(bytes[...])
        guard end == bytes.endIndex else { throw .trailingBytes }
        return value
    }

    /// Decodes one data item at the start of `bytes` and says where it ends (authenticator data holds a COSE key
    /// followed by more CBOR with no length in front).
    public func decodePrefix(_ bytes: ArraySlice<UInt8>) throws(CBORError) -> (value: CBORValue, end: Int) {
        guard bytes.count <= maximumSize else { throw .tooLarge }
        var reader = Reader(bytes: bytes, position: bytes.startIndex, items: 0, limits: self)
        let value = try reader.item(depth: 0)
        return (value, reader.position)
    }

    private struct Reader {
        let bytes: ArraySlice<UInt8>
        var position: Int
        var items: Int
        let limits: CBORDecoder

        mutating func byte() throws(CBORError) -> UInt8 {
            guard position < bytes.endIndex else { throw .truncated }
            defer { position += 1 }
            return bytes[position]
        }

        mutating func take(_ count: UInt64) throws(CBORError) -> ArraySlice<UInt8> {
            guard count <= UInt64(bytes.endIndex - position) else { throw .truncated }
            let end = position + Int(count)
            defer { position = end }
            return bytes[position..<end]
        }

        /// The argument of an initial byte whose additional information is `info`, in its shortest form only.
        mutating func argument(_ info: UInt8) throws(CBORError) -> UInt64 {
            switch info {
            case 0..<24:
                return UInt64(info)
            case 24, 25, 26, 27:
                let width = 1 << Int(info - 24)
                var value: UInt64 = 0
                for byte in try take(UInt64(width)) { value = value << 8 | UInt64(byte) }
                let smallest: UInt64 = info == 24 ? 24 : 1 << (UInt64(width) * 4)
                guard value >= smallest else { throw .notShortestForm }
                return value
            case 31:
                throw .indefiniteLength
            default:
                throw .malformed
            }
        }

        mutating func item(depth: Int) throws(CBORError) -> CBORValue {
            items += 1
            guard items <= limits.maximumItems else { throw .tooManyItems }
            let initial = try byte()
            let major = initial >> 5
            let info = initial & 0x1F
            switch major {
            case 0:
                return .unsigned(try argument(info))
            case 1:
                return .negative(try argument(info))
            case 2:
                return .bytes(Array(try take(try argument(info))))
            case 3:
                let utf8 = try take(try argument(info))
                guard let text = String(validating: utf8, as: UTF8.self) else { throw .invalidText }
                return .text(text)
            case 4, 5:
                let count = try argument(info)
                guard depth < limits.maximumDepth else { throw .tooDeep }
                // Every element takes at least one byte: a count beyond what is left is a lie, refused before allocating.
                let perItem: UInt64 = major == 4 ? 1 : 2
                guard count <= UInt64(bytes.endIndex - position) / perItem else { throw .truncated }
                if major == 4 {
                    var elements: [CBORValue] = []
                    elements.reserveCapacity(Int(count))
                    for _ in 0..<count { elements.append(try item(depth: depth + 1)) }
                    return .array(elements)
                }
                var entries: [CBORMapEntry] = []
                entries.reserveCapacity(Int(count))
                for _ in 0..<count {
                    let key = try item(depth: depth + 1)
                    switch key {
                    case .unsigned, .negative, .text: break
                    default: throw .unsupportedMapKey
                    }
                    guard !entries.contains(where: { $0.key == key }) else { throw .duplicateMapKey }
                    entries.append(CBORMapEntry(key: key, value: try item(depth: depth + 1)))
                }
                return .map(entries)
            case 6:
                throw .unsupportedType
            default:
                switch info {
                case 20: return .bool(false)
                case 21: return .bool(true)
                case 22: return .null
                case 31: throw .indefiniteLength
                default: throw .unsupportedType
                }
            }
        }
    }
}

/// Why `CBORDecoder` refused its input.
public enum CBORError: Error, Sendable, Equatable, CustomStringConvertible {
    case truncated
    case trailingBytes
    case indefiniteLength
    case notShortestForm
    case malformed
    case invalidText
    case unsupportedType
    case unsupportedMapKey
    case duplicateMapKey
    case tooDeep
    case tooLarge
    case tooManyItems

    public var description: String {
        switch self {
        case .truncated: "CBOR ends inside a data item"
        case .trailingBytes: "CBOR has bytes after its data item"
        case .indefiniteLength: "CBOR indefinite lengths are not accepted"
        case .notShortestForm: "CBOR integer or length not in its shortest form"
        case .malformed: "CBOR initial byte is reserved"
        case .invalidText: "CBOR text string is not UTF-8"
        case .unsupportedType: "CBOR tags, floats and simple values other than true, false and null are not accepted"
        case .unsupportedMapKey: "CBOR map key is neither an integer nor text"
        case .duplicateMapKey: "CBOR map has a key twice"
        case .tooDeep: "CBOR nests too deeply"
        case .tooLarge: "CBOR input is too large"
        case .tooManyItems: "CBOR input has too many items"
        }
    }
}
