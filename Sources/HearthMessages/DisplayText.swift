/// Cleaning and escaping of the values that go into mails and pages.
public enum DisplayText {
    /// `text` on one line: control characters and line or paragraph separators become spaces, bidirectional
    /// overrides and isolates are dropped (they can make a name read backwards), runs of spaces become one, and
    /// the ends are trimmed. For names and addresses, and for subjects, which must never hold a CR or LF.
    public static func singleLine(_ text: String) -> String {
        var result = String.UnicodeScalarView()
        var pendingSpace = false
        for scalar in text.unicodeScalars {
            if isBidiControl(scalar) { continue }
            if scalar.properties.isWhitespace || isLineBreakingOrControl(scalar) {
                pendingSpace = !result.isEmpty
                continue
            }
            if pendingSpace {
                result.append(" ")
                pendingSpace = false
            }
            result.append(scalar)
        }
        return String(result)
    }

    /// `text` for HTML text and double- or single-quoted attribute values: `&`, `<`, `>`, `"` and `'` as
    /// character references; control characters other than tab and line feed as U+FFFD.
    public static func html(_ text: String) -> String {
        var result = ""
        result.reserveCapacity(text.utf8.count)
        for scalar in text.unicodeScalars {
            switch scalar {
            case "&": result += "&amp;"
            case "<": result += "&lt;"
            case ">": result += "&gt;"
            case "\"": result += "&quot;"
            case "'": result += "&#39;"
            case "\t", "\n": result.unicodeScalars.append(scalar)
            default:
                if scalar.properties.generalCategory == .control {
                    result += "\u{FFFD}"
                } else {
                    result.unicodeScalars.append(scalar)
                }
            }
        }
        return result
    }

    private static func isLineBreakingOrControl(_ scalar: Unicode.Scalar) -> Bool {
        switch scalar.properties.generalCategory {
        case .control, .lineSeparator, .paragraphSeparator: true
        default: false
        }
    }

    private static func isBidiControl(_ scalar: Unicode.Scalar) -> Bool {
        (0x202A...0x202E).contains(scalar.value) || (0x2066...0x2069).contains(scalar.value)
    }
}
