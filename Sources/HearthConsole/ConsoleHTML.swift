import Foundation
import HearthMessages

/// Text made safe for the console's HTML: every value escaped, control and direction-changing characters shown as
/// what they are (never obeyed), long values cut.
enum ConsoleHTML {
    /// `text` escaped for an element's content or a quoted attribute: `& < > " '` as entities, controls as U+FFFD,
    /// and the bidirectional controls (U+202A–U+202E, U+2066–U+2069, U+200E, U+200F, U+061C) as a visible marker,
    /// so that a name cannot turn the text after it around.
    static func escape(_ text: String) -> String {
        guard text.unicodeScalars.contains(where: isBidiControl) else { return DisplayText.html(text) }
        var visible = ""
        for scalar in text.unicodeScalars {
            if isBidiControl(scalar) {
                visible += "[U+\(String(scalar.value, radix: 16, uppercase: true))]"
            } else {
                visible.unicodeScalars.append(scalar)
            }
        }
        return DisplayText.html(visible)
    }

    /// A value from the database as it is shown: escaped, cut after `limit` characters (with a note of the length), in a
    /// `<bdi>` so that whatever direction it has stays inside.
    static func value(_ text: String, limit: Int = 200) -> String {
        let shown = text.count > limit ? escape(String(text.prefix(limit))) + "… (\(text.count) characters)" : escape(text)
        return "<bdi>\(shown)</bdi>"
    }

    /// An optional value, or a dash.
    static func value(_ text: String?, limit: Int = 200, empty: String = "–") -> String {
        text.map { value($0, limit: limit) } ?? "<span class=\"muted\">\(empty)</span>"
    }

    static func isBidiControl(_ scalar: Unicode.Scalar) -> Bool {
        (0x202A...0x202E).contains(scalar.value) || (0x2066...0x2069).contains(scalar.value) || scalar.value == 0x200E
            || scalar.value == 0x200F || scalar.value == 0x061C
    }

    /// `2026-11-27 10:04:05 UTC`.
    static func time(_ date: Date) -> String {
        let formatted = date.formatted(
            Date.ISO8601FormatStyle(timeZone: TimeZone(identifier: "UTC")!).year().month().day().dateSeparator(.dash).time(
                includingFractionalSeconds: false
            ).timeSeparator(.colon))
        return formatted.replacingOccurrences(of: "T", with: " ").replacingOccurrences(of: "Z", with: "") + " UTC"
    }

    /// A `<time>` element, or a dash.
    static func time(_ date: Date?, empty: String = "never") -> String {
        guard let date else { return "<span class=\"muted\">\(empty)</span>" }
        let iso = date.formatted(Date.ISO8601FormatStyle(timeZone: TimeZone(identifier: "UTC")!))
        return "<time datetime=\"\(iso)\">\(time(date))</time>"
    }

    /// `value` for a URL's query.
    static func queryValue(_ value: String) -> String {
        var allowed = CharacterSet.alphanumerics
        allowed.insert(charactersIn: "-._~")
        return value.addingPercentEncoding(withAllowedCharacters: allowed) ?? ""
    }

    /// A path segment: the uid in `/console/users/{uid}`.
    static func pathSegment(_ value: String) -> String { queryValue(value) }
}
