import Foundation
import HearthCore
import HearthPostgresLauncher
import HearthSandbox
import HearthTesting
import Hummingbird
import HummingbirdTesting
import NIOCore
import Testing

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// The headless-browser harness against a tiny site served in the test, and one browser sign-in against
/// the development server's sandbox. Serialized: every test runs its own Chromium.
@Suite("Headless Chromium over the DevTools pipe", .serialized)
struct HeadlessBrowserTests {
    @Test("A person fills a form and submits it; the answer, the final URL after a redirect and the status are seen")
    func formRoundTrip() async throws {
        try await withTestSite { site in
            try await HeadlessBrowser.with { browser in
                let page = try await browser.newPage()
                let landed = try await page.navigate(to: site.url("/redirect"))
                #expect(landed == site.url("/form"))
                #expect(page.url == site.url("/form"))
                #expect(page.status == 200)
                #expect(try await page.text(of: "label") == "Your name")

                let name = "Ada <Lovelace> & \"Byron\" ünï"
                try await page.fill("#name", with: name)
                #expect(try await page.evaluate("document.querySelector('#name').value") == .string(name))
                #expect(try await page.evaluate("window.inputEvents") == .number(1))
                let answered = try await page.clickAndWaitForNavigation("button[type=submit]")
                #expect(answered == site.url("/submit"))
                #expect(page.status == 200)
                #expect(try await page.text(of: "#result") == "Hello, \(name)")
                #expect(page.consoleErrors.isEmpty, "\(page.consoleErrors)")
            }
        }
    }

    @Test("evaluate returns JSON, awaits promises and turns exceptions into errors; a missing element is named")
    func evaluateAndElements() async throws {
        try await withTestSite { site in
            try await HeadlessBrowser.with { browser in
                let page = try await browser.newPage()
                try await page.navigate(to: site.url("/form"))
                #expect(
                    try await page.evaluate("({a: [1, 'two', null], b: true})")
                        == .object(["a": .array([.number(1), .string("two"), .null]), "b": .bool(true)]))
                #expect(try await page.evaluate("Promise.resolve(6 * 7)") == .number(42))
                #expect(try await page.evaluate("undefined") == .null)
                await #expect(throws: BrowserError.scriptError("Error: boom")) { try await page.evaluate("throw new Error('boom')") }
                await #expect(throws: BrowserError.scriptError("Error: later")) { try await page.evaluate("Promise.reject(new Error('later'))") }
                await #expect(throws: BrowserError.noSuchElement("#missing")) { try await page.text(of: "#missing") }
                await #expect(throws: BrowserError.noSuchElement("#missing")) { try await page.fill("#missing", with: "x") }
                await #expect(throws: BrowserError.noSuchElement("#missing")) { try await page.click("#missing") }
                // Errors the test's own scripts throw are not the page's.
                #expect(page.consoleErrors.isEmpty, "\(page.consoleErrors)")
            }
        }
    }

    @Test("waitFor sees an element a script adds later, a selector that never matches times out, waitForURL sees a script's navigation")
    func waitForSelector() async throws {
        try await withTestSite { site in
            try await HeadlessBrowser.with { browser in
                let page = try await browser.newPage()
                try await page.navigate(to: site.url("/late"))
                try await page.waitFor(selector: "#arrived")
                #expect(try await page.text(of: "#arrived") == "here")
                await #expect(throws: BrowserError.self) { try await page.waitFor(selector: "#never", timeout: .milliseconds(300)) }

                // A script navigates on its own; waitForURL sees the end of it whenever it happens.
                try await page.navigate(to: site.url("/moves"))
                let moved = try await page.waitForURL { $0.path == "/form" }
                #expect(moved == site.url("/form"))
                #expect(try await page.text(of: "label") == "Your name")
            }
        }
    }

    @Test("A screenshot is a PNG of the fixed 800×900 viewport")
    func screenshot() async throws {
        try await withTestSite { site in
            try await HeadlessBrowser.with { browser in
                let page = try await browser.newPage()
                try await page.navigate(to: site.url("/form"))
                let file = FileManager.default.temporaryDirectory.appendingPathComponent("hearth-screenshot-\(UUID().uuidString).png")
                defer { try? FileManager.default.removeItem(at: file) }
                try await page.screenshot(to: file)
                let data = try Data(contentsOf: file)
                #expect(data.prefix(8) == Data([0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A]))
                // The IHDR chunk: width and height, big-endian, at bytes 16 and 20.
                let width = data[16..<20].reduce(0) { $0 << 8 | Int($1) }
                let height = data[20..<24].reduce(0) { $0 << 8 | Int($1) }
                #expect(width == 800 && height == 900)
            }
        }
    }

    @Test("A script error shows in consoleErrors; a 400 page's status is seen and is no script error")
    func scriptErrorsAndStatus() async throws {
        try await withTestSite { site in
            try await HeadlessBrowser.with { browser in
                let page = try await browser.newPage()
                try await page.navigate(to: site.url("/broken"))
                #expect(page.status == 200)
                #expect(page.consoleErrors.contains { $0.contains("undefinedFunction is not defined") }, "\(page.consoleErrors)")
                #expect(page.consoleErrors.contains { $0 == "console.error: logged on purpose 7" }, "\(page.consoleErrors)")

                let clean = try await browser.newPage()
                try await clean.navigate(to: site.url("/bad"))
                #expect(clean.status == 400)
                #expect(try await clean.text(of: "h1") == "That did not work")
                #expect(clean.consoleErrors.isEmpty, "\(clean.consoleErrors)")
                #expect(clean.networkErrors.contains { $0.contains("status of 400") }, "\(clean.networkErrors)")
            }
        }
    }

    @Test("A page that never answers ends in a time-out error, not a hang; the page stays usable")
    func neverLoads() async throws {
        let silent = try SilentServer()
        defer { silent.stop() }
        try await withTestSite { site in
            try await HeadlessBrowser.with { browser in
                let page = try await browser.newPage()
                await #expect {
                    try await page.navigate(to: URL(string: "http://127.0.0.1:\(silent.port)/never")!, timeout: .seconds(2))
                } throws: { error in
                    guard case BrowserError.timedOut(let what) = error else { return false }
                    return what.contains("/never")
                }
                try await page.navigate(to: site.url("/form"))
                #expect(page.status == 200)
            }
        }
    }

    @Test("A refused connection is a navigation error that names the reason")
    func refusedConnection() async throws {
        let port = try SilentServer().stoppedPort()
        try await HeadlessBrowser.with { browser in
            let page = try await browser.newPage()
            await #expect {
                try await page.navigate(to: URL(string: "http://127.0.0.1:\(port)/")!)
            } throws: { error in
                guard case BrowserError.navigationFailed(_, let reason) = error else { return false }
                return reason == "net::ERR_CONNECTION_REFUSED"
            }
        }
    }

    @Test("Two pages of one browser work in parallel without mixing their forms")
    func parallelPages() async throws {
        try await withTestSite { site in
            try await HeadlessBrowser.with { browser in
                try await withThrowingTaskGroup(of: (String, String).self) { group in
                    for name in ["first", "second"] {
                        group.addTask {
                            let page = try await browser.newPage()
                            try await page.navigate(to: site.url("/form"))
                            try await page.fill("#name", with: name)
                            try await page.clickAndWaitForNavigation("button[type=submit]")
                            let text = try await page.text(of: "#result")
                            try await page.close()
                            return (name, text)
                        }
                    }
                    for try await (name, text) in group {
                        #expect(text == "Hello, \(name)")
                    }
                }
            }
        }
    }

    @Test("After close the browser process is gone, its profile removed, and calls fail instead of hanging")
    func closeEndsTheProcess() async throws {
        let browser = try await HeadlessBrowser.launch()
        let pid = browser.processID
        #expect(kill(pid, 0) == 0)
        #expect(FileManager.default.fileExists(atPath: browser.directory.appendingPathComponent("profile").path))
        let page = try await browser.newPage()
        try await browser.close()
        #expect(kill(pid, 0) == -1 && errno == ESRCH)
        #expect(!FileManager.default.fileExists(atPath: browser.directory.path))
        await #expect(throws: BrowserError.self) { try await browser.newPage() }
        await #expect(throws: BrowserError.self) { try await page.evaluate("1") }
        try await browser.close()
    }

    @Test("A browser that is missing or ends at once is a launch error with the tail of its log")
    func launchErrors() async throws {
        await #expect {
            _ = try await HeadlessBrowser.launch(executable: "/nonexistent/chromium")
        } throws: { error in
            error as? BrowserError == .launchFailed("/nonexistent/chromium is not an executable file given by its absolute path")
        }
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("hearth-fake-chromium-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: directory) }
        let script = directory.appendingPathComponent("chromium")
        try "#!/bin/sh\necho 'Missing X server or $DISPLAY' >&2\nexit 1\n".write(to: script, atomically: true, encoding: .utf8)
        try FileManager.default.setAttributes([.posixPermissions: 0o755], ofItemAtPath: script.path)
        await #expect {
            _ = try await HeadlessBrowser.launch(executable: script.path)
        } throws: { error in
            guard case BrowserError.launchFailed(let message) = error else { return false }
            return message.contains("did not answer over the DevTools pipe") && message.contains("Missing X server or $DISPLAY")
        }
    }

    // MARK: The development server

    @Test("Browser sign-in in Chromium: the sandbox's consent page, Approve, and the browser ends at the return URL")
    func sandboxConsentInChromium() async throws {
        try await withTestSite { site in
            try await withLiveHearth { live in
                let returnURL = site.url("/done").absoluteString
                let client = FirebaseTestClient(baseURL: live.baseURL)
                let started = try await client.createAuthUri(providerID: "google.com", continueUri: returnURL, sessionId: "chromium")
                let authUri = try #require(started.string("authUri"), "\(started.text)")

                try await HeadlessBrowser.with { browser in
                    let page = try await browser.newPage()
                    try await page.navigate(to: try #require(URL(string: authUri)))
                    #expect(page.status == 200)
                    let subject = SandboxIdentity.googleGmail.subject
                    try await page.click("input[name=sandbox_subject][value=\"\(subject)\"]")
                    #expect(try await page.evaluate("document.querySelector('input[name=sandbox_subject]:checked').value") == .string(subject))
                    #expect(page.consoleErrors.isEmpty, "\(page.consoleErrors)")

                    let landed = try await page.clickAndWaitForNavigation("button[value=approve]")
                    #expect(landed.absoluteString.hasPrefix(returnURL + "?link="), "\(landed)")
                    #expect(try await page.text(of: "body") == "Signed in")
                    let link = try #require(landed.queryItems["link"])
                    #expect(link.hasPrefix(live.baseURL + "/__/auth/handler?authResult="))

                    let signedIn = try await client.completeBrowserSignIn(requestUri: link, sessionId: "chromium", providerID: "google.com")
                    #expect(signedIn.status == .ok, "\(signedIn.text)")
                    #expect(signedIn.string("federatedId") == "https://accounts.google.com/" + subject)
                }
            }
        }
    }
}

/// The descriptors ``ChildProcess`` hands to a child at chosen numbers (what Chromium's pipe needs).
@Suite("Child processes get exactly the descriptors they are handed")
struct ChildProcessDescriptorTests {
    @Test("Descriptors arrive at the chosen numbers, even swapped; nothing else the parent has open reaches the child")
    func chosenNumbers() async throws {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("hearth-fds-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: directory) }
        let first = try pipePair()
        let second = try pipePair()
        let unrelated = try pipePair()
        defer { for descriptor in [first.read, second.read, unrelated.read, unrelated.write] { close(descriptor) } }
        // The shell writes into 3 and 4, counts its open descriptors (the glob reading the directory holds one
        // more) and checks the numbers that must be closed: 5, between handed-over ones, and the unrelated pipe's.
        let output = directory.appendingPathComponent("out")
        let closed = [5, unrelated.read, unrelated.write, first.read, second.read].filter { ![3, 4, 6].contains($0) }
            .map(String.init).joined(separator: " ")
        let script = """
            echo to-three >&3; echo to-four >&4; set -- /proc/$$/fd/*; echo "$# descriptors"
            for n in \(closed); do [ -e /proc/$$/fd/$n ] && echo "$n is open"; done; exit 0
            """
        let child = try ChildProcess.start(
            ["/bin/sh", "-c", script], output: output, extraDescriptors: [3: second.write, 4: first.write, 6: first.write])
        close(first.write)
        close(second.write)
        #expect(try await child.wait(timeout: 60) == 0)
        let report = try String(contentsOf: output, encoding: .utf8)
        #expect(report == "7 descriptors\n")
        #expect(readAll(second.read) == "to-three\n")
        #expect(readAll(first.read) == "to-four\n")
    }

    @Test("Numbers below 3 are refused; the existing callers' three descriptors are unchanged")
    func lowNumbersRefused() throws {
        let output = FileManager.default.temporaryDirectory.appendingPathComponent("hearth-fds-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: output) }
        #expect(throws: LauncherError.self) { try ChildProcess.start(["/bin/true"], output: output, extraDescriptors: [1: 0]) }
    }

    private func pipePair() throws -> (read: Int32, write: Int32) {
        var descriptors: [Int32] = [0, 0]
        guard pipe(&descriptors) == 0 else { throw LauncherError("pipe: errno \(errno)") }
        for descriptor in descriptors { _ = fcntl(descriptor, F_SETFD, FD_CLOEXEC) }
        return (descriptors[0], descriptors[1])
    }

    private func readAll(_ descriptor: Int32) -> String {
        var bytes: [UInt8] = []
        var chunk = [UInt8](repeating: 0, count: 256)
        while true {
            let count = chunk.withUnsafeMutableBytes { read(descriptor, $0.baseAddress, $0.count) }
            if count <= 0 { break }
            bytes += chunk[0..<count]
        }
        return String(decoding: bytes, as: UTF8.self)
    }
}

// MARK: - Helpers

/// The tiny site the browser tests visit, on 127.0.0.1 and a free port.
struct TestSite: Sendable {
    let port: Int

    func url(_ path: String) -> URL {
        URL(string: "http://127.0.0.1:\(port)\(path)")!
    }
}

/// Serves ``TestSite``'s pages for the duration of `body`.
func withTestSite(_ body: @escaping @Sendable (TestSite) async throws -> Void) async throws {
    let router = Router()
    router.get("/form") { _, _ in
        html(
            """
            <form method="post" action="/submit">
            <label for="name">Your name</label> <input id="name" name="name">
            <button type="submit">Send</button>
            </form>
            <script>
            window.inputEvents = 0;
            document.querySelector('#name').addEventListener('input', () => window.inputEvents += 1);
            </script>
            """)
    }
    router.post("/submit") { request, _ in
        let body = try await request.body.collect(upTo: 1 << 16)
        let form = String(buffer: body).replacingOccurrences(of: "+", with: "%20")
        let name = URLComponents(string: "?" + form)?.queryItems?.first { $0.name == "name" }?.value ?? ""
        return html("<h1 id=\"result\">Hello, \(escapeHTML(name))</h1>")
    }
    router.get("/redirect") { _, _ in
        Response(status: .seeOther, headers: [.location: "/form"])
    }
    router.get("/late") { _, _ in
        html("<p>waiting</p><script>setTimeout(() => document.body.insertAdjacentHTML('beforeend', '<p id=\"arrived\">here</p>'), 200)</script>")
    }
    router.get("/moves") { _, _ in
        html("<p>moving</p><script>setTimeout(() => { location.href = '/form'; }, 50)</script>")
    }
    router.get("/broken") { _, _ in
        html("<p>broken</p><script>console.error('logged on purpose', 7); undefinedFunction();</script>")
    }
    router.get("/bad") { _, _ in
        html("<h1>That did not work</h1>", status: .badRequest)
    }
    router.get("/done") { _, _ in
        html("<p>Signed in</p>")
    }
    router.get("/favicon.ico") { _, _ in
        Response(status: .noContent)
    }
    let app = Application(router: router, configuration: .init(address: .hostname("127.0.0.1", port: 0)))
    try await app.test(.live) { client in
        try await body(TestSite(port: try #require(client.port)))
    }
}

private func html(_ body: String, status: HTTPResponse.Status = .ok) -> Response {
    let page = "<!doctype html><html><head><meta charset=\"utf-8\"><title>Test</title></head><body>\(body)</body></html>"
    return Response(status: status, headers: [.contentType: "text/html; charset=utf-8"], body: .init(byteBuffer: ByteBuffer(string: page)))
}

private func escapeHTML(_ text: String) -> String {
    text.replacingOccurrences(of: "&", with: "&amp;").replacingOccurrences(of: "<", with: "&lt;").replacingOccurrences(of: ">", with: "&gt;")
        .replacingOccurrences(of: "\"", with: "&quot;")
}

/// A TCP socket on 127.0.0.1 that listens but never accepts: connections complete, requests get no answer.
final class SilentServer: Sendable {
    let descriptor: Int32
    let port: Int

    init() throws {
        #if canImport(Glibc)
        let descriptor = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        #else
        let descriptor = socket(AF_INET, SOCK_STREAM, 0)
        #endif
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_addr.s_addr = inet_addr("127.0.0.1")
        address.sin_port = 0
        var length = socklen_t(MemoryLayout<sockaddr_in>.size)
        let bound = withUnsafeMutablePointer(to: &address) { pointer in
            pointer.withMemoryRebound(to: sockaddr.self, capacity: 1) { address in
                bind(descriptor, address, length) == 0 && listen(descriptor, 8) == 0 && getsockname(descriptor, address, &length) == 0
            }
        }
        guard descriptor >= 0, bound else { throw BrowserError.launchFailed("cannot open a listening socket: errno \(errno)") }
        self.descriptor = descriptor
        self.port = Int(UInt16(bigEndian: address.sin_port))
    }

    func stop() {
        close(descriptor)
    }

    /// Closes the socket and returns its port, where nothing listens now.
    func stoppedPort() -> Int {
        stop()
        return port
    }
}
