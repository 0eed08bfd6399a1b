import Foundation

/// SAML's times: `xs:dateTime` in UTC. Written as `2026-11-27T06:00:00Z`; read with or without fractional
/// seconds, with `Z` or a `±hh:mm` offset. A time without a zone is refused (SAML requires UTC).
enum SAMLDateTime {
    /// `date` as `YYYY-MM-DDThh:mm:ssZ` (whole seconds, UTC).
    static func string(from date: Date) -> String {
        var calendar = Calendar(identifier: .gregorian)
        calendar.timeZone = TimeZone(identifier: "UTC")!
        let parts = calendar.dateComponents([.year, .month, .day, .hour, .minute, .second], from: date)
        func two(_ value: Int?) -> String {
            let text = String(value ?? 0)
            return text.count < 2 ? "0" + text : text
        }
        let year = String(parts.year ?? 0)
        return "\(String(repeating: "0", count: max(0, 4 - year.count)) + year)-\(two(parts.month))-\(two(parts.day))T"
            + "\(two(parts.hour)):\(two(parts.minute)):\(two(parts.second))Z"
    }

    /// The time `text` names, or `nil` when it is not an `xs:dateTime` with a zone.
    static func date(from text: String) -> Date? {
        let bytes = Array(text.utf8)
        guard bytes.count >= 20 else { return nil }
        func number(_ range: Range<Int>) -> Int? {
            var value = 0
            for index in range {
                guard index < bytes.count, bytes[index] >= 48, bytes[index] <= 57 else { return nil }
                value = value * 10 + Int(bytes[index] - 48)
            }
            return value
        }
        guard let year = number(0..<4), bytes[4] == 45, let month = number(5..<7), bytes[7] == 45, let day = number(8..<10),
            bytes[10] == 84, let hour = number(11..<13), bytes[13] == 58, let minute = number(14..<16), bytes[16] == 58,
            let second = number(17..<19), (1...12).contains(month), (1...31).contains(day), hour < 24, minute < 60, second < 61
        else { return nil }
        var index = 19
        var fraction = 0.0
        if bytes[index] == 46 {
            index += 1
            var scale = 0.1
            let start = index
            while index < bytes.count, bytes[index] >= 48, bytes[index] <= 57 {
                fraction += Double(bytes[index] - 48) * scale
                scale /= 10
                index += 1
            }
            guard index > start else { return nil }
        }
        guard index < bytes.count else { return nil }
        var offset = 0
        if bytes[index] == 90 {
            index += 1
        } else if bytes[index] == 43 || bytes[index] == 45, let hours = number(index + 1..<index + 3), index + 3 < bytes.count,
            bytes[index + 3] == 58, let minutes = number(index + 4..<index + 6)
        {
            offset = (hours * 3600 + minutes * 60) * (bytes[index] == 43 ? 1 : -1)
            index += 6
        } else {
            return nil
        }
        guard index == bytes.count else { return nil }
        var calendar = Calendar(identifier: .gregorian)
        calendar.timeZone = TimeZone(identifier: "UTC")!
        let components = DateComponents(year: year, month: month, day: day, hour: hour, minute: minute, second: second)
        guard let base = calendar.date(from: components) else { return nil }
        return base.addingTimeInterval(fraction - Double(offset))
    }
}
