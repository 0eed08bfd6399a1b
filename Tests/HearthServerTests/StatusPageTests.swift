import AsyncHTTPClient
import Foundation
import HTTPTypes
import HearthConfiguration
import HearthConsole
import HearthCore
import HearthTesting
import HearthWire
import NIOCore
import NIOHTTP1
import Testing

@testable import HearthServer

/// `/console/status`: in development mode a local browser (a real headless Chromium against a live server) sees
/// it without a credential, another site's script or a DNS-rebound name does not; in production only an
/// administrator's credential opens it, refused as the admin API refuses. The page never shows a secret and
/// escapes what it shows. With `HEARTH_SCREENSHOT_DIRECTORY` set the test with traffic saves
/// `console-status.png` there (docs/screenshots/console-status.png was made that way).
@Suite("Status page", .serialized)
struct StatusPageTests {
    static let path = "/console/status"
    static let adminToken = "status-page-admin-token-0123456789"
    static let apiKey = "status-page-api-key-0001"

    @Test("development mode: Chromium shows version, keys, rates and the route that just failed with its code; no script errors")
    func developmentPageInChromium() async throws {
        try await withLiveHearth { live in
            let client = FirebaseTestClient(baseURL: live.baseURL)
            try await Self.traffic(live, client)
            // The error that must lead the list.
            #expect(try await client.signIn(email: "nobody@example.com", password: "whatever it is").errorMessage == "EMAIL_NOT_FOUND")

            let kids = await live.services.keyRing.publishedKeys(at: live.clock.now).map(\.kid)
            try #require(!kids.isEmpty)
            try await HeadlessBrowser.with { browser in
                let page = try await browser.newPage()
                _ = try await page.navigate(to: try #require(URL(string: live.baseURL + Self.path)))
                #expect(page.status == 200)
                #expect(try await page.text(of: "h1") == "Hearth status")
                #expect(try await page.text(of: "#version") == HearthVersion.current)
                #expect(try await page.text(of: "#mode") == "development")
                let keys = try await page.text(of: "#keys")
                for kid in kids { #expect(keys.contains(kid)) }
                #expect(keys.contains("signs now"))
                let newest = try await page.text(of: "#errors tbody tr")
                #expect(newest.contains("/v1/accounts:signInWithPassword"), "\(newest)")
                #expect(newest.contains("400"))
                #expect(newest.contains("EMAIL_NOT_FOUND"))
                let requests = try await page.text(of: "#requests")
                #expect(requests.contains("60 minutes"))
                #expect(try await page.evaluate("document.querySelectorAll('#requests svg rect').length > 10") == .bool(true))
                let database = try await page.text(of: "#database")
                #expect(database.contains(live.services.configuration.storageDescription))
                // The console's style sheet and the SVG pass the console's strict Content-Security-Policy; there is no script to fail.
                #expect(page.consoleErrors.isEmpty, "\(page.consoleErrors)")
                #expect(try await page.evaluate("document.scripts.length") == .number(0))
                try await Self.screenshot(page, "console-status")
            }

            let response = try await Self.get(live.baseURL + Self.path)
            #expect(response.status == 200)
            #expect(response.headers["content-type"].first == "text/html; charset=utf-8")
            #expect(response.headers["cache-control"].first == "no-store")
            #expect(response.headers["x-frame-options"].first == "DENY")
            #expect(response.headers["referrer-policy"].first == "no-referrer")
            let policy = try #require(response.headers["content-security-policy"].first)
            #expect(policy.contains("default-src 'none'"))
            #expect(policy.contains("frame-ancestors 'none'"))
            #expect(policy.contains("style-src 'self'") && !policy.contains("unsafe-inline"))
        }
    }

    @Test("development mode: another site's script, a DNS-rebound host name or a forwarded request needs a credential; a wrong one is refused")
    func developmentRefusesOtherSites() async throws {
        try await withLiveHearth { live in
            let url = live.baseURL + Self.path
            #expect(try await Self.get(url, headers: ["Origin": "http://localhost:3000"]).status == 200)
            #expect(try await Self.get(url, headers: ["Host": "localhost:\(live.port)"]).status == 200)

            for headers in [
                ["Origin": "https://evil.example"], ["Origin": "null"], ["Host": "rebound.evil.example:\(live.port)"],
                ["Host": "127.0.0.1.evil.example"], ["X-Forwarded-For": "203.0.113.9"], ["Forwarded": "for=203.0.113.9"],
            ] {
                let refused = try await Self.get(url, headers: headers)
                #expect(refused.status == 401, "\(headers)")
                #expect(refused.errorMessage == Self.missingCredential, "\(headers)")
            }
            // A credential opens it from anywhere; a wrong one is refused even from a local browser.
            #expect(try await Self.get(url, headers: ["Origin": "https://evil.example", "Authorization": "Bearer owner"]).status == 200)
            let wrong = try await Self.get(url, headers: ["Authorization": "Bearer not-a-credential"])
            #expect(wrong.status == 401)
            #expect(wrong.errorMessage == Self.invalidCredential)
        }
        // Without a known peer (the in-process router) nothing is local.
        try await withHearth { _, client async throws in
            var keyless = client
            keyless.apiKey = nil
            #expect(try await keyless.raw(Self.path, method: .get).errorMessage == Self.missingCredential)
            #expect(try await keyless.raw(Self.path, method: .get, headers: [.authorization: "Bearer owner"]).status == .ok)
        }
    }

    @Test("production: no credential and a wrong one are answered as the admin API answers; an administrator's token opens it")
    func productionNeedsAdministrator() async throws {
        try await withHearth(Self.production) { hearth, client async throws in
            var keyless = client
            keyless.apiKey = nil
            let adminPath = "/v2/projects/\(hearth.configuration.projectID)/config"
            for headers: HTTPFields in [
                [:], [.authorization: "Bearer not-a-credential"], [.authorization: "Bearer owner"], [.authorization: "Bearer "],
            ] {
                let page = try await keyless.raw(Self.path, method: .get, headers: headers)
                let admin = try await keyless.raw(adminPath, method: .get, headers: headers)
                #expect(page.status == .unauthorized, "\(headers)")
                #expect(page.status == admin.status)
                #expect(page.json == admin.json, "\(headers)")
                #expect(page.headers[.contentType]?.hasPrefix("application/json") == true)
            }
            #expect(try await keyless.raw(Self.path, method: .get).errorMessage == Self.missingCredential)
            #expect(try await keyless.raw(Self.path, method: .get, headers: [.authorization: "Bearer owner"]).errorMessage == Self.invalidCredential)
            // An API key is no credential for it.
            #expect(try await client.raw(Self.path, method: .get).status == .unauthorized)

            let page = try await keyless.raw(Self.path, method: .get, headers: [.authorization: "Bearer \(Self.adminToken)"])
            #expect(page.status == .ok)
            #expect(page.headers[.cacheControl] == "no-store")
            let html = String(decoding: page.body, as: UTF8.self)
            #expect(html.contains(#"<span class="badge production" id="mode">production</span>"#))
            #expect(html.contains(HearthVersion.current))
        }
    }

    @Test("the page holds no secret: private keys, the database password, API keys, admin tokens, request bodies")
    func noSecrets() async throws {
        try await withHearth(Self.production) { hearth, client async throws in
            var client = client
            client.apiKey = Self.apiKey
            let bodySecret = "body-secret-password-4711"
            _ = try await client.signUp(email: "ada@example.com", password: bodySecret)
            #expect(try await client.signIn(email: "ada@example.com", password: bodySecret + "x").status == .badRequest)
            var keyless = client
            keyless.apiKey = nil
            let page = try await keyless.raw(Self.path, method: .get, headers: [.authorization: "Bearer \(Self.adminToken)"])
            try #require(page.status == .ok)
            let html = String(decoding: page.body, as: UTF8.self)

            let keys = await hearth.services.keyRing.publishedKeys(at: hearth.clock.now)
            try #require(!keys.isEmpty)
            for key in keys {
                #expect(html.contains(key.kid))
                // Any line of the key's base64 body.
                for line in key.privateKeyPEM.split(separator: "\n") where !line.hasPrefix("-----") {
                    #expect(!html.contains(line))
                }
            }
            #expect(!html.contains("PRIVATE KEY"))
            #expect(!html.contains(Self.adminToken))
            #expect(!html.contains(Self.apiKey))
            #expect(!html.contains(bodySecret))
            #expect(!html.contains("ada@example.com"))
            #expect(html.contains("INVALID_PASSWORD"))
            // On PostgreSQL the test database's URL carries a password.
            if TestDatabase.backend == .postgres {
                let password = try #require(hearth.configuration.databaseURL.flatMap { URL(string: $0)?.password })
                try #require(password.count >= 8)
                #expect(!html.contains(password))
                #expect(html.contains(hearth.configuration.storageDescription))
            }
        }
        // The page names the database by ``ServerConfiguration/storageDescription``.
        var configuration = ServerConfiguration()
        configuration.databaseURL = "postgresql://hearth:pa55-w0rd%40x@db.internal:6543/auth?sslmode=require&password=other"
        #expect(configuration.storageDescription == "postgres://db.internal:6543/auth")
    }

    @Test("hostile text is escaped; rates add up the last 1, 5 and 60 minutes")
    func escapingAndRates() {
        let now = Date(timeIntervalSince1970: 1_800_000_000)
        let minute = Int64(now.timeIntervalSince1970 / 60)
        let report = StatusReport(
            version: "1.0<script>", mode: .production, projectID: "p\"><script>alert(1)</script>", publicURL: "https://a.example/'onload='x",
            startedAt: now.addingTimeInterval(-90_061), now: now,
            database: .init(kind: "SQLite", location: "/tmp/<b>x</b>&.sqlite", reachable: false, users: nil, pools: []),
            keys: [
                .init(
                    kid: "<i>kid</i>", createdAt: now.addingTimeInterval(-3_700), activatesAt: now, retiresAt: now.addingTimeInterval(60),
                    expiresAt: now.addingTimeInterval(7_200), signs: true)
            ],
            minutes: [
                .init(minute: minute - 30, requests: 10),
                .init(minute: minute - 2, requests: 5, clientErrors: 1),
                .init(minute: minute, requests: 3, serverErrors: 1),
            ],
            errors: [
                .init(time: now, route: "/v1/<script>", status: 500, code: "\"><img src=x onerror=alert(1)>"),
                .init(time: now, route: "/x", status: 400, code: "A\u{0}B\u{1B}[31m"),
            ])
        let html = StatusPage.render(report)
        #expect(!html.contains("<script"))
        #expect(!html.contains("<img"))
        #expect(!html.contains("<b>x"))
        #expect(!html.contains("<i>kid"))
        #expect(!html.contains("'onload="))
        #expect(!html.contains("\u{0}"))
        #expect(!html.contains("\u{1B}"))
        #expect(html.contains("&lt;script&gt;alert(1)&lt;/script&gt;"))
        #expect(html.contains("&quot;&gt;&lt;img src=x onerror=alert(1)&gt;"))
        #expect(html.contains("<span class=\"bad\">no</span>"))
        #expect(html.contains("1 d 1 h"))
        #expect(html.contains("1 h 1 min"))

        #expect(report.windows.map(\.requests) == [3, 8, 18])
        #expect(report.windows.map(\.clientErrors) == [0, 1, 1])
        #expect(report.windows.map(\.serverErrors) == [1, 1, 1])
        #expect(report.windows.last?.rate == 0.3)
    }

    @Test("local visits: the host names and addresses of this machine, nothing else")
    func loopbackHosts() {
        for host in ["localhost", "LOCALHOST:9099", "127.0.0.1", "127.0.0.1:9099", "127.1.2.3:80", "[::1]", "[::1]:9099"] {
            #expect(ConsoleAccess.isLoopbackHost(host), "\(host)")
        }
        for host in [
            "", "evil.example", "127.0.0.1.evil.example", "localhost.evil.example:9099", "[::1]x", "[::1]:9099x", "::1", "10.0.0.1:9099",
            "[::2]:9099", "127.0.0.1:90x", "0.0.0.0:9099", "localhost:9099@evil.example",
        ] {
            #expect(!ConsoleAccess.isLoopbackHost(host), "\(host)")
        }
    }

    // MARK: Support

    static let missingCredential =
        "Request is missing required authentication credential. Expected OAuth 2 access token, login cookie or other valid authentication credential. See https://developers.google.com/identity/sign-in/web/devconsole-project."
    static let invalidCredential =
        "Request had invalid authentication credentials. Expected OAuth 2 access token, login cookie or other valid authentication credential. See https://developers.google.com/identity/sign-in/web/devconsole-project."

    static func production(_ configuration: inout ServerConfiguration) {
        configuration.mode = .production
        configuration.adminTokens = [adminToken]
        configuration.apiKeys = [apiKey]
    }

    /// Requests spread over the last 45 minutes of the test's clock: sign-ups, sign-ins, look-ups, refreshes,
    /// and now and then a wrong password, an unknown account, a bad ID token or an unknown path.
    static func traffic(_ live: LiveHearth, _ client: FirebaseTestClient) async throws {
        var users: [SignUpResponse] = []
        for minute in 0..<45 {
            live.clock.advance(by: 60)
            if minute % 5 == 0 {
                users.append(try await client.signUp(email: "user\(minute)@example.com", password: "password \(minute)"))
            }
            let busy = 2 + (minute * 7) % 9 + (minute > 30 ? 4 : 0)
            for index in 0..<busy {
                let user = users[index % users.count]
                if index % 3 == 0 {
                    _ = try await client.refresh(user.refreshToken ?? "")
                } else {
                    _ = try await client.signIn(email: user.email ?? "", password: "password \((index % users.count) * 5)")
                }
            }
            switch minute % 7 {
            case 2: _ = try await client.signIn(email: users[0].email ?? "", password: "not the password")
            case 4: _ = try await client.lookup("not.an.id-token")
            case 6 where minute > 20: _ = try await client.raw("/v1/accounts:noSuchMethod", method: .post, body: Data("{}".utf8))
            default: break
            }
        }
    }

    /// `GET url` with `headers`, over a real socket.
    fileprivate static func get(_ url: String, headers: [String: String] = [:]) async throws -> (
        status: Int, headers: StatusPageHeaders, errorMessage: String?
    ) {
        var request = HTTPClientRequest(url: url)
        for (name, value) in headers { request.headers.replaceOrAdd(name: name, value: value) }
        let response = try await FirebaseTestClient.patientClient.execute(request, timeout: .seconds(120))
        let body = try await response.body.collect(upTo: 1 << 20)
        let message = (try? JSONDecoder().decode(WireErrorResponse.self, from: Data(body.readableBytesView)))?.error.message
        return (Int(response.status.code), StatusPageHeaders(response.headers), message)
    }

    static func screenshot(_ page: BrowserPage, _ name: String) async throws {
        let directory =
            ProcessInfo.processInfo.environment["HEARTH_SCREENSHOT_DIRECTORY"].map { URL(fileURLWithPath: $0) }
            ?? FileManager.default.temporaryDirectory.appendingPathComponent("hearth-screenshots")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        try await page.screenshot(to: directory.appendingPathComponent("\(name).png"), fullPage: true)
    }
}

/// Response headers by lower-cased name.
private struct StatusPageHeaders: Sendable {
    let fields: [String: [String]]

    init(_ headers: HTTPHeaders) {
        var fields: [String: [String]] = [:]
        for (name, value) in headers { fields[name.lowercased(), default: []].append(value) }
        self.fields = fields
    }

    subscript(name: String) -> [String] { fields[name.lowercased()] ?? [] }
}
