import Foundation
import HearthConfiguration
import HearthMessages
import HearthStorage

/// The HTML of `/console/status` (served by ``ConsoleRoutes``): one document without script or external
/// resources — inline styles and an inline SVG chart — that reloads itself every ``refreshInterval`` seconds
/// and works as well saved to a file. Every value is escaped.
public enum StatusPage {
    /// Seconds between reloads (`<meta http-equiv="refresh">`).
    public static let refreshInterval = 30

    /// The page's `Content-Security-Policy` (the server sends it with the rest of its page headers): nothing but
    /// inline styles.
    public static let contentSecurityPolicy =
        "default-src 'none'; style-src 'unsafe-inline'; form-action 'none'; base-uri 'none'; frame-ancestors 'none'"

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
            <style>\(styleSheet)</style>
            </head>
            <body>
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
    static let styleSheet = """
        :root{color-scheme:light dark;--bg:#f4f4f2;--card:#fff;--text:#1f1f1f;--muted:#4d4d4d;--accent:#1a56db;--line:#d9d9d6;\
        --good:#146c2e;--warn:#8a5300;--bad:#a1160a;--ok-bar:#4f7fd9;--client-bar:#d98e04;--server-bar:#c5221f}
        @media (prefers-color-scheme:dark){:root{--bg:#121212;--card:#1e1e1e;--text:#ececec;--muted:#c4c4c4;--accent:#8ab4f8;\
        --line:#3a3a3a;--good:#81c995;--warn:#fdd663;--bad:#f28b82;--ok-bar:#8ab4f8;--client-bar:#fdd663;--server-bar:#f28b82}}
        *{box-sizing:border-box}
        body{margin:0;padding:1.5rem 1rem;background:var(--bg);color:var(--text);font:0.95rem/1.45 system-ui,-apple-system,"Segoe UI",Roboto,\
        "Noto Sans",sans-serif}
        header,main{max-width:64rem;margin:0 auto}
        h1{margin:0 0 .25rem;font-size:1.5rem}
        h2{margin:0 0 .75rem;font-size:1.05rem}
        main{display:grid;grid-template-columns:repeat(auto-fit,minmax(22rem,1fr));gap:1rem;margin-top:1rem}
        section{background:var(--card);border-radius:10px;padding:1rem 1.25rem;box-shadow:0 1px 3px rgba(0,0,0,.12);min-width:0}
        #keys,#requests,#errors{grid-column:1/-1}
        .muted{color:var(--muted);margin:0}
        dl{display:grid;grid-template-columns:max-content 1fr;gap:.3rem 1rem;margin:0}
        dt{color:var(--muted)}
        dd{margin:0;overflow-wrap:anywhere}
        table{width:100%;border-collapse:collapse;margin:.5rem 0 0}
        caption{text-align:left;color:var(--muted);padding:0 0 .25rem}
        th,td{text-align:left;padding:.3rem .5rem .3rem 0;border-bottom:1px solid var(--line);vertical-align:top}
        th{font-weight:600;color:var(--muted)}
        code{font:0.85rem/1.4 ui-monospace,"SF Mono",Menlo,Consolas,monospace;overflow-wrap:anywhere}
        .badge{display:inline-block;padding:0 .5rem;border-radius:999px;font-weight:600;font-size:.8rem;border:1px solid currentColor}
        .badge.development{color:var(--warn)}
        .badge.production{color:var(--good)}
        .nowrap,time,.good,.warn,.bad{white-space:nowrap}
        .good{color:var(--good);font-weight:600}
        .warn{color:var(--warn);font-weight:600}
        .bad{color:var(--bad);font-weight:600}
        figure{margin:1rem 0 0}
        svg{display:block;border-bottom:1px solid var(--line)}
        svg .ok{fill:var(--ok-bar)}
        svg .client{fill:var(--client-bar)}
        svg .server{fill:var(--server-bar)}
        svg .axis{stroke:var(--line)}
        figcaption{display:flex;justify-content:space-between;gap:1rem;color:var(--muted);font-size:.8rem;margin-top:.25rem}
        figcaption i{display:inline-block;width:.7rem;height:.7rem;border-radius:2px;margin:0 .2rem 0 .5rem;vertical-align:-1px}
        i.ok{background:var(--ok-bar)}
        i.client{background:var(--client-bar)}
        i.server{background:var(--server-bar)}
        """
}
