/// Reads the JSON object of a token's header or payload (RFC 8259) straight into ``ClaimValue``s.
///
/// `JSONDecoder` reads a ``ClaimValue`` by trying each kind in turn, and every failed try throws: a token's
/// payload cost about as much as checking its signature. This reader looks at the first byte instead.
/// It is strict: invalid UTF-8, control characters in strings, lone surrogates, duplicate keys, numbers
/// outside `Double`, trailing bytes and nesting deeper than ``maximumDepth`` are all refused.
struct ClaimJSON {
    static let maximumDepth = 32

    private let bytes: [UInt8]
    private var position = 0

    private init(_ bytes: [UInt8]) {
        self.bytes = bytes
    }

    /// The members of the JSON object `bytes` holds, or nil when they hold anything else.
    static func object(_ bytes: [UInt8]) -> [String: ClaimValue]? {
        var reader = ClaimJSON(bytes)
        guard case .object(let members)? = reader.value(depth: 0) else { return nil }
        reader.skipWhitespace()
        return reader.position == reader.bytes.count ? members : nil
    }

    private var current: UInt8? { position < bytes.count ? bytes[position] : nil }

    private mutating func skipWhitespace() {
        while let byte = current, byte == 0x20 || byte == 0x09 || byte == 0x0A || byte == 0x0D { position += 1 }
    }

    private mutating func value(depth: Int) -> ClaimValue? {
        skipWhitespace()
        guard let byte = current else { return nil }
        switch byte {
        case UInt8(ascii: "{"): return depth < Self.maximumDepth ? object(depth: depth + 1) : nil
        case UInt8(ascii: "["): return depth < Self.maximumDepth ? array(depth: depth + 1) : nil
        case UInt8(ascii: "\""): return string().map(ClaimValue.string)
        case UInt8(ascii: "t"): return literal("true", .bool(true))
        case UInt8(ascii: "f"): return literal("false", .bool(false))
        case UInt8(ascii: "n"): return literal("null", .null)
        default: return number()
        }
    }

    private mutating func literal(_ text: StaticString, _ value: ClaimValue) -> ClaimValue? {
        let count = text.utf8CodeUnitCount
        guard bytes.count - position >= count else { return nil }
        let expected = UnsafeBufferPointer(start: text.utf8Start, count: count)
        for offset in 0..<count where bytes[position + offset] != expected[offset] { return nil }
        position += count
        return value
    }

    private mutating func object(depth: Int) -> ClaimValue? {
        position += 1  // {
        var members: [String: ClaimValue] = [:]
        skipWhitespace()
        if current == UInt8(ascii: "}") {
            position += 1
            return .object(members)
        }
        while true {
            skipWhitespace()
            guard current == UInt8(ascii: "\""), let key = string() else { return nil }
            skipWhitespace()
            guard current == UInt8(ascii: ":") else { return nil }
            position += 1
            guard let member = value(depth: depth), members.updateValue(member, forKey: key) == nil else { return nil }
            skipWhitespace()
            switch current {
            case UInt8(ascii: ","): position += 1
            case UInt8(ascii: "}"):
                position += 1
                return .object(members)
            default: return nil
            }
        }
    }

    private mutating func array(depth: Int) -> ClaimValue? {
        position += 1  // [
        var elements: [ClaimValue] = []
        skipWhitespace()
        if current == UInt8(ascii: "]") {
            position += 1
            return .array(elements)
        }
        while true {
            guard let element = value(depth: depth) else { return nil }
            elements.append(element)
            skipWhitespace()
            switch current {
            case UInt8(ascii: ","): position += 1
            case UInt8(ascii: "]"):
                position += 1
                return .array(elements)
            default: return nil
            }
        }
    }

    /// A string at `position` (its opening quote): unescaped bytes are copied as they are, after a check
    /// that they are valid UTF-8.
    private mutating func string() -> String? {
        position += 1  // "
        let start = position
        while let byte = current, byte != UInt8(ascii: "\""), byte != UInt8(ascii: "\\") {
            guard byte >= 0x20 else { return nil }
            position += 1
        }
        guard let stop = current else { return nil }
        if stop == UInt8(ascii: "\"") {
            position += 1
            return Self.text(bytes[start..<position - 1])
        }
        // Escapes: collect the bytes, then validate the whole.
        var utf8 = Array(bytes[start..<position])
        while let byte = current {
            position += 1
            switch byte {
            case UInt8(ascii: "\""): return Self.text(utf8)
            case UInt8(ascii: "\\"):
                guard let escaped = current else { return nil }
                position += 1
                switch escaped {
                case UInt8(ascii: "\""), UInt8(ascii: "\\"), UInt8(ascii: "/"): utf8.append(escaped)
                case UInt8(ascii: "b"): utf8.append(0x08)
                case UInt8(ascii: "f"): utf8.append(0x0C)
                case UInt8(ascii: "n"): utf8.append(0x0A)
                case UInt8(ascii: "r"): utf8.append(0x0D)
                case UInt8(ascii: "t"): utf8.append(0x09)
                case UInt8(ascii: "u"):
                    guard let scalar = unicodeEscape() else { return nil }
                    utf8.append(contentsOf: String(Character(scalar)).utf8)
                default: return nil
                }
            default:
                guard byte >= 0x20 else { return nil }
                utf8.append(byte)
            }
        }
        return nil
    }

    /// `utf8` as a string, or nil when it is not valid UTF-8.
    private static func text(_ utf8: some Collection<UInt8>) -> String? {
        if !utf8.allSatisfy({ $0 < 0x80 }) {
            var parser = Unicode.UTF8.ForwardParser()
            var iterator = utf8.makeIterator()
            scan: while true {
                switch parser.parseScalar(from: &iterator) {
                case .valid: continue
                case .emptyInput: break scan
                case .error: return nil
                }
            }
        }
        return String(decoding: utf8, as: UTF8.self)
    }

    /// The scalar of `\uXXXX` (the `\u` already read), joining a surrogate pair; nil for a lone surrogate.
    private mutating func unicodeEscape() -> Unicode.Scalar? {
        guard let first = hex4() else { return nil }
        switch first {
        case 0xD800...0xDBFF:
            guard bytes.count - position >= 2, bytes[position] == UInt8(ascii: "\\"), bytes[position + 1] == UInt8(ascii: "u") else { return nil }
            position += 2
            guard let second = hex4(), (0xDC00...0xDFFF).contains(second) else { return nil }
            return Unicode.Scalar(0x10000 + ((first - 0xD800) << 10) + (second - 0xDC00))
        case 0xDC00...0xDFFF: return nil
        default: return Unicode.Scalar(first)
        }
    }

    private mutating func hex4() -> UInt32? {
        guard bytes.count - position >= 4 else { return nil }
        var value: UInt32 = 0
        for _ in 0..<4 {
            let byte = bytes[position]
            let digit: UInt8
            switch byte {
            case UInt8(ascii: "0")...UInt8(ascii: "9"): digit = byte - UInt8(ascii: "0")
            case UInt8(ascii: "a")...UInt8(ascii: "f"): digit = byte - UInt8(ascii: "a") + 10
            case UInt8(ascii: "A")...UInt8(ascii: "F"): digit = byte - UInt8(ascii: "A") + 10
            default: return nil
            }
            value = value << 4 | UInt32(digit)
            position += 1
        }
        return value
    }

    /// `-?(0|[1-9][0-9]*)(.[0-9]+)?([eE][+-]?[0-9]+)?`, finite as a `Double`.
    private mutating func number() -> ClaimValue? {
        let start = position
        func digits() -> Int {
            let first = position
            while let byte = current, byte >= UInt8(ascii: "0"), byte <= UInt8(ascii: "9") { position += 1 }
            return position - first
        }
        if current == UInt8(ascii: "-") { position += 1 }
        if current == UInt8(ascii: "0") {
            position += 1
        } else {
            guard let byte = current, byte >= UInt8(ascii: "1"), byte <= UInt8(ascii: "9") else { return nil }
            _ = digits()
        }
        if current == UInt8(ascii: ".") {
            position += 1
            guard digits() > 0 else { return nil }
        }
        if current == UInt8(ascii: "e") || current == UInt8(ascii: "E") {
            position += 1
            if current == UInt8(ascii: "+") || current == UInt8(ascii: "-") { position += 1 }
            guard digits() > 0 else { return nil }
        }
        guard let value = Double(String(decoding: bytes[start..<position], as: UTF8.self)), value.isFinite else { return nil }
        return .number(value)
    }
}
