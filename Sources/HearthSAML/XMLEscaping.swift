import Foundation

/// Escaping for XML that HearthSAML writes.
enum XMLEscaping {
    /// `value` for a double-quoted attribute.
    static func attribute(_ value: String) -> String {
        text(value).replacingOccurrences(of: "\"", with: "&quot;")
    }

    /// `value` for element content.
    static func text(_ value: String) -> String {
        value.replacingOccurrences(of: "&", with: "&amp;").replacingOccurrences(of: "<", with: "&lt;")
            .replacingOccurrences(of: ">", with: "&gt;")
    }
}
