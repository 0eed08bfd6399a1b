import Foundation

/// The encodings of a rendered mail: folded header fields, RFC 2047 encoded words, quoted-printable bodies and
/// RFC 5322 dates. Every line ends in CRLF and stays within ``lineLimit`` columns.
enum MIME {
    /// The longest line written (RFC 2045's limit for encoded lines, RFC 5322's recommended 78 less margin).
    static let lineLimit = 76

    /// `Name: token token…`, folded before a token that would pass ``lineLimit``.
    static func field(_ name: String, _ tokens: [String]) -> String {
        var lines: [String] = []
        var line = name + ":"
        var lineHasToken = false
        for token in tokens {
            if lineHasToken && !token.isEmpty && line.utf8.count + 1 + token.utf8.count > lineLimit {
                lines.append(line)
                line = " " + token
            } else {
                line += " " + token
            }
            lineHasToken = true
        }
        lines.append(line)
        return lines.joined(separator: "\r\n")
    }

    /// An unstructured field (`Subject`): as it is when it is short printable ASCII, else encoded words.
    static func unstructured(_ name: String, _ text: String) -> String {
        let words = text.split(separator: " ", omittingEmptySubsequences: false)
        let plain =
            text.utf8.allSatisfy { $0 >= 0x20 && $0 < 0x7f } && !text.contains("=?") && words.allSatisfy { $0.utf8.count <= 60 }
            && !text.hasPrefix(" ") && !text.hasSuffix(" ")
        if plain { return field(name, words.map(String.init)) }
        return field(name, encodedWords(text, firstLength: lineLimit - name.utf8.count - 2))
    }

    /// `name <address>`, `"name, with specials" <address>` or `=?UTF-8?B?…?= <address>`; the bare address
    /// without a name.
    static func mailbox(_ field: String, _ mailbox: MailAddress) -> String {
        guard let name = mailbox.name, !name.isEmpty else { return self.field(field, [mailbox.address]) }
        let angle = "<\(mailbox.address)>"
        let atext = Set("abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789!#$%&'*+-/=?^_`{|}~ ".utf8)
        if name.utf8.allSatisfy(atext.contains) && !name.contains("=?") && !name.hasPrefix(" ") && !name.hasSuffix(" ")
            && !name.contains("  ")
        {
            return self.field(field, name.split(separator: " ").map(String.init) + [angle])
        }
        if name.utf8.allSatisfy({ $0 >= 0x20 && $0 < 0x7f }) && !name.contains("=?") && name.utf8.count <= 60 {
            let escaped = name.replacingOccurrences(of: "\\", with: "\\\\").replacingOccurrences(of: "\"", with: "\\\"")
            return self.field(field, ["\"\(escaped)\"", angle])
        }
        return self.field(field, encodedWords(name, firstLength: lineLimit - field.utf8.count - 2) + [angle])
    }

    /// `text` as RFC 2047 `=?UTF-8?B?…?=` words of at most 75 characters (`firstLength` for the first), each
    /// holding whole characters (whole Unicode scalars for a character too long for one word).
    static func encodedWords(_ text: String, firstLength: Int) -> [String] {
        func capacity(_ length: Int) -> Int { max(1, (min(length, 75) - 12) / 4) * 3 }
        var words: [String] = []
        var chunk: [UInt8] = []
        var limit = capacity(firstLength)
        func flush() {
            guard !chunk.isEmpty else { return }
            words.append("=?UTF-8?B?\(Data(chunk).base64EncodedString())?=")
            chunk = []
            limit = capacity(75)
        }
        func append(_ bytes: some Collection<UInt8>) {
            if chunk.count + bytes.count > limit { flush() }
            chunk.append(contentsOf: bytes)
        }
        for character in text {
            let bytes = Array(character.utf8)
            if bytes.count <= capacity(75) {
                append(bytes)
            } else {
                for scalar in character.unicodeScalars { append(Array(String(scalar).utf8)) }
            }
        }
        flush()
        return words.isEmpty ? ["=?UTF-8?B??="] : words
    }

    /// `text` quoted-printable (RFC 2045 §6.7): line breaks (CRLF, CR or LF) become CRLF, lines longer than
    /// ``lineLimit`` get soft breaks, whitespace at a line's end is encoded. A leading `.` stays: SMTP's
    /// dot-stuffing protects it.
    static func quotedPrintable(_ text: String) -> String {
        var lines: [[UInt8]] = [[]]
        var previousWasCR = false
        for byte in text.utf8 {
            if byte == 0x0a && previousWasCR {
                previousWasCR = false
                continue
            }
            previousWasCR = byte == 0x0d
            if byte == 0x0a || byte == 0x0d {
                lines.append([])
            } else {
                lines[lines.count - 1].append(byte)
            }
        }
        let hex = Array("0123456789ABCDEF".utf8)
        var output: [UInt8] = []
        for (number, line) in lines.enumerated() {
            var column = 0
            for (index, byte) in line.enumerated() {
                let isLast = index == line.count - 1
                let literal = (byte >= 33 && byte <= 126 && byte != UInt8(ascii: "=")) || ((byte == 0x20 || byte == 0x09) && !isLast)
                let piece: [UInt8] = literal ? [byte] : [UInt8(ascii: "="), hex[Int(byte >> 4)], hex[Int(byte & 0x0f)]]
                if column + piece.count > lineLimit - 1 {
                    output += Array("=\r\n".utf8)
                    column = 0
                }
                output += piece
                column += piece.count
            }
            if number < lines.count - 1 { output += [0x0d, 0x0a] }
        }
        return String(decoding: output, as: UTF8.self)
    }

    /// RFC 5322 §3.3 in UTC: `Tue, 01 Jul 2025 09:05:00 +0000`.
    static func date(_ date: Date) -> String {
        let seconds = Int64(date.timeIntervalSince1970.rounded(.down))
        let days = seconds >= 0 ? seconds / 86_400 : (seconds - 86_399) / 86_400
        let secondOfDay = seconds - days * 86_400
        // Civil date from days since 1970-01-01 (Howard Hinnant's algorithm).
        let shifted = days + 719_468
        let era = (shifted >= 0 ? shifted : shifted - 146_096) / 146_097
        let dayOfEra = shifted - era * 146_097
        let yearOfEra = (dayOfEra - dayOfEra / 1460 + dayOfEra / 36_524 - dayOfEra / 146_096) / 365
        let dayOfYear = dayOfEra - (365 * yearOfEra + yearOfEra / 4 - yearOfEra / 100)
        let monthIndex = (5 * dayOfYear + 2) / 153
        let day = dayOfYear - (153 * monthIndex + 2) / 5 + 1
        let month = monthIndex < 10 ? monthIndex + 3 : monthIndex - 9
        let year = yearOfEra + era * 400 + (month <= 2 ? 1 : 0)
        let weekday = ((days % 7) + 11) % 7  // 1970-01-01 was a Thursday
        let weekdays = ["Sun", "Mon", "Tue", "Wed", "Thu", "Fri", "Sat"]
        let months = ["Jan", "Feb", "Mar", "Apr", "May", "Jun", "Jul", "Aug", "Sep", "Oct", "Nov", "Dec"]
        func two(_ value: Int64) -> String { value < 10 ? "0\(value)" : "\(value)" }
        return "\(weekdays[Int(weekday)]), \(two(day)) \(months[Int(month - 1)]) \(year) "
            + "\(two(secondOfDay / 3600)):\(two(secondOfDay / 60 % 60)):\(two(secondOfDay % 60)) +0000"
    }
}
