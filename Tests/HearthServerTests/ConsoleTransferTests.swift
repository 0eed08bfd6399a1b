import Crypto
import Foundation
import HearthCore
import HearthMessages
import HearthTesting
import HearthWire
import Testing

@testable import HearthServer

/// The console's import and export of users (`/console/users/import`, `/console/users/export`) against a live
/// production-mode server: Firebase CLI files in JSON and CSV imported with their hash options (the passwords then sign
/// in over the REST API), the job's page reaching its summary in Chromium, skipped users with their reasons, malformed
/// files refused with their messages, a viewer, a missing form token and an oversized upload refused, and an export
/// imported into a fresh server giving the same users.
@Suite("Console import and export", .serialized)
struct ConsoleTransferTests {
    static let hmacKey = Data("console-import-hmac-key".utf8)

    // MARK: Import

    @Test("a JSON file with HMAC_SHA256 hashes: imported, skipped users listed with reasons (hostile ones inert), passwords sign in, one audit event")
    func importJSON() async throws {
        try await ConsoleTests.withConsole { live in
            let editor = try await ConsoleTests.signIn(live, try await ConsoleTests.addOperator(live, "ed@example.com", role: .editor))
            try await ConsoleTests.createUser(live, email: "taken@example.com")
            let salt = Data("salt-1".utf8)
            let hash = Data(HMAC<SHA256>.authenticationCode(for: Data("ada's password".utf8) + salt, using: SymmetricKey(data: Self.hmacKey)))
            let users: [[String: Any]] = [
                [
                    "localId": "j1", "email": "ada@example.com", "emailVerified": true, "passwordHash": hash.base64EncodedString(),
                    "salt": salt.base64EncodedString(), "displayName": "Ada", "customAttributes": #"{"admin":true}"#, "createdAt": "1600000000000",
                    "providerUserInfo": [["providerId": "google.com", "rawId": "g-1", "email": "ada@example.com"]],
                ],
                ["localId": "j2", "phoneNumber": "+15555550123"],
                ["localId": "j3", "email": "not an e-mail"],
                ["localId": "j4", "email": "taken@example.com"],
                ["localId": "j1", "email": "again@example.com"],
                ["localId": "<script>alert(1)</script>", "email": "<img src=x onerror=alert(1)>"],
            ]
            let file = try JSONSerialization.data(withJSONObject: ["users": users])
            let done = try await Self.runImport(
                live, editor, file: file, name: "users.json", fields: ["hashAlgorithm": "HMAC_SHA256", "hashKey": Self.hmacKey.base64EncodedString()])
            #expect(done.contains("Imported 2 of 6 users; 4 skipped."), "\(done)")
            for (position, uid, reason) in [
                (3, "j3", "email is invalid"), (4, "j4", "email exists in other account in database"),
                (5, "j1", "the uid is given earlier in the file (user 1)"), (6, "<script>alert(1)</script>", "email is invalid"),
            ] {
                #expect(
                    done.contains(
                        "<tr><td>\(position)</td><td><code><bdi>\(DisplayText.html(uid))</bdi></code></td><td><bdi>\(reason)</bdi></td></tr>"),
                    "\(uid)")
            }
            #expect(!done.contains("<script>alert") && !done.contains("<img"))

            let ada = try #require(try await live.services.store.user(uid: "j1"))
            #expect(ada.email == "ada@example.com" && ada.emailVerified && ada.displayName == "Ada" && ada.customAttributes == #"{"admin":true}"#)
            #expect(ada.providers.map(\.rawID) == ["g-1"] && ada.createdAt == Date(timeIntervalSince1970: 1_600_000_000))
            #expect(try await live.services.store.user(uid: "j2")?.phoneNumber == "+15555550123")
            #expect(try await Self.signInOverREST(live, "ada@example.com", "ada's password") == "j1")
            #expect(try await Self.signInOverREST(live, "ada@example.com", "wrong password") == nil)

            let events = try await live.services.store.auditEvents(uid: nil, kind: .adminUsersImported, after: nil, limit: 10)
            #expect(events.count == 1)
            #expect(events.first?.actorID == "operator:ed@example.com")
            #expect(events.first?.details == ["imported": "2", "failed": "4", "source": "console", "format": "json"])
        }
    }

    @Test("a CSV file with SHA256 hashes, password first: imported; its passwords sign in")
    func importCSV() async throws {
        try await ConsoleTests.withConsole { live in
            let owner = try await ConsoleTests.signIn(live, try await ConsoleTests.addOperator(live, "own@example.com", role: .owner))
            var users: [ExportedUser] = []
            for index in 1...3 {
                let salt = Data("salt-\(index)".utf8)
                var user = ExportedUser(localId: "c\(index)")
                user.email = "csv\(index)@example.com"
                user.emailVerified = true
                user.passwordHash = Data(SHA256.hash(data: Data("password \(index)".utf8) + salt)).base64EncodedString()
                user.salt = salt.base64EncodedString()
                user.displayName = "CSV, number \(index)"
                user.providerUserInfo = [ExportedProvider(providerId: "github.com", rawId: "gh-\(index)")]
                users.append(user)
            }
            let done = try await Self.runImport(
                live, owner, file: Data(AuthExportFile(users: users).csv().utf8), name: "users.csv",
                fields: ["hashAlgorithm": "SHA256", "rounds": "1", "hashInputOrder": "PASSWORD_FIRST"])
            #expect(done.contains("Imported 3 of 3 users; 0 skipped."), "\(done)")
            #expect(!done.contains("id=\"skipped\""))
            #expect(try await live.services.store.user(uid: "c2")?.displayName == "CSV, number 2")
            #expect(try await live.services.store.user(uid: "c3")?.providers.map(\.providerID) == ["github.com"])
            #expect(try await Self.signInOverREST(live, "csv2@example.com", "password 2") == "c2")
            let events = try await live.services.store.auditEvents(uid: nil, kind: .adminUsersImported, after: nil, limit: 10)
            #expect(events.first?.details["format"] == "csv" && events.first?.actorID == "operator:own@example.com")
        }
    }

    @Test("malformed files and options: each refused with its message, nothing imported, never a 500")
    func malformed() async throws {
        try await ConsoleTests.withConsole { live in
            let editor = try await ConsoleTests.signIn(live, try await ConsoleTests.addOperator(live, "ed@example.com", role: .editor))
            let hashed = #"{"users":[{"localId":"h1","email":"h@example.com","passwordHash":"AAAA","salt":"AAAA"}]}"#
            let cases: [(file: String, name: String, fields: [String: String], message: String)] = [
                (#"{"users": ["#, "a.json", [:], "The file is not a Firebase CLI JSON export: it is not JSON."),
                (
                    #"{"users":[{"localId":"x","emailVerified":"yes"}]}"#, "a.json", [:],
                    "The file is not a Firebase CLI JSON export: users.0.emailVerified is not what it should be."
                ),
                (#"{"users":[{"email":"x@example.com"}]}"#, "a.json", [:], "The file is not a Firebase CLI JSON export: users.0.localId is missing."),
                // A defect after the users: the file is read through before anything is imported.
                (#"{"users":[{"localId":"early"}]} and more"#, "a.json", [:], "The file is not a Firebase CLI JSON export: it is not JSON."),
                (
                    "u1,a@example.com,true,\nu2,,maybe,\n", "a.csv", [:],
                    "The file is not a Firebase CLI CSV export: line 2: column 3 is neither true nor false."
                ),
                ("{\"users\":[]}\u{0}", "a.json", [:], "The file holds a NUL byte (at byte 13): it is not a text export."),
                (#"{"users":[]}"#, "a.json", [:], "The file holds no users."),
                ("u1,a@example.com,maybe,\n", "a.csv", [:], "The file is not a Firebase CLI CSV export: line 1: column 3 is neither true nor false."),
                ("u1,\"never closed\n", "a.csv", [:], "The file is not a Firebase CLI CSV export: line 1: a quoted field never ends."),
                (
                    "u1,a@example.com\n" + String(repeating: "a", count: 70_000) + "\n", "a.csv", [:],
                    "Line 2 is longer than 64 KiB: this is not a Firebase CLI CSV export."
                ),
                ("u1,a@example.com\n", "users.txt", [:], "The file's name ends in neither .json nor .csv: choose its format."),
                (hashed, "a.json", [:], "The file holds password hashes: choose the hash algorithm they were made with, and its parameters."),
                (
                    hashed, "a.json", ["hashAlgorithm": "HMAC_SHA256"],
                    "The hash options were refused: A non-empty \"hash.key\" byte buffer must be provided for hash algorithm HMAC_SHA256."
                ),
                (hashed, "a.json", ["hashAlgorithm": "NOT_A_HASH"], "Choose a hash algorithm from the list."),
                (hashed, "a.json", ["hashAlgorithm": "SHA256", "rounds": "many"], "“Rounds” must be a whole number from 0 to 2147483647."),
                ("", "a.json", [:], "Choose a file to import."),
            ]
            for (file, name, fields, message) in cases {
                let result = try await Self.upload(editor, file: Data(file.utf8), name: name, fields: fields)
                #expect(result.status == 400, "\(message)")
                #expect(result.body.contains("id=\"notice\">\(DisplayText.html(message))</p>"), "\(message): \(result.body)")
                // The options given are kept for the next try.
                if let algorithm = fields["hashAlgorithm"], algorithm != "NOT_A_HASH" {
                    #expect(result.body.contains("<option value=\"\(algorithm)\" selected>"))
                }
            }
            let notMultipart = try await editor.post("/console/users/import", ["csrf": try await Self.csrf(editor)])
            #expect(notMultipart.status == 400)
            #expect(notMultipart.body.contains(DisplayText.html("The upload could not be read: send the file with the console's import form.")))
            #expect(try await live.services.store.users(after: nil, limit: 10).isEmpty)
            #expect(try await live.services.store.auditEvents(uid: nil, kind: .adminUsersImported, after: nil, limit: 10).isEmpty)
        }
    }

    @Test("refused: a viewer's import, a missing form token, another site's upload, an upload over 64 MiB, someone else's job")
    func refusals() async throws {
        try await ConsoleTests.withConsole { live in
            let viewer = try await ConsoleTests.signIn(live, try await ConsoleTests.addOperator(live, "view@example.com", role: .viewer))
            let file = Data(#"{"users":[{"localId":"v1"}]}"#.utf8)
            let byViewer = try await Self.upload(viewer, file: file, name: "a.json")
            #expect(byViewer.status == 403 && byViewer.body.contains("it needs an editor"))
            #expect(try await viewer.get("/console/users/import").status == 403)
            #expect(try await viewer.get("/console/users/export").status == 403)
            #expect(!(try await viewer.get("/console/users").body.contains("/console/users/import")))

            let editor = try await ConsoleTests.signIn(live, try await ConsoleTests.addOperator(live, "ed@example.com", role: .editor))
            let users = try await editor.get("/console/users").body
            #expect(users.contains("href=\"/console/users/import\"") && !users.contains("href=\"/console/users/export\""))
            let noToken = try await Self.upload(editor, file: file, name: "a.json", csrf: "")
            #expect(noToken.status == 403 && noToken.body.contains("The form has expired or did not come from this console."))
            let crossSite = try await Self.upload(editor, file: file, name: "a.json", headers: ["Sec-Fetch-Site": "cross-site"])
            #expect(crossSite.status == 403 && crossSite.body.contains("This request came from another site"))
            let huge = try await Self.upload(editor, file: Data(repeating: UInt8(ascii: "a"), count: 64 * 1024 * 1024 + 1), name: "a.json")
            #expect(huge.status == 413)
            #expect(huge.body.contains("The file is larger than 64 MiB, the most an import takes. Split it and import the parts."))
            #expect(try await editor.get("/console/users/export").status == 403)
            let export = try await editor.post("/console/users/export", ["csrf": try await Self.csrf(editor), "format": "json"])
            #expect(export.status == 403 && export.body.contains("it needs an owner"))
            #expect(try await live.services.store.user(uid: "v1") == nil)

            // A job is seen by the operator who started it and by owners, by nobody else.
            let job = try #require(try await Self.upload(editor, file: file, name: "a.json").location)
            let other = try await ConsoleTests.signIn(live, try await ConsoleTests.addOperator(live, "ed2@example.com", role: .editor))
            let hidden = try await other.get(job)
            #expect(hidden.status == 404 && hidden.body.contains("There is no such import of yours."))
            let owner = try await ConsoleTests.signIn(live, try await ConsoleTests.addOperator(live, "own@example.com", role: .owner))
            #expect(try await owner.get(job).status == 200)
            // An unknown or malformed id, however odd, gets the page someone else's job gets: never a 500.
            let unknown = "/console/users/import/" + String(repeating: "0", count: 32)
            for path in [
                unknown, "/console/users/import/not-a-job", "/console/users/import/%00", "/console/users/import/" + String(job.suffix(32)) + "%00",
                "/console/users/import/" + String(repeating: "a", count: 8_000), "/console/users/import/%C3%A9%E2%80%AE",
                "/console/users/import/'%20OR%201=1",
            ] {
                let answer = try await editor.get(path)
                #expect(answer.status == 404 && answer.body.contains("There is no such import of yours."), "\(path.prefix(60)): \(answer.status)")
            }
            #expect(try await other.get(unknown).body == hidden.body)
        }
    }

    // MARK: Export

    @Test("export JSON and CSV (headers, audit event) and import them into a fresh server with the shown options: the same users")
    func exportRoundTrip() async throws {
        var files: [(format: String, body: String, options: String)] = []
        var originals: [UserRecord] = []
        try await ConsoleTests.withConsole { live in
            let owner = try await ConsoleTests.signIn(live, try await ConsoleTests.addOperator(live, "own@example.com", role: .owner))
            for index in 1...3 {
                let uid = try await ConsoleTests.createUser(live, email: "user\(index)@example.com", password: "password \(index)")
                try await live.services.store.updateUser(uid: uid, session: nil) { user in
                    user.displayName = "User, \"\(index)\""
                    user.customAttributes = #"{"level":\#(index)}"#
                    user.providers = [ProviderLink(providerID: "google.com", rawID: "g\(index)", email: "user\(index)@example.com")]
                }
            }
            originals = try await live.services.store.users(after: nil, limit: 10)
            let page = try await owner.get("/console/users/export")
            #expect(page.status == 200)
            let options = try #require(page.body.firstMatch(of: #/<pre id="hash-options">([^<]+)</pre>/#).map { String($0.output.1) })
            #expect(options.hasPrefix("--hash-algo STANDARD_SCRYPT --mem-cost "))
            for format in ["json", "csv"] {
                let result = try await owner.post("/console/users/export", ["csrf": try await Self.csrf(owner), "format": format])
                #expect(result.status == 200)
                #expect(result.headers["content-disposition"]?.firstMatch(of: #/^attachment; filename="hearth-users-\d{8}\.(json|csv)"$/#) != nil)
                #expect(result.headers["cache-control"] == "no-store")
                #expect(result.headers["content-type"] == (format == "json" ? "application/json; charset=utf-8" : "text/csv; charset=utf-8"))
                files.append((format, result.body, options))
            }
            let json = try JSONDecoder().decode(AuthExportFile.self, from: Data(files[0].body.utf8))
            #expect(json.users.count == 3 && json.users.allSatisfy { $0.passwordHash != nil && $0.salt != nil })
            let events = try await live.services.store.auditEvents(uid: nil, kind: .adminUsersExported, after: nil, limit: 10)
            #expect(events.map { $0.details["format"] ?? "" }.sorted() == ["csv", "json"])
            #expect(events.allSatisfy { $0.details["secondFactors"] == "included" })
            #expect(events.allSatisfy { $0.actorID == "operator:own@example.com" })
        }
        for file in files {
            try await ConsoleTests.withConsole { live in
                let editor = try await ConsoleTests.signIn(live, try await ConsoleTests.addOperator(live, "ed@example.com", role: .editor))
                var fields = ["hashAlgorithm": "STANDARD_SCRYPT"]
                let words = file.options.split(separator: " ").map(String.init)
                for (flag, field) in [
                    ("--mem-cost", "memoryCost"), ("--block-size", "blockSize"), ("--parallelization", "parallelization"), ("--dk-len", "dkLen"),
                ] {
                    fields[field] = try #require(words.firstIndex(of: flag).map { words[$0 + 1] })
                }
                let done = try await Self.runImport(live, editor, file: Data(file.body.utf8), name: "export.\(file.format)", fields: fields)
                #expect(done.contains("Imported 3 of 3 users; 0 skipped."), "\(file.format): \(done)")
                let imported = try await live.services.store.users(after: nil, limit: 10)
                #expect(imported.map(\.uid) == originals.map(\.uid))
                for (copy, original) in zip(imported, originals) {
                    #expect(
                        copy.email == original.email && copy.displayName == original.displayName && copy.customAttributes == original.customAttributes
                    )
                    #expect(copy.providers.map(\.rawID) == original.providers.map(\.rawID))
                    #expect(abs(copy.createdAt.timeIntervalSince(original.createdAt)) < 0.001)
                }
                #expect(
                    try await Self.signInOverREST(live, "user2@example.com", "password 2")
                        == originals.first { $0.email == "user2@example.com" }?.uid, "\(file.format)")
            }
        }
    }

    // MARK: Chromium

    @Test("Chromium: an editor imports from the users page; the job's page refreshes itself to the summary; screenshots")
    func importInChromium() async throws {
        try await ConsoleTests.withConsole { live in
            let added = try await ConsoleTests.addOperator(live, "ed@example.com", role: .editor)
            try await ConsoleTests.createUser(live, email: "taken@example.com")
            var users = (1...2_500).map { index -> ExportedUser in
                var user = ExportedUser(localId: "b\(index)")
                user.email = "bulk\(index)@example.com"
                return user
            }
            users[7].email = "taken@example.com"
            users[9].localId = "<b>bold</b>"
            users[9].email = "not an e-mail"
            let file = String(decoding: try JSONEncoder().encode(AuthExportFile(users: users)), as: UTF8.self)
            try await HeadlessBrowser.with { browser in
                let page = try await browser.newPage()
                let base = "http://localhost:\(live.port)"
                _ = try await page.navigate(to: try #require(URL(string: base + "/console/sign-in")))
                try await page.fill("#email", with: added.email)
                try await page.fill("#password", with: ConsoleTests.password)
                _ = try await page.clickAndWaitForNavigation("button[type=submit]")
                try await page.fill("#code", with: RFC6238.code(key: added.key, at: live.clock.now))
                _ = try await page.clickAndWaitForNavigation("button[type=submit]")
                _ = try await page.clickAndWaitForNavigation("a[href='/console/users/import']")
                #expect(try await page.text(of: "h1") == "Import users")
                try await ConsoleTests.screenshot(page, "console-import-light")
                // What choosing a file does: the input holds it.
                try await page.evaluate(
                    """
                    (() => { const data = new DataTransfer();
                      data.items.add(new File([\(JSONValue.string(file).jsonText)], 'users.json', { type: 'application/json' }));
                      document.querySelector('#file').files = data.files; })()
                    """)
                _ = try await page.clickAndWaitForNavigation("main form button[type=submit]")
                let shown = try await page.evaluate("document.body.innerText")
                #expect(page.url?.path.hasPrefix("/console/users/import/") == true, "\(String(describing: page.url)): \(shown)")
                // The page reloads itself (no script) until the summary shows; a reload may be under way when it is read.
                let deadline = ContinuousClock.now + .seconds(120)
                var summary = ""
                var sawProgress = false
                while summary.isEmpty, ContinuousClock.now < deadline {
                    let read = try? await page.evaluate(
                        "[document.querySelector('progress') !== null, document.querySelector('#summary')?.innerText ?? '']")
                    if case .array(let values)? = read, values.count == 2 {
                        if values[0] == .bool(true) { sawProgress = true }
                        if case .string(let text) = values[1] { summary = text }
                    }
                    if summary.isEmpty { try await Task.sleep(for: .milliseconds(250)) }
                }
                #expect(sawProgress)
                #expect(summary == "Imported 2498 of 2500 users; 2 skipped.")
                #expect(try await page.text(of: "#skipped").contains("<b>bold</b>"))
                #expect(try await page.evaluate("document.querySelector('#skipped b') === null") == .bool(true))
                #expect(try await page.evaluate("document.querySelector('progress').value") == .number(2_500))
                #expect(try await page.evaluate("document.scripts.length") == .number(0))
                #expect(page.consoleErrors.isEmpty, "\(page.consoleErrors)")
                try await ConsoleTests.screenshot(page, "console-import-summary-light")
                try await page.emulateColorScheme(dark: true)
                try await ConsoleTests.screenshot(page, "console-import-summary-dark")
            }
            #expect(try await live.services.store.user(uid: "b2500")?.email == "bulk2500@example.com")
        }
    }

    // MARK: Tenants

    @Test("a Firebase auth:export file imported into a tenant: its users are the tenant's, not the project's; exported back from the tenant")
    func tenantImportExport() async throws {
        try await ConsoleTests.withConsole { live in
            let owner = try await ConsoleTests.signIn(live, try await ConsoleTests.addOperator(live, "own@example.com", role: .owner))
            let tenantID = try await ConsoleSettingsTests.createTenant(live, "Acme", allowPasswordSignup: true)
            let tenant = live.services.scoped(to: tenantID).store
            let listing = try await owner.get("/console/users?tenant=\(tenantID)")
            #expect(listing.body.contains("href=\"/console/users/import?tenant=\(tenantID)\""))
            #expect(listing.body.contains("href=\"/console/users/export?tenant=\(tenantID)\""))
            let form = try await owner.get("/console/users/import?tenant=\(tenantID)")
            #expect(form.body.contains("<h1>Import users into <bdi>tenant Acme</bdi></h1>"))
            #expect(form.body.contains("<input type=\"hidden\" name=\"tenant\" value=\"\(tenantID)\">"))

            // The file as `firebase auth:export` writes it, HMAC_SHA256 hashes.
            let salt = Data("salt-t".utf8)
            let hash = Data(HMAC<SHA256>.authenticationCode(for: Data("tenant password".utf8) + salt, using: SymmetricKey(data: Self.hmacKey)))
            let users: [[String: Any]] = [
                [
                    "localId": "t1", "email": "ada@acme.example", "emailVerified": true, "passwordHash": hash.base64EncodedString(),
                    "salt": salt.base64EncodedString(), "displayName": "Ada", "createdAt": "1600000000000", "lastSignedInAt": "1600000001000",
                    "providerUserInfo": [["providerId": "google.com", "rawId": "g-t1", "email": "ada@acme.example"]],
                ],
                ["localId": "t2", "phoneNumber": "+15555550188"],
            ]
            let file = try JSONSerialization.data(withJSONObject: ["users": users])
            let fields = ["hashAlgorithm": "HMAC_SHA256", "hashKey": Self.hmacKey.base64EncodedString(), "tenant": tenantID]
            let done = try await Self.runImport(live, owner, file: file, name: "firebase-users.json", fields: fields)
            #expect(done.contains("Imported 2 of 2 users; 0 skipped."), "\(done)")
            #expect(done.contains("Into tenant <code><bdi>\(tenantID)</bdi></code>.") && done.contains("href=\"/console/users?tenant=\(tenantID)\""))
            #expect(try await tenant.user(uid: "t1")?.email == "ada@acme.example")
            #expect(try await tenant.user(uid: "t2")?.phoneNumber == "+15555550188")
            #expect(try await live.services.store.user(uid: "t1") == nil)
            #expect(try await live.services.store.user(uid: "t2") == nil)
            #expect(try await Self.signInOverREST(live, "ada@acme.example", "tenant password", tenantID: tenantID) == "t1")
            #expect(try await Self.signInOverREST(live, "ada@acme.example", "tenant password") == nil)
            #expect(try await owner.get("/console/users?tenant=\(tenantID)").body.contains("ada@acme.example"))
            #expect(!(try await owner.get("/console/users").body.contains("ada@acme.example")))
            // The import's event is the tenant's.
            #expect(try await tenant.auditEvents(uid: nil, kind: .adminUsersImported, after: nil, limit: 5).first?.details["imported"] == "2")
            #expect(try await live.services.store.auditEvents(uid: nil, kind: .adminUsersImported, after: nil, limit: 5).isEmpty)

            // Exported back: the tenant's users alone, under a name that says whose they are.
            let page = try await owner.get("/console/users/export?tenant=\(tenantID)")
            #expect(page.body.contains("<input type=\"hidden\" name=\"tenant\" value=\"\(tenantID)\">"))
            let csrf = try #require(page.csrf)
            let export = try await owner.post("/console/users/export", ["csrf": csrf, "format": "json", "tenant": tenantID])
            #expect(export.status == 200)
            let fileName = try Regex("^attachment; filename=\"hearth-users-\(tenantID)-\\d{8}\\.json\"$")
            #expect(export.headers["content-disposition"]?.firstMatch(of: fileName) != nil, "\(export.headers)")
            let exported = try JSONDecoder().decode(AuthExportFile.self, from: Data(export.body.utf8))
            #expect(exported.users.map(\.localId).sorted() == ["t1", "t2"])
            #expect(exported.users.first { $0.localId == "t1" }?.providerUserInfo?.first?.rawId == "g-t1")
            #expect(try await tenant.auditEvents(uid: nil, kind: .adminUsersExported, after: nil, limit: 5).count == 1)
            let projectExport = try await owner.post("/console/users/export", ["csrf": csrf, "format": "json"])
            #expect(!projectExport.body.contains("ada@acme.example"))
            // A tenant that does not exist: not found, nothing imported or exported.
            #expect(try await owner.get("/console/users/import?tenant=no-such-tenant").status == 404)
            #expect(try await owner.post("/console/users/export", ["csrf": csrf, "format": "json", "tenant": "no-such-tenant"]).status == 404)
            let refused = try await Self.upload(owner, file: file, name: "users.json", fields: ["tenant": "no-such-tenant"])
            #expect(refused.status == 404)
        }
    }

    // MARK: Support

    /// The form token of the users' page.
    static func csrf(_ client: ConsoleHTTPClient) async throws -> String {
        try #require(try await client.get("/console/users").csrf)
    }

    /// Posts `file` as the import form does (`multipart/form-data`), with the session's form token unless `csrf` is given.
    static func upload(
        _ client: ConsoleHTTPClient, file: Data, name: String, fields: [String: String] = [:], csrf: String? = nil, headers: [String: String] = [:]
    ) async throws -> ConsoleHTTPClient.Result {
        var token = csrf ?? ""
        if csrf == nil { token = try await Self.csrf(client) }
        let boundary = "----hearth-test-\(UUID().uuidString)"
        var body = Data()
        for (field, value) in fields.merging(["csrf": token]) { $1 } {
            body += Data("--\(boundary)\r\nContent-Disposition: form-data; name=\"\(field)\"\r\n\r\n\(value)\r\n".utf8)
        }
        body += Data(
            "--\(boundary)\r\nContent-Disposition: form-data; name=\"file\"; filename=\"\(name)\"\r\nContent-Type: application/octet-stream\r\n\r\n"
                .utf8)
        body += file
        body += Data("\r\n--\(boundary)--\r\n".utf8)
        return try await client.post(
            "/console/users/import", bytes: body, headers: ["Content-Type": "multipart/form-data; boundary=\(boundary)"].merging(headers) { $1 })
    }

    /// Uploads `file`, follows the job's page until it is done, and returns that page.
    static func runImport(
        _ live: LiveHearth, _ client: ConsoleHTTPClient, file: Data, name: String, fields: [String: String] = [:]
    ) async throws -> String {
        let started = try await upload(client, file: file, name: name, fields: fields)
        let job = try #require(started.location, "\(started.status): \(started.body)")
        #expect(job.wholeMatch(of: #/\/console\/users\/import\/[0-9a-f]{32}/#) != nil)
        let deadline = ContinuousClock.now + .seconds(120)
        while ContinuousClock.now < deadline {
            let page = try await client.get(job)
            #expect(page.status == 200)
            if !page.body.contains("http-equiv=\"refresh\"") { return page.body }
            try await Task.sleep(for: .milliseconds(100))
        }
        Issue.record("the import did not finish")
        return ""
    }

    /// The uid `signInWithPassword` answers, or `nil` when it refuses.
    static func signInOverREST(_ live: LiveHearth, _ email: String, _ password: String, tenantID: String? = nil) async throws -> String? {
        var fields = ["email": email, "password": password]
        fields["tenantId"] = tenantID
        let body = try JSONSerialization.data(withJSONObject: fields)
        let result = try await ConsoleHTTPClient(baseURL: live.baseURL).post(
            "/v1/accounts:signInWithPassword?key=console-test-api-key", bytes: body, headers: ["Content-Type": "application/json"])
        guard result.status == 200 else { return nil }
        return (try JSONSerialization.jsonObject(with: Data(result.body.utf8)) as? [String: Any])?["localId"] as? String
    }
}
