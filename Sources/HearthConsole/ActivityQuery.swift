import Foundation
import HearthCore

/// What `/console/activity?…` asks for, read from its query string: the filters (kind, uid, operator, from and to
/// dates), the page, and the range the charts cover. What cannot be read becomes a notice and is left out.
struct ActivityQuery: Sendable {
    var filter = AuditFilter()
    /// As typed, to put back in the form.
    var kindName = ""
    var uid = ""
    var actor = ""
    var fromText = ""
    var toText = ""
    var cursor: AuditCursor?
    /// The days (since 1970) the charts show, first and last included.
    var chartDays: ClosedRange<Int>
    /// What was wrong with the query, for the page's notice.
    var problems: [String] = []

    /// The charts' default span and their longest.
    static let defaultDays = AuditDayCounts.chartedDays
    static let maximumChartDays = 92

    init(_ parameters: [String: String], today: Int) {
        chartDays = (today - Self.defaultDays + 1)...today
        kindName = Self.trimmed(parameters["kind"])
        if !kindName.isEmpty {
            filter.kind = AuditEvent.Kind.known.first { $0.rawValue == kindName }
            if filter.kind == nil { problems.append("There is no event kind “\(kindName)”; showing every kind.") }
        }
        uid = Self.trimmed(parameters["uid"])
        if !uid.isEmpty {
            if UserText.isStorable(uid), uid.utf8.count <= 1_024 {
                filter.uid = uid
            } else {
                problems.append("That uid cannot exist; showing every user.")
            }
        }
        actor = Self.trimmed(parameters["actor"])
        if !actor.isEmpty {
            if UserText.isStorable(actor), actor.utf8.count <= 1_024 {
                // An operator's bare e-mail means the operator (audit events name them `operator:<e-mail>`).
                filter.actorID = actor.contains("@") && !actor.contains(":") ? "operator:" + actor.lowercased() : actor
            } else {
                problems.append("That operator cannot exist; showing everyone's events.")
            }
        }
        fromText = Self.trimmed(parameters["from"])
        toText = Self.trimmed(parameters["to"])
        let from = Self.date(fromText, name: "from", problems: &problems)
        let to = Self.date(toText, name: "to", problems: &problems)
        if let from, let to, from > to {
            problems.append("The range ends before it begins; showing every time.")
        } else {
            filter.from = from.map(AuditDayCount.start(ofDay:))
            filter.to = to.map { AuditDayCount.start(ofDay: $0 + 1) }
            if from != nil || to != nil {
                let last = to ?? max(today, from ?? today)
                let first = max(from ?? (last - Self.defaultDays + 1), last - Self.maximumChartDays + 1)
                chartDays = first...last
                if let from, from < first {
                    problems.append("The charts show the last \(Self.maximumChartDays) days of the range; the list has all of it.")
                }
            }
        }
        if let token = parameters["after"] {
            cursor = AuditCursor(token: token)
            if cursor == nil { problems.append("That page link is not one this console made; here is the first page.") }
        }
    }

    /// The query string of these filters (without the page), `&amp;`-joined for an `href`; empty for none.
    var filterQuery: [String] {
        var query: [String] = []
        if let kind = filter.kind { query.append("kind=\(ConsoleHTML.queryValue(kind.rawValue))") }
        if filter.uid != nil { query.append("uid=\(ConsoleHTML.queryValue(uid))") }
        if filter.actorID != nil { query.append("actor=\(ConsoleHTML.queryValue(actor))") }
        if filter.from != nil { query.append("from=\(ConsoleHTML.queryValue(fromText))") }
        if filter.to != nil { query.append("to=\(ConsoleHTML.queryValue(toText))") }
        return query
    }

    static func trimmed(_ value: String?) -> String {
        (value ?? "").trimmingCharacters(in: .whitespaces)
    }

    /// The day (since 1970) of `YYYY-MM-DD`, as `<input type="date">` sends it; `nil` (with a problem noted) otherwise.
    static func date(_ text: String, name: String, problems: inout [String]) -> Int? {
        guard !text.isEmpty else { return nil }
        let parts = text.split(separator: "-", omittingEmptySubsequences: false)
        guard parts.count == 3, parts[0].utf8.count == 4, parts[1].utf8.count == 2, parts[2].utf8.count == 2,
            parts.allSatisfy({ $0.utf8.allSatisfy { (48...57).contains($0) } }),
            let year = Int(parts[0]), let month = Int(parts[1]), let day = Int(parts[2]), (1970...9999).contains(year),
            let date = DateComponents(calendar: Self.calendar, timeZone: .gmt, year: year, month: month, day: day).date,
            Self.calendar.component(.day, from: date) == day, Self.calendar.component(.month, from: date) == month
        else {
            problems.append("“\(text)” is not a date (YYYY-MM-DD); the “\(name)” filter was left out.")
            return nil
        }
        return AuditDayCount.day(of: date)
    }

    static let calendar: Calendar = {
        var calendar = Calendar(identifier: .gregorian)
        calendar.timeZone = .gmt
        return calendar
    }()

    /// `2026-11-27` of a day since 1970.
    static func dateText(_ day: Int) -> String {
        let components = calendar.dateComponents([.year, .month, .day], from: AuditDayCount.start(ofDay: day))
        return String(format: "%04d-%02d-%02d", components.year ?? 0, components.month ?? 0, components.day ?? 0)
    }
}
