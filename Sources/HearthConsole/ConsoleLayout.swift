import HTTPTypes
import HearthCore
import Hummingbird
import NIOCore

/// The frame of every console page and the headers every console answer carries.
enum ConsoleLayout {
    /// Nothing but the console's own style sheet, images inline or its own, its own scripts (there are none), forms
    /// to itself; never framed.
    static let contentSecurityPolicy =
        "default-src 'none'; style-src 'self'; img-src 'self' data:; script-src 'self'; form-action 'self'; frame-ancestors 'none'; base-uri 'none'"

    /// A message above a page's content.
    enum Notice: Sendable {
        case done(String)
        case error(String)
    }

    static var headers: HTTPFields {
        [
            .contentType: "text/html; charset=utf-8",
            .cacheControl: "no-store",
            .contentSecurityPolicy: contentSecurityPolicy,
            .xContentTypeOptions: "nosniff",
            HTTPField.Name("Referrer-Policy")!: "no-referrer",
            HTTPField.Name("X-Frame-Options")!: "DENY",
        ]
    }

    static func response(_ html: String, status: HTTPResponse.Status = .ok, cookies: [String] = []) -> Response {
        var headers = headers
        for cookie in cookies { headers.append(HTTPField(name: .setCookie, value: cookie)) }
        return Response(status: status, headers: headers, body: ResponseBody(byteBuffer: ByteBuffer(string: html)))
    }

    /// `303 See Other` to `location` (a path of the console), with the page headers.
    static func redirect(_ location: String, cookies: [String] = []) -> Response {
        var headers = headers
        headers[.location] = location
        for cookie in cookies { headers.append(HTTPField(name: .setCookie, value: cookie)) }
        return Response(status: .seeOther, headers: headers)
    }

    /// A whole page: the bar with the sections, the tenant switcher when the page has one, and the operator, the
    /// notice, then `body`. `refresh`: the browser loads the page again after that many seconds (a
    /// `<meta http-equiv="refresh">`, which needs no script).
    static func page(
        title: String, projectID: String, identity: ConsoleIdentity?, current: String? = nil, switcher: String? = nil, notice: Notice? = nil,
        refresh: Int? = nil,
        body: String
    ) -> String {
        var html = """
            <!doctype html>
            <html lang="en">
            <head>
            <meta charset="utf-8">
            <meta name="viewport" content="width=device-width, initial-scale=1">
            <meta name="referrer" content="no-referrer">
            <meta name="robots" content="noindex, nofollow">\(refresh.map { "\n<meta http-equiv=\"refresh\" content=\"\($0)\">" } ?? "")
            <title>\(ConsoleHTML.escape(title)) – Hearth console – \(ConsoleHTML.escape(projectID))</title>
            <link rel="stylesheet" href="\(ConsoleStyleSheet.path)">
            </head>
            <body>
            <a class="skip" href="#content">Skip to content</a>
            <header class="top">
            <a class="brand" href="/console/users">Hearth console</a>

            """
        if let identity {
            let link = { (path: String, name: String) -> String in
                "<li><a href=\"\(path)\"\(current == path ? " aria-current=\"page\"" : "")>\(name)</a></li>"
            }
            let owner = identity.role.permits(.owner) ? link("/console/operators", "Operators") : ""
            html +=
                "<nav aria-label=\"Sections\"><ul>\(link("/console/users", "Users"))\(link("/console/settings/providers", "Sign-in methods"))\(link("/console/settings", "Settings"))\(link("/console/activity", "Activity"))\(link("/console/keys", "Keys"))\(link("/console/templates", "Templates"))\(owner)\(link("/console/status", "Status"))</ul></nav>\n"
            html += switcher.map { $0 + "\n" } ?? ""
            html += "<div class=\"who\"><span id=\"operator\">\(ConsoleHTML.value(identity.name)) · \(identity.role.rawValue)</span>"
            if identity.hasSession {
                html += """
                    <form class="inline" method="post" action="/console/sign-out">\(csrfField(identity))\
                    <button class="secondary" type="submit">Sign out</button></form>
                    """
            }
            html += "</div>\n"
        }
        html += "</header>\n<main id=\"content\">\n"
        switch notice {
        case .done(let text): html += "<p class=\"notice done\" role=\"status\" id=\"notice\">\(ConsoleHTML.escape(text))</p>\n"
        case .error(let text): html += "<p class=\"notice error\" role=\"alert\" id=\"notice\">\(ConsoleHTML.escape(text))</p>\n"
        case nil: break
        }
        html += body
        html += "\n</main>\n</body>\n</html>\n"
        return html
    }

    /// The hidden form field with the session's form token.
    static func csrfField(_ identity: ConsoleIdentity) -> String {
        "<input type=\"hidden\" name=\"csrf\" value=\"\(ConsoleHTML.escape(identity.csrfToken))\">"
    }
}
