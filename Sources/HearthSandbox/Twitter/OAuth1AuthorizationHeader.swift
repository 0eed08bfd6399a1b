import Foundation
import HearthFormEncoding

/// The protocol parameters of an `Authorization: OAuth …` header (RFC 5849 §3.5.1).
struct OAuth1AuthorizationHeader: Sendable {
    /// Every parameter except `realm`, percent-decoded, in header order.
    let parameters: [(name: String, value: String)]

    /// Parses `OAuth name="value", name="value"`; `nil` when the scheme is not OAuth, a value is not quoted,
    /// an escape is malformed, or a parameter repeats.
    init?(_ header: String) {
        let trimmed = header.drop(while: { $0 == " " })
        guard trimmed.count > 6, trimmed.prefix(6).lowercased() == "oauth " else { return nil }
        var parameters: [(name: String, value: String)] = []
        for item in trimmed.dropFirst(6).split(separator: ",") {
            let entry = item.trimmingCharacters(in: .whitespaces)
            if entry.isEmpty { continue }
            guard let equals = entry.firstIndex(of: "=") else { return nil }
            let rawValue = entry[entry.index(after: equals)...]
            guard rawValue.count >= 2, rawValue.first == "\"", rawValue.last == "\"",
                let name = FormEncoding.percentDecode(entry[..<equals], plusIsSpace: false),
                let value = FormEncoding.percentDecode(rawValue.dropFirst().dropLast(), plusIsSpace: false)
            else { return nil }
            if name == "realm" { continue }
            guard !parameters.contains(where: { $0.name == name }) else { return nil }
            parameters.append((name, value))
        }
        self.parameters = parameters
    }

    subscript(name: String) -> String? { parameters.first { $0.name == name }?.value }
}
