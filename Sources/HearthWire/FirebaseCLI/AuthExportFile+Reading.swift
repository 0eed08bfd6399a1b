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

    /// Reads `data` as `format`. Refused: a file that is not UTF-8 text or holds a NUL byte, JSON that is not an export
    /// (the first field that is missing or of the wrong type named by its path, `users.3.emailVerified`), a CSV line
    /// over ``maximumCSVLineBytes`` or one ``csv(_:)`` refuses.
    public static func read(_ data: Data, format: Format) throws(ReadError) -> AuthExportFile {
        if let nul = data.firstIndex(of: 0) {
            throw ReadError("The file holds a NUL byte (at byte \(nul - data.startIndex + 1)): it is not a text export.")
        }
        guard let text = String(data: data, encoding: .utf8) else { throw ReadError("The file is not UTF-8 text.") }
        switch format {
        case .json:
            do {
                return try JSONDecoder().decode(AuthExportFile.self, from: data)
            } catch {
                throw ReadError("The file is not a Firebase CLI JSON export: \(describe(error)).")
            }
        case .csv:
            var line = 1
            var length = 0
            for byte in data {
                if byte == UInt8(ascii: "\n") || byte == UInt8(ascii: "\r") {
                    if byte == UInt8(ascii: "\n") { line += 1 }
                    length = 0
                } else {
                    length += 1
                    if length > maximumCSVLineBytes {
                        throw ReadError("Line \(line) is longer than \(maximumCSVLineBytes / 1024) KiB: this is not a Firebase CLI CSV export.")
                    }
                }
            }
            do {
                return try csv(text)
            } catch let error as CSVError {
                throw ReadError("The file is not a Firebase CLI CSV export: line \(error.line): \(error.problem).")
            } catch {
                throw ReadError("The file is not a Firebase CLI CSV export.")
            }
        }
    }

    /// A decoding error in a few words, with the path of the field (`users.0.localId is missing`).
    static func describe(_ error: any Error) -> String {
        func path(_ keys: [any CodingKey]) -> String { keys.map { $0.intValue.map(String.init) ?? $0.stringValue }.joined(separator: ".") }
        return switch error {
        case DecodingError.keyNotFound(let key, let context):
            "\(path(context.codingPath + [key])) is missing"
        case DecodingError.typeMismatch(_, let context), DecodingError.valueNotFound(_, let context):
            "\(path(context.codingPath)) is not what it should be"
        case DecodingError.dataCorrupted(let context) where !context.codingPath.isEmpty:
            "\(path(context.codingPath)) is not what it should be"
        default: "it is not JSON"
        }
    }
}
