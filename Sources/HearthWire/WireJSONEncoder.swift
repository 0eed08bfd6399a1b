import Foundation

/// Writes an `Encodable` value as JSON straight into bytes, in the order its `encode(to:)` writes the fields: the
/// server's responses, whose shapes HearthWire defines, without Foundation's `JSONEncoder` building a tree of boxed
/// values first (on a lookup that tree was a tenth of the server's time).
///
/// It takes what synthesized and hand-written `Codable` conformances do: keyed, unkeyed and single-value containers,
/// nested ones, opened and filled in order. Anything it does not write the way `JSONEncoder` would makes
/// ``encode(_:)`` hand the whole value to `JSONEncoder` instead (`.withoutEscapingSlashes`): a `Float`, a number that
/// is not finite, `Date`, `Data`, `URL`, `Decimal`, a super-encoder, a container asked for twice, a container written
/// to after a later one was opened beside it. So the output always decodes to what `JSONEncoder`'s does.
public enum WireJSONEncoder {
    /// The JSON of `value`.
    public static func encode<T: Encodable>(_ value: T) throws -> [UInt8] {
        // Every failure answers with the error envelope: it is written without the containers (a type check, not a cast).
        if T.self == WireErrorResponse.self { return (value as! WireErrorResponse).jsonBytes() }
        return try streamed(value)
    }

    /// `value` through its own `encode(to:)`, or `JSONEncoder` where that writes what the stream does not.
    static func streamed(_ value: some Encodable) throws -> [UInt8] {
        let writer = Writer()
        do {
            try value.encode(to: StreamingEncoder(writer: writer, depth: 0))
            guard writer.wroteValue else { throw Unsupported() }
            writer.close(downTo: 0)
            return writer.bytes
        } catch is Unsupported {
            let encoder = JSONEncoder()
            encoder.outputFormatting = [.withoutEscapingSlashes]
            return Array(try encoder.encode(value))
        }
    }

    /// What the streaming path leaves to `JSONEncoder`.
    struct Unsupported: Error {}

    /// The bytes so far and the containers still open, innermost last.
    final class Writer {
        var bytes: [UInt8] = []
        /// Each open container: its closing byte and whether it has an element yet.
        var open: [(close: UInt8, hasElement: Bool)] = []
        var wroteValue = false

        init() { bytes.reserveCapacity(512) }

        /// Closes the containers deeper than `depth` (they were filled: their parent writes again).
        func close(downTo depth: Int) {
            while open.count > depth { bytes.append(open.removeLast().close) }
        }

        /// Prepares an element of the container at `depth` (1-based; 0 is the top level): the deeper ones are closed,
        /// a comma written after an earlier element. A container already closed cannot take one.
        func element(at depth: Int) throws {
            if depth == 0 {
                guard !wroteValue else { throw Unsupported() }
                wroteValue = true
                return
            }
            guard open.count >= depth else { throw Unsupported() }
            close(downTo: depth)
            if open[depth - 1].hasElement { bytes.append(UInt8(ascii: ",")) }
            open[depth - 1].hasElement = true
        }

        func openContainer(_ opening: UInt8, closing: UInt8) {
            bytes.append(opening)
            open.append((closing, false))
        }

        private static let hex = Array("0123456789abcdef".utf8)

        /// `text` quoted: `"` and `\` escaped, control characters as `\n`, `\r`, `\t` or `\u00XX`; the rest as is.
        func string(_ text: String) {
            bytes.append(UInt8(ascii: "\""))
            if !text.utf8.contains(where: { $0 < 0x20 || $0 == UInt8(ascii: "\"") || $0 == UInt8(ascii: "\\") }) {
                bytes.append(contentsOf: text.utf8)
                bytes.append(UInt8(ascii: "\""))
                return
            }
            for byte in text.utf8 {
                switch byte {
                case UInt8(ascii: "\""), UInt8(ascii: "\\"): escape(byte)
                case 0x0A: escape(UInt8(ascii: "n"))
                case 0x0D: escape(UInt8(ascii: "r"))
                case 0x09: escape(UInt8(ascii: "t"))
                case 0x00..<0x20:
                    escape(UInt8(ascii: "u"))
                    bytes.append(contentsOf: [UInt8(ascii: "0"), UInt8(ascii: "0"), Self.hex[Int(byte >> 4)], Self.hex[Int(byte & 0xF)]])
                default: bytes.append(byte)
                }
            }
            bytes.append(UInt8(ascii: "\""))
        }

        private func escape(_ byte: UInt8) {
            bytes.append(UInt8(ascii: "\\"))
            bytes.append(byte)
        }

        func key(_ key: some CodingKey) {
            string(key.stringValue)
            bytes.append(UInt8(ascii: ":"))
        }

        /// A finite number as `JSONEncoder` writes it: its shortest text, `1` rather than `1.0`.
        func number(_ value: Double) throws {
            guard value.isFinite else { throw Unsupported() }
            var text = value.description
            if text.hasSuffix(".0") { text.removeLast(2) }
            literal(text)
        }

        func literal(_ text: String) { bytes.append(contentsOf: text.utf8) }

        /// A value the containers hand over: scalars written here, anything else through its own `encode(to:)` one
        /// level down.
        func value<T: Encodable>(_ value: T, depth: Int) throws {
            // Compared as types, not cast: a cast that fails costs more than the writing.
            let type = T.self
            if type == String.self {
                string(unsafeBitCast(value, to: String.self))
            } else if type == Bool.self {
                literal(unsafeBitCast(value, to: Bool.self) ? "true" : "false")
            } else if type == Int.self {
                literal(String(unsafeBitCast(value, to: Int.self)))
            } else if type == Int64.self {
                literal(String(unsafeBitCast(value, to: Int64.self)))
            } else if type == Int32.self || type == UInt.self || type == UInt64.self || type == UInt32.self, let number = value as? any BinaryInteger
            {
                literal(String(describing: number))
            } else if type == Double.self {
                try number(unsafeBitCast(value, to: Double.self))
            } else if type == Float.self || type == Date.self || type == Data.self || type == URL.self || type == Decimal.self {
                throw Unsupported()
            } else {
                let before = bytes.count
                try value.encode(to: StreamingEncoder(writer: self, depth: depth, nested: true))
                // A value that wrote nothing (an empty `encode(to:)`) is an empty object, as JSONEncoder writes it.
                if bytes.count == before { literal("{}") }
                close(downTo: depth)
            }
        }
    }

    /// The encoder handed to a value's `encode(to:)`: its containers write at `depth`.
    struct StreamingEncoder: Encoder {
        let writer: Writer
        let depth: Int
        /// A value inside a container: the container already wrote its key or comma.
        var nested = false
        /// Whether this encoder gave out a container: asked twice, it cannot stream (the encoding falls back).
        private let given = Given()

        final class Given {
            var container = false
        }
        var codingPath: [any CodingKey] { [] }
        var userInfo: [CodingUserInfoKey: Any] { [:] }

        init(writer: Writer, depth: Int, nested: Bool = false) {
            self.writer = writer
            self.depth = depth
            self.nested = nested
        }

        private func begin() throws {
            guard !given.container else { throw Unsupported() }
            given.container = true
            if !nested { try writer.element(at: depth) }
        }

        func container<Key: CodingKey>(keyedBy type: Key.Type) -> KeyedEncodingContainer<Key> {
            do {
                try begin()
                writer.openContainer(UInt8(ascii: "{"), closing: UInt8(ascii: "}"))
                return KeyedEncodingContainer(Keyed<Key>(writer: writer, depth: writer.open.count))
            } catch {
                return KeyedEncodingContainer(Keyed<Key>(writer: writer, depth: -1))
            }
        }

        func unkeyedContainer() -> any UnkeyedEncodingContainer {
            do {
                try begin()
                writer.openContainer(UInt8(ascii: "["), closing: UInt8(ascii: "]"))
                return Unkeyed(writer: writer, depth: writer.open.count)
            } catch {
                return Unkeyed(writer: writer, depth: -1)
            }
        }

        func singleValueContainer() -> any SingleValueEncodingContainer {
            guard !given.container else { return FailingSingleValue() }
            given.container = true
            return SingleValue(writer: writer, depth: depth, nested: nested)
        }
    }

    struct Keyed<Key: CodingKey>: KeyedEncodingContainerProtocol {
        let writer: Writer
        /// This container's place in ``Writer/open``; -1 when it could not be opened (the encoding falls back).
        let depth: Int
        var codingPath: [any CodingKey] { [] }

        private func field(_ key: Key) throws {
            guard depth > 0 else { throw Unsupported() }
            try writer.element(at: depth)
            writer.key(key)
        }

        mutating func encodeNil(forKey key: Key) throws {
            try field(key)
            writer.literal("null")
        }

        mutating func encode<T: Encodable>(_ value: T, forKey key: Key) throws {
            try field(key)
            try writer.value(value, depth: depth)
        }

        mutating func nestedContainer<NestedKey: CodingKey>(keyedBy keyType: NestedKey.Type, forKey key: Key) -> KeyedEncodingContainer<NestedKey> {
            guard (try? field(key)) != nil else { return KeyedEncodingContainer(Keyed<NestedKey>(writer: writer, depth: -1)) }
            writer.openContainer(UInt8(ascii: "{"), closing: UInt8(ascii: "}"))
            return KeyedEncodingContainer(Keyed<NestedKey>(writer: writer, depth: writer.open.count))
        }

        mutating func nestedUnkeyedContainer(forKey key: Key) -> any UnkeyedEncodingContainer {
            guard (try? field(key)) != nil else { return Unkeyed(writer: writer, depth: -1) }
            writer.openContainer(UInt8(ascii: "["), closing: UInt8(ascii: "]"))
            return Unkeyed(writer: writer, depth: writer.open.count)
        }

        mutating func superEncoder() -> any Encoder { FailingEncoder() }
        mutating func superEncoder(forKey key: Key) -> any Encoder { FailingEncoder() }
    }

    struct Unkeyed: UnkeyedEncodingContainer {
        let writer: Writer
        let depth: Int
        var count = 0
        var codingPath: [any CodingKey] { [] }

        private mutating func next() throws {
            guard depth > 0 else { throw Unsupported() }
            try writer.element(at: depth)
            count += 1
        }

        mutating func encodeNil() throws {
            try next()
            writer.literal("null")
        }

        mutating func encode<T: Encodable>(_ value: T) throws {
            try next()
            try writer.value(value, depth: depth)
        }

        mutating func nestedContainer<NestedKey: CodingKey>(keyedBy keyType: NestedKey.Type) -> KeyedEncodingContainer<NestedKey> {
            guard (try? next()) != nil else { return KeyedEncodingContainer(Keyed<NestedKey>(writer: writer, depth: -1)) }
            writer.openContainer(UInt8(ascii: "{"), closing: UInt8(ascii: "}"))
            return KeyedEncodingContainer(Keyed<NestedKey>(writer: writer, depth: writer.open.count))
        }

        mutating func nestedUnkeyedContainer() -> any UnkeyedEncodingContainer {
            guard (try? next()) != nil else { return Unkeyed(writer: writer, depth: -1) }
            writer.openContainer(UInt8(ascii: "["), closing: UInt8(ascii: "]"))
            return Unkeyed(writer: writer, depth: writer.open.count)
        }

        mutating func superEncoder() -> any Encoder { FailingEncoder() }
    }

    struct SingleValue: SingleValueEncodingContainer {
        let writer: Writer
        let depth: Int
        let nested: Bool
        var codingPath: [any CodingKey] { [] }

        private func begin() throws {
            if !nested { try writer.element(at: depth) }
        }

        mutating func encodeNil() throws {
            try begin()
            writer.literal("null")
        }

        mutating func encode<T: Encodable>(_ value: T) throws {
            try begin()
            try writer.value(value, depth: depth)
        }
    }

    /// What a super-encoder gets: every container it opens refuses, so the encoding falls back.
    struct FailingEncoder: Encoder {
        var codingPath: [any CodingKey] { [] }
        var userInfo: [CodingUserInfoKey: Any] { [:] }

        func container<Key: CodingKey>(keyedBy type: Key.Type) -> KeyedEncodingContainer<Key> {
            KeyedEncodingContainer(Keyed<Key>(writer: Writer(), depth: -1))
        }

        func unkeyedContainer() -> any UnkeyedEncodingContainer { Unkeyed(writer: Writer(), depth: -1) }

        func singleValueContainer() -> any SingleValueEncodingContainer { FailingSingleValue() }
    }

    struct FailingSingleValue: SingleValueEncodingContainer {
        var codingPath: [any CodingKey] { [] }
        mutating func encodeNil() throws { throw Unsupported() }
        mutating func encode<T: Encodable>(_ value: T) throws { throw Unsupported() }
    }
}
