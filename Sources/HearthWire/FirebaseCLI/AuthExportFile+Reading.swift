import Foundation

/// Reading an export file someone hands over (`hearth users import`, the console's import): the bytes checked as
/// text first, then JSON or CSV, every refusal a sentence that names what is wrong and where.
extension AuthExportFile {
    /// The two forms of the Firebase CLI's files.
    public enum Format: String, Sendable, CaseIterable {
        case json, csv

        /// The form a file name says (`.json`, `.csv`, in any case); `nil` for any other name.
        public init?(fileName: String) {
            let name = fileName.lowercased()
            if name.hasSuffix(".json") {
                self = .json
            } else if name.hasSuffix(".csv") {
                self = .csv
            } else {
                return nil
            }
        }
    }

    /// Why a file could not be read; ``description`` is the sentence to show.
    public struct ReadError: Error, Sendable, Equatable, CustomStringConvertible {
        public var description: String

        public init(_ description: String) { self.description = description }
    }

    /// The longest line a CSV export may have: a user's 28 fields, claims (at most 1000 bytes) included, fit many
    /// times over.
    public static let maximumCSVLineBytes = 64 * 1024

    /// Reads `data` as `format`, every user at once (see ``UserReader`` for what is refused).
    public static func read(_ data: Data, format: Format) throws(ReadError) -> AuthExportFile {
        var reader = try UserReader(data, format: format)
        var users: [ExportedUser] = []
        while let user = try reader.next() { users.append(user) }
        return AuthExportFile(users: users)
    }

    /// The users of an export's bytes, one at a time, so that a large file is never held as objects in memory: only
    /// the user being read is (the bytes may be a mapped file).
    ///
    /// Refused, each with a sentence: a file that is not UTF-8 text or holds a NUL byte (checked at ``init(_:format:)``);
    /// JSON that is not an export (the first field that is missing or of the wrong type named by its path,
    /// `users.3.emailVerified`; anything after the users is read, and checked, before ``next()`` says there are no
    /// more); a CSV line over ``maximumCSVLineBytes`` or one ``csv(_:)`` refuses. A user-caused error ends the reading:
    /// ``next()`` throws it again.
    public struct UserReader: Sendable {
        private let data: Data
        private let format: Format
        /// JSON: where the next read starts, as an offset from `data.startIndex`; the object's part being read, and
        /// whether its `users` member was found.
        private var offset = 0
        private var phase = Phase.begin
        private var sawUsers = false
        /// CSV: the rows, read from their own offset.
        private var csvRows = CSVRows(maximumLineBytes: AuthExportFile.maximumCSVLineBytes)
        /// Users read so far.
        public private(set) var count = 0
        private var failure: ReadError?

        private enum Phase: Sendable {
            case begin, member, element, afterMember, end, finished
        }

        /// Checks `data` as text (no NUL byte, valid UTF-8, in chunks, never copied whole) and readies it.
        public init(_ data: Data, format: Format) throws(ReadError) {
            let problem: ReadError? = data.withUnsafeBytes { bytes in
                if let nul = bytes.firstIndex(of: 0) {
                    return ReadError("The file holds a NUL byte (at byte \(nul + 1)): it is not a text export.")
                }
                return Self.isUTF8(bytes) ? nil : ReadError("The file is not UTF-8 text.")
            }
            if let problem { throw problem }
            self.data = data
            self.format = format
            // A byte-order mark, as spreadsheets write one, is not part of the text.
            if data.starts(with: [0xEF, 0xBB, 0xBF]) {
                offset = 3
                csvRows.offset = 3
            }
        }

        /// The next user; `nil` once the file is read through.
        public mutating func next() throws(ReadError) -> ExportedUser? {
            if let failure { throw failure }
            do {
                switch format {
                case .json: return try nextJSON()
                case .csv: return try nextCSV()
                }
            } catch {
                failure = error
                throw error
            }
        }

        /// Whether `bytes` is UTF-8, checked a mebibyte at a time, each piece ending where a character starts.
        private static func isUTF8(_ bytes: UnsafeRawBufferPointer) -> Bool {
            var start = 0
            while start < bytes.count {
                var end = min(start + 1 << 20, bytes.count)
                // Back to a character's first byte (a continuation byte is 10xxxxxx; a character has at most three).
                var back = 0
                while end < bytes.count, back < 3, bytes[end] & 0xC0 == 0x80 {
                    end -= 1
                    back += 1
                }
                guard String(validating: UnsafeRawBufferPointer(rebasing: bytes[start..<end]), as: UTF8.self) != nil else { return false }
                start = end
            }
            return true
        }

        // MARK: JSON

        private static func notExport(_ what: String) -> ReadError {
            ReadError("The file is not a Firebase CLI JSON export: \(what).")
        }

        private static var notJSON: ReadError { notExport("it is not JSON") }

        /// Walks the top-level object: its members other than `users` are checked and passed over, and each element of
        /// `users` is decoded on its own.
        private mutating func nextJSON() throws(ReadError) -> ExportedUser? {
            var scanner = JSONScanner(data: data, offset: offset)
            defer { offset = scanner.offset }
            while true {
                switch phase {
                case .begin:
                    scanner.skipSpace()
                    guard scanner.take(UInt8(ascii: "{")) else {
                        throw scanner.atEnd ? Self.notJSON : Self.notExport("its top level is not an object")
                    }
                    scanner.skipSpace()
                    phase = scanner.take(UInt8(ascii: "}")) ? .end : .member
                case .member:
                    let key = try scanner.key()
                    scanner.skipSpace()
                    guard scanner.take(UInt8(ascii: ":")) else { throw Self.notJSON }
                    scanner.skipSpace()
                    if key == "users" {
                        guard !sawUsers else { throw Self.notExport("users is given twice") }
                        sawUsers = true
                        guard scanner.take(UInt8(ascii: "[")) else {
                            _ = try scanner.value()
                            throw Self.notExport("users is not what it should be")
                        }
                        scanner.skipSpace()
                        phase = scanner.take(UInt8(ascii: "]")) ? .afterMember : .element
                    } else {
                        let value = try scanner.value()
                        guard (try? JSONSerialization.jsonObject(with: data[value], options: .fragmentsAllowed)) != nil else { throw Self.notJSON }
                        phase = .afterMember
                    }
                case .element:
                    let value = try scanner.value()
                    let user: ExportedUser
                    do {
                        user = try JSONDecoder().decode(ExportedUser.self, from: data[value])
                    } catch {
                        throw Self.notExport(AuthExportFile.describe(error, under: ["users", String(count)]))
                    }
                    count += 1
                    scanner.skipSpace()
                    if scanner.take(UInt8(ascii: ",")) {
                        scanner.skipSpace()
                    } else if scanner.take(UInt8(ascii: "]")) {
                        phase = .afterMember
                    } else {
                        throw Self.notJSON
                    }
                    return user
                case .afterMember:
                    scanner.skipSpace()
                    if scanner.take(UInt8(ascii: ",")) {
                        scanner.skipSpace()
                        phase = .member
                    } else if scanner.take(UInt8(ascii: "}")) {
                        phase = .end
                    } else {
                        throw Self.notJSON
                    }
                case .end:
                    scanner.skipSpace()
                    guard scanner.atEnd else { throw Self.notJSON }
                    guard sawUsers else { throw Self.notExport("users is missing") }
                    phase = .finished
                    return nil
                case .finished:
                    return nil
                }
            }
        }

        // MARK: CSV

        /// The next row that is not empty, as a user.
        private mutating func nextCSV() throws(ReadError) -> ExportedUser? {
            var rows = csvRows
            defer { csvRows = rows }
            let row: Result<(Int, [String])?, CSVRows.Failure> = data.withUnsafeBytes { bytes in
                Result { () throws(CSVRows.Failure) in try rows.next(in: bytes) }
            }
            let found: (Int, [String])?
            switch row {
            case .success(let next): found = next
            case .failure(.line(let error)):
                throw ReadError("The file is not a Firebase CLI CSV export: line \(error.line): \(error.problem).")
            case .failure(.tooLong(let line)):
                throw ReadError("Line \(line) is longer than \(maximumCSVLineBytes / 1024) KiB: this is not a Firebase CLI CSV export.")
            }
            guard let (number, fields) = found else { return nil }
            do {
                let user = try AuthExportFile.csvUser(fields, line: number)
                count += 1
                return user
            } catch {
                throw ReadError("The file is not a Firebase CLI CSV export: line \(error.line): \(error.problem).")
            }
        }
    }

    /// A decoding error in a few words, with the path of the field under `prefix` (`users.0.localId is missing`).
    static func describe(_ error: any Error, under prefix: [String] = []) -> String {
        func path(_ keys: [any CodingKey]) -> String {
            (prefix + keys.map { $0.intValue.map(String.init) ?? $0.stringValue }).joined(separator: ".")
        }
        return switch error {
        case DecodingError.keyNotFound(let key, let context):
            "\(path(context.codingPath + [key])) is missing"
        case DecodingError.typeMismatch(_, let context) where !(prefix + context.codingPath.map(\.stringValue)).isEmpty,
            DecodingError.valueNotFound(_, let context) where !(prefix + context.codingPath.map(\.stringValue)).isEmpty:
            "\(path(context.codingPath)) is not what it should be"
        case DecodingError.dataCorrupted(let context) where !context.codingPath.isEmpty:
            "\(path(context.codingPath)) is not what it should be"
        default: "it is not JSON"
        }
    }
}

/// A cursor over JSON text that finds where values end without building them (strings and nesting followed, so a
/// bracket inside a string is not counted), and never recurses, however deep the nesting.
private struct JSONScanner {
    let data: Data
    var offset: Int

    init(data: Data, offset: Int) {
        self.data = data
        self.offset = offset
    }

    var atEnd: Bool { offset >= data.count }

    private func byte(_ at: Int) -> UInt8 { data[data.startIndex + at] }

    private static func isSpace(_ byte: UInt8) -> Bool {
        byte == 0x20 || byte == 0x0A || byte == 0x0D || byte == 0x09
    }

    mutating func skipSpace() {
        while !atEnd, Self.isSpace(byte(offset)) { offset += 1 }
    }

    /// Moves past `expected` if it is next.
    mutating func take(_ expected: UInt8) -> Bool {
        guard !atEnd, byte(offset) == expected else { return false }
        offset += 1
        return true
    }

    /// The member name at `offset`, unescaped.
    mutating func key() throws(AuthExportFile.ReadError) -> String {
        guard !atEnd, byte(offset) == UInt8(ascii: "\"") else { throw notJSON }
        let range = try value()
        guard let name = try? JSONDecoder().decode(String.self, from: data[range]) else { throw notJSON }
        return name
    }

    /// The range in `data` of the value at `offset` (a string, an object, an array, or a number or literal up to the
    /// next delimiter), moving past it. Only its extent is checked here; its parts are checked where it is decoded.
    mutating func value() throws(AuthExportFile.ReadError) -> Range<Data.Index> {
        let start = offset
        guard !atEnd else { throw notJSON }
        switch byte(offset) {
        case UInt8(ascii: "\""):
            try skipString()
        case UInt8(ascii: "{"), UInt8(ascii: "["):
            var depth = 0
            repeat {
                guard !atEnd else { throw notJSON }
                switch byte(offset) {
                case UInt8(ascii: "\""):
                    try skipString()
                    continue
                case UInt8(ascii: "{"), UInt8(ascii: "["): depth += 1
                case UInt8(ascii: "}"), UInt8(ascii: "]"): depth -= 1
                default: break
                }
                offset += 1
            } while depth > 0
        case UInt8(ascii: "}"), UInt8(ascii: "]"), UInt8(ascii: ","), UInt8(ascii: ":"):
            throw notJSON
        default:
            while !atEnd {
                let current = byte(offset)
                if Self.isSpace(current) || current == UInt8(ascii: ",") || current == UInt8(ascii: "]") || current == UInt8(ascii: "}") { break }
                offset += 1
            }
        }
        return data.startIndex + start..<data.startIndex + offset
    }

    /// Moves past the string starting at `offset` (its escapes followed).
    private mutating func skipString() throws(AuthExportFile.ReadError) {
        offset += 1
        while !atEnd {
            let current = byte(offset)
            offset += current == UInt8(ascii: "\\") ? 2 : 1
            if current == UInt8(ascii: "\"") { return }
        }
        throw notJSON
    }

    private var notJSON: AuthExportFile.ReadError {
        AuthExportFile.ReadError("The file is not a Firebase CLI JSON export: it is not JSON.")
    }
}
