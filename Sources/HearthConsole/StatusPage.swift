import Foundation
import HearthConfiguration
import HearthMessages
import HearthStorage

/// The HTML of `/console/status` (served by ``ConsoleRoutes`` under the console's strict Content-Security-Policy): one
/// document without script, styled by the console's style sheet (`body.status`), with an inline SVG chart, that
/// reloads itself every ``refreshInterval`` seconds. Every value is escaped.
public enum StatusPage {
    /// Seconds between reloads (`<meta http-equiv="refresh">`).
    public static let refreshInterval = 30

    public static func render(_ report: StatusReport) -> String {
        let mode = report.mode == .development ? "development" : "production"
        var html = """
            <!doctype html>
            <html lang="en">
            <head>
            <meta charset="utf-8">
            <meta name="viewport" content="width=device-width, initial-scale=1">
            <meta name="referrer" content="no-referrer">
            <meta name="robots" content="noindex, nofollow">
            <meta http-equiv="refresh" content="\(refreshInterval)">
            <title>Hearth status – \(escape(report.projectID))</title>
            <link rel="stylesheet" href="\(ConsoleStyleSheet.path)">
            </head>
            <body class="status">
            <header>
            <h1>Hearth status</h1>
            <p class="muted"><span class="badge \(mode)" id="mode">\(mode)</span> project <strong id="project">\(escape(report.projectID))</strong> \
            · as of <time id="now">\(timestamp(report.now))</time> · reloads every \(refreshInterval) s</p>
            </header>
            <main>

            """
        html += section("server", "Server") {
            definitions([
                ("Version", "<span id=\"version\">\(escape(report.version))</span>"),
                ("Mode", escape(mode)),
                ("Public URL", "<code>\(escape(report.publicURL))</code>"),
                ("Started", "<time>\(timestamp(report.startedAt))</time>"),
                ("Uptime", "<span id=\"uptime\">\(escape(duration(report.uptime)))</span>"),
            ])
        }
        html += section("database", "Database") {
            let database = report.database
            var body = definitions([
                ("Kind", escape(database.kind)),
                ("Location", "<code id=\"database-location\">\(escape(database.location))</code>"),
                ("Answers", database.reachable ? "<span class=\"good\">yes</span>" : "<span class=\"bad\">no</span>"),
                ("Accounts", database.users.map { "\($0)" } ?? "–"),
            ])
            if !database.pools.isEmpty {
                body += table(
                    caption: "Connections", headings: ["Pool", "In use", "Waiting"],
                    rows: database.pools.map { [escape($0.pool), "\($0.inUse)", "\($0.waiting)"] })
            }
            return body
        }
        html += section("keys", "Signing keys") {
            guard !report.keys.isEmpty else { return "<p class=\"bad\">No signing key is published.</p>\n" }
            return table(
                caption: nil, headings: ["Key id", "Age", "State", "Published until"],
                rows: report.keys.map { key in
                    [
                        "<code class=\"kid\">\(escape(key.kid))</code>",
                        "<span class=\"nowrap\">\(escape(duration(report.now.timeIntervalSince(key.createdAt))))</span>",
                        keyState(key, now: report.now), publishedUntil(key, now: report.now),
                    ]
                })
        }
        html += section("requests", "Requests") {
            var body = table(
                caption: nil, headings: ["Last", "Requests", "Per minute", "Client errors", "Server errors"],
                rows: report.windows.map { window in
                    [
                        window.minutes == 1 ? "1 minute" : "\(window.minutes) minutes", "\(window.requests)", String(format: "%.1f", window.rate),
                        "\(window.clientErrors)", window.serverErrors > 0 ? "<span class=\"bad\">\(window.serverErrors)</span>" : "0",
                    ]
                })
            body += chart(report)
            return body
        }
        html += section("errors", "Recent errors") {
            guard !report.errors.isEmpty else { return "<p class=\"muted\">No error answers since the server started.</p>\n" }
            return table(
                caption: "The last \(RecentRequests.capacity) error answers, newest first", headings: ["Time", "Route", "Status", "Error code"],
                rows: report.errors.map { error in
                    [
                        "<time>\(timestamp(error.time))</time>", "<code>\(escape(error.route))</code>",
                        "<span class=\"\(error.status >= 500 ? "bad" : "warn")\">\(error.status)</span>",
                        error.code.map { "<code>\(escape($0))</code>" } ?? "–",
                    ]
                })
        }
        html += "</main>\n</body>\n</html>\n"
        return html
    }

    // MARK: Parts

    private static func section(_ id: String, _ title: String, _ body: () -> String) -> String {
        "<section id=\"\(id)\">\n<h2>\(escape(title))</h2>\n\(body())</section>\n"
    }

    /// A definition list; the values are HTML already escaped.
    private static func definitions(_ items: [(String, String)]) -> String {
        "<dl>\n" + items.map { "<dt>\(escape($0.0))</dt><dd>\($0.1)</dd>\n" }.joined() + "</dl>\n"
    }

    /// A table; the cells are HTML already escaped.
    private static func table(caption: String?, headings: [String], rows: [[String]]) -> String {
        var html = "<table>\n"
        if let caption { html += "<caption>\(escape(caption))</caption>\n" }
        html += "<thead><tr>" + headings.map { "<th scope=\"col\">\(escape($0))</th>" }.joined() + "</tr></thead>\n<tbody>\n"
        for row in rows { html += "<tr>" + row.map { "<td>\($0)</td>" }.joined() + "</tr>\n" }
        return html + "</tbody>\n</table>\n"
    }

    private static func keyState(_ key: StatusReport.Key, now: Date) -> String {
        if key.signs { return "<span class=\"good\">signs now</span>" }
        if key.activatesAt > now { return "next, signs from <time>\(timestamp(key.activatesAt))</time>" }
        if key.retiresAt <= now { return "retired, still verifies" }
        return "published"
    }

    /// When the key is unpublished; a key without a successor has no such time yet.
    private static func publishedUntil(_ key: StatusReport.Key, now: Date) -> String {
        guard key.expiresAt.timeIntervalSince(now) < 100 * 365 * 86_400 else { return "no successor yet" }
        return "<time>\(timestamp(key.expiresAt))</time>"
    }

    /// The last 60 minutes as stacked bars (answered, client errors, server errors), oldest on the left, each
    /// with its numbers as a tooltip.
    private static func chart(_ report: StatusReport) -> String {
        let slots = 60
        let width = 600
        let height = 120
        let byMinute = Dictionary(report.minutes.map { ($0.minute, $0) }, uniquingKeysWith: { $1 })
        let first = report.currentMinute - Int64(slots - 1)
        let peak = max(1, report.minutes.map(\.requests).max() ?? 0)
        var bars = ""
        for slot in 0..<slots {
            let minute = first + Int64(slot)
            guard let counts = byMinute[minute], counts.requests > 0 else { continue }
            let x = slot * (width / slots)
            let answered = counts.requests - counts.clientErrors - counts.serverErrors
            var top = Double(height)
            var parts = ""
            for (count, kind) in [(answered, "ok"), (counts.clientErrors, "client"), (counts.serverErrors, "server")] where count > 0 {
                let barHeight = max(1, Double(count) / Double(peak) * Double(height))
                top -= barHeight
                parts +=
                    "<rect class=\"\(kind)\" x=\"\(x)\" y=\"\(String(format: "%.1f", top))\" width=\"\(width / slots - 2)\" height=\"\(String(format: "%.1f", barHeight))\"/>"
            }
            let time = timestamp(Date(timeIntervalSince1970: TimeInterval(minute * 60))).dropFirst(11).prefix(5)
            let tooltip = "\(time) UTC: \(counts.requests) requests, \(counts.clientErrors) client errors, \(counts.serverErrors) server errors"
            bars += "<g><title>\(escape(tooltip))</title>\(parts)</g>\n"
        }
        return """
            <figure>
            <svg viewBox="0 0 \(width) \(height)" width="100%" height="\(height)" preserveAspectRatio="none" role="img" \
            aria-label="Requests per minute over the last hour (most in one minute: \(peak))">
            <line class="axis" x1="0" y1="\(height)" x2="\(width)" y2="\(height)"/>
            \(bars)</svg>
            <figcaption><span>60 minutes ago</span><span><i class="ok"></i>answered <i class="client"></i>client error \
            <i class="server"></i>server error · highest \(peak)/min</span><span>now</span></figcaption>
            </figure>

            """
    }

    // MARK: Text

    private static func escape(_ text: String) -> String { DisplayText.html(text) }

    /// `2026-11-25 02:40:12 UTC`.
    static func timestamp(_ date: Date) -> String {
        var calendar = Calendar(identifier: .gregorian)
        calendar.timeZone = TimeZone(identifier: "UTC")!
        let parts = calendar.dateComponents([.year, .month, .day, .hour, .minute, .second], from: date)
        return String(
            format: "%04d-%02d-%02d %02d:%02d:%02d UTC", parts.year ?? 0, parts.month ?? 0, parts.day ?? 0, parts.hour ?? 0, parts.minute ?? 0,
            parts.second ?? 0)
    }

    /// `42 s`, `12 min`, `3 h 5 min`, `4 d 3 h`.
    static func duration(_ seconds: TimeInterval) -> String {
        let total = Int(max(0, seconds))
        switch total {
        case ..<60: return "\(total) s"
        case ..<3_600: return "\(total / 60) min"
        case ..<86_400: return "\(total / 3_600) h \(total % 3_600 / 60) min"
        default: return "\(total / 86_400) d \(total % 86_400 / 3_600) h"
        }
    }

    /// Light and dark colours as the action pages', a grid of cards that folds to one column on a phone.
}
