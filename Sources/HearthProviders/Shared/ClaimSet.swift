import Foundation
import HearthCore
import JWTKit

/// A JSON object read leniently, the way providers actually write their claims and profiles: booleans that
/// are sometimes strings (`"true"`), numbers that are sometimes strings, ids that are numbers.
///
/// Also the JWT payload type handed to jwt-kit: it only decodes, and all checks happen in
/// ``IDTokenValidator`` so that every provider gets the same rules and the same error details.
struct ClaimSet: JWTPayload, Equatable {
    var values: [String: JSONValue]

    init(_ values: [String: JSONValue]) { self.values = values }

    init(from decoder: any Decoder) throws {
        values = try decoder.singleValueContainer().decode([String: JSONValue].self)
    }

    func encode(to encoder: any Encoder) throws {
        var container = encoder.singleValueContainer()
        try container.encode(values)
    }

    func verify(using algorithm: some JWTAlgorithm) async throws {}

    subscript(_ key: String) -> JSONValue? { values[key] }

    /// A non-empty string, or a number written as an integer string (ids).
    func string(_ key: String) -> String? {
        switch values[key] {
        case .string(let s)? where !s.isEmpty: s
        case .number(let n)? where n.rounded() == n && abs(n) < 9_007_199_254_740_992: String(Int64(n))
        default: nil
        }
    }

    /// A boolean written as `true`, `"true"`, `"1"` or `1` (and their false forms); `nil` when absent or other.
    func flag(_ key: String) -> Bool? {
        switch values[key] {
        case .bool(let b)?: b
        case .string(let s)?:
            switch s.lowercased() {
            case "true", "1": true
            case "false", "0": false
            default: nil
            }
        case .number(let n)?: n == 1 ? true : (n == 0 ? false : nil)
        default: nil
        }
    }

    /// A number, or a string holding one (Google's `tokeninfo` writes `exp` as a string).
    func number(_ key: String) -> Double? {
        switch values[key] {
        case .number(let n)?: n
        case .string(let s)?: Double(s)
        default: nil
        }
    }

    /// A nested object.
    func object(_ key: String) -> ClaimSet? {
        if case .object(let o)? = values[key] { ClaimSet(o) } else { nil }
    }

    /// `aud`: one string or an array of strings.
    func strings(_ key: String) -> [String] {
        switch values[key] {
        case .string(let s)?: [s]
        case .array(let a)?: a.compactMap { if case .string(let s) = $0 { s } else { nil } }
        default: []
        }
    }

    /// An e-mail address, lower-cased, if it looks like one.
    func email(_ key: String = "email") -> String? {
        guard let raw = string(key)?.trimmingCharacters(in: .whitespaces), raw.contains("@") else { return nil }
        return raw.lowercased()
    }

    /// The named keys that are present, for building a provider-shaped profile.
    func picking(_ keys: [String]) -> [String: JSONValue] {
        var result: [String: JSONValue] = [:]
        for key in keys { if let value = values[key], value != .null { result[key] = value } }
        return result
    }
}
