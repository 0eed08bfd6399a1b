import Foundation

/// A `multipart/form-data` body (RFC 7578) as a browser sends a form with a file: each part's name, its file name if it
/// is a file, and its bytes. Only what the console's upload form needs: no nested multiparts, no transfer encodings.
struct ConsoleMultipart: Sendable {
    struct Part: Sendable {
        var name: String
        var fileName: String?
        var data: Data
    }

    var parts: [Part]

    /// The first part named `name`.
    func part(_ name: String) -> Part? { parts.first { $0.name == name } }

    /// The text of the first field named `name`, `nil` when there is none or it is not UTF-8.
    func field(_ name: String) -> String? { part(name).flatMap { String(data: $0.data, encoding: .utf8) } }

    /// The boundary a `Content-Type: multipart/form-data; boundary=…` names; `nil` for any other type.
    static func boundary(contentType: String) -> String? {
        let pieces = contentType.split(separator: ";").map { $0.trimmingCharacters(in: .whitespaces) }
        guard pieces.first?.lowercased() == "multipart/form-data" else { return nil }
        for piece in pieces.dropFirst() where piece.lowercased().hasPrefix("boundary=") {
            var value = piece.dropFirst("boundary=".count)
            if value.hasPrefix("\""), value.hasSuffix("\""), value.count >= 2 { value = value.dropFirst().dropLast() }
            // RFC 2046: 1 to 70 characters.
            guard (1...70).contains(value.utf8.count) else { return nil }
            return String(value)
        }
        return nil
    }

    /// Reads `body`; `nil` when it is not a well-formed multipart body with that boundary.
    init?(_ body: Data, boundary: String) {
        let delimiter = Data("--\(boundary)".utf8)
        let separator = Data("\r\n\r\n".utf8)
        guard var cursor = body.range(of: delimiter)?.upperBound else { return nil }
        var parts: [Part] = []
        while true {
            // After a delimiter: `--` ends the body, a line break starts a part.
            let rest = body[cursor...]
            if rest.starts(with: Data("--".utf8)) { break }
            guard rest.starts(with: Data("\r\n".utf8)) else { return nil }
            let start = rest.startIndex + 2
            guard let headerEnd = body.range(of: separator, in: start..<body.endIndex),
                let next = body.range(of: Data("\r\n".utf8) + delimiter, in: headerEnd.upperBound..<body.endIndex)
            else { return nil }
            guard let headers = String(data: body[start..<headerEnd.lowerBound], encoding: .utf8),
                let disposition = Self.disposition(headers), let name = disposition["name"]
            else { return nil }
            // A slice of `body`, not a copy (an upload's file part is read from its mapped file).
            parts.append(Part(name: name, fileName: disposition["filename"], data: body[headerEnd.upperBound..<next.lowerBound]))
            cursor = next.upperBound
        }
        self.parts = parts
    }

    /// The parameters of a part's `Content-Disposition: form-data; name="…"; filename="…"`.
    private static func disposition(_ headers: String) -> [String: String]? {
        for line in headers.split(separator: "\r\n") {
            let pair = line.split(separator: ":", maxSplits: 1)
            guard pair.count == 2, pair[0].lowercased() == "content-disposition" else { continue }
            var parameters: [String: String] = [:]
            var rest = Substring(pair[1])
            guard let semicolon = rest.firstIndex(of: ";"), rest[..<semicolon].trimmingCharacters(in: .whitespaces).lowercased() == "form-data"
            else { return nil }
            rest = rest[rest.index(after: semicolon)...]
            while let equals = rest.firstIndex(of: "=") {
                let key = rest[..<equals].trimmingCharacters(in: .whitespaces).lowercased()
                rest = rest[rest.index(after: equals)...].drop { $0 == " " }
                var value = ""
                if rest.first == "\"" {
                    // Browsers write a quote in a name as %22 and never escape with a backslash.
                    rest = rest.dropFirst()
                    guard let end = rest.firstIndex(of: "\"") else { return nil }
                    value = String(rest[..<end])
                    rest = rest[rest.index(after: end)...]
                } else {
                    let end = rest.firstIndex(of: ";") ?? rest.endIndex
                    value = rest[..<end].trimmingCharacters(in: .whitespaces)
                    rest = rest[end...]
                }
                parameters[key] = value
                rest = rest.drop { $0 == ";" || $0 == " " }
            }
            return parameters
        }
        return nil
    }
}
