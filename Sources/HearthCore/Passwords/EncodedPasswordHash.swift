import Foundation

/// A stored hash in the `$scheme$key=value,…$<base64>$<base64>…` form, split into its parts.
///
/// Parsing is strict and cheap: anything odd (an overlong string, a duplicate or empty parameter, a field that
/// is not base64) gives `nil`, so a malformed hash never matches.
struct EncodedPasswordHash {
    let scheme: String
    let parameters: [String: String]
    let fields: [[UInt8]]

    init?(_ encoded: String) {
        guard encoded.utf8.count <= 4096 else { return nil }
        let parts = encoded.split(separator: "$", omittingEmptySubsequences: false)
        guard parts.count >= 4, parts[0].isEmpty, !parts[1].isEmpty else { return nil }
        var parameters: [String: String] = [:]
        for pair in parts[2].split(separator: ",", omittingEmptySubsequences: false) {
            let kv = pair.split(separator: "=", maxSplits: 1, omittingEmptySubsequences: false)
            guard kv.count == 2, !kv[0].isEmpty, !kv[1].isEmpty, parameters[String(kv[0])] == nil else { return nil }
            parameters[String(kv[0])] = String(kv[1])
        }
        var fields: [[UInt8]] = []
        for part in parts[3...] {
            guard let data = Data(base64Encoded: String(part)) else { return nil }
            fields.append(Array(data))
        }
        self.scheme = String(parts[1])
        self.parameters = parameters
        self.fields = fields
    }

    /// The parameter `key` as a decimal integer within `range`, or `nil`.
    func int(_ key: String, in range: ClosedRange<Int>) -> Int? {
        guard let text = parameters[key], text.utf8.count <= 9, text.utf8.allSatisfy({ (48...57).contains($0) }),
            let value = Int(text), range.contains(value)
        else { return nil }
        return value
    }

    /// Whether the parameters are exactly `keys`.
    func hasParameters(_ keys: Set<String>) -> Bool { Set(parameters.keys) == keys }
}
