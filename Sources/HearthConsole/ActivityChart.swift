import HearthCore

/// One chart of the activity page: events per day as stacked bars, one colour per series (a provider, or a kind of
/// failure), drawn on the server as SVG with no script and no inline style (the colours are the style sheet's
/// `.series-N` classes), and the same numbers as a table for screen readers and for copying.
struct ActivityChart: Sendable {
    /// The chart's element id and heading.
    let id: String
    let title: String
    /// The days shown, first and last included.
    let days: ClosedRange<Int>
    /// Each series' name and its count per day, the largest series first.
    let series: [(name: String, counts: [Int: Int])]

    /// The most series with their own colour; the rest are added up as "other".
    static let maximumSeries = 6
    static let barWidth = 10
    static let height = 120

    /// Groups `counts` into series by `name` (a count's method or kind), largest first.
    init(id: String, title: String, days: ClosedRange<Int>, counts: [AuditDayCount], name: (AuditDayCount) -> String) {
        var byName: [String: [Int: Int]] = [:]
        for count in counts where days.contains(count.day) { byName[name(count), default: [:]][count.day, default: 0] += count.count }
        var ordered = byName.map { (name: $0.key, counts: $0.value) }.sorted {
            let (a, b) = ($0.counts.values.reduce(0, +), $1.counts.values.reduce(0, +))
            return a != b ? a > b : $0.name < $1.name
        }
        if ordered.count > Self.maximumSeries {
            var other: [Int: Int] = [:]
            for rest in ordered[(Self.maximumSeries - 1)...] { other.merge(rest.counts, uniquingKeysWith: +) }
            ordered = Array(ordered[..<(Self.maximumSeries - 1)]) + [(name: "other", counts: other)]
        }
        self.id = id
        self.title = title
        self.days = days
        self.series = ordered
    }

    func total(_ day: Int) -> Int { series.reduce(0) { $0 + ($1.counts[day] ?? 0) } }

    var html: String {
        let first = ActivityQuery.dateText(days.lowerBound)
        let last = ActivityQuery.dateText(days.upperBound)
        var html = "<section class=\"panel chart\" id=\"\(id)\" aria-labelledby=\"\(id)-title\"><h2 id=\"\(id)-title\">\(title)</h2>\n"
        let sum = days.reduce(0) { $0 + total($1) }
        guard sum > 0 else { return html + "<p class=\"muted\">None from \(first) to \(last).</p></section>\n" }
        let peak = days.map(total).max() ?? 1
        html += "<ul class=\"legend\">"
        for (index, entry) in series.enumerated() {
            html += """
                <li><svg class="swatch" width="12" height="12" aria-hidden="true"><rect class="series-\(index)" width="12" height="12"/></svg>\
                \(ConsoleHTML.value(entry.name, limit: 60)) <span class="muted">\(entry.counts.values.reduce(0, +))</span></li>
                """
        }
        html += "</ul>\n"
        let width = days.count * Self.barWidth
        html += """
            <svg class="bars" viewBox="0 0 \(width) \(Self.height)" preserveAspectRatio="none" role="img" \
            aria-label="\(ConsoleHTML.escape(title)) from \(first) to \(last): \(sum) in all, at most \(peak) in a day; the table below has each day's numbers.">

            """
        for (offset, day) in days.enumerated() {
            var top = Self.height
            for (index, entry) in series.enumerated() {
                guard let count = entry.counts[day], count > 0 else { continue }
                let barHeight = max(1, count * Self.height / peak)
                top -= barHeight
                html += """
                    <rect class="series-\(index)" x="\(offset * Self.barWidth + 1)" y="\(top)" width="\(Self.barWidth - 2)" height="\(barHeight)">\
                    <title>\(ActivityQuery.dateText(day)): \(ConsoleHTML.escape(entry.name)) \(count)</title></rect>

                    """
            }
        }
        html += "</svg>\n<p class=\"axis muted\"><span>\(first)</span><span>highest day: \(peak)</span><span>\(last)</span></p>\n"
        html += "<details><summary>\(ConsoleHTML.escape(title)) as a table</summary><div class=\"scroll\"><table class=\"numbers\">"
        html += "<thead><tr><th scope=\"col\">Day</th>"
        for entry in series { html += "<th scope=\"col\">\(ConsoleHTML.value(entry.name, limit: 60))</th>" }
        html += "<th scope=\"col\">All</th></tr></thead><tbody>\n"
        for day in days.reversed() where total(day) > 0 {
            html += "<tr><th scope=\"row\">\(ActivityQuery.dateText(day))</th>"
            for entry in series { html += "<td>\(entry.counts[day] ?? 0)</td>" }
            html += "<td>\(total(day))</td></tr>\n"
        }
        html += "</tbody></table></div></details>\n</section>\n"
        return html
    }
}
