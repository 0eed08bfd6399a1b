import Foundation
import HearthCore

/// One tab of a ``HeadlessBrowser``: navigation, script, form filling, real mouse clicks, screenshots, and
/// what the page reported (script errors, the main document's HTTP status).
///
/// Every method waits at most its `timeout` (the page's default: ``HeadlessBrowser/defaultTimeout``) and
/// then throws ``BrowserError/timedOut(_:)``, so a test never hangs on a page that does not load.
public final class BrowserPage: @unchecked Sendable {
    /// The viewport every page has (CSS pixels), so screenshots are comparable.
    public static let viewport = (width: 800, height: 900)

    private let connection: DevToolsConnection
    /// The DevTools target id, which is also the id of the page's main frame.
    private let targetID: String
    private let sessionID: String
    private let timeout: Duration
    private let lock = NSLock()
    private var state = State()
    /// The viewport's width now (``resize(width:height:mobile:)``); guarded by `lock`.
    private var width = BrowserPage.viewport.width
    private var waiters: [(condition: @Sendable (State) -> Bool, pending: Pending<Void>)] = []
    private var listener: Int?

    /// What the page's events told so far; guarded by `lock`.
    struct State: Sendable {
        /// The main frame's committed documents, oldest first.
        var commits: [(loaderID: String, url: String)] = []
        /// Loader ids of main-frame documents whose load event fired.
        var loaded: Set<String> = []
        /// HTTP status of main-frame documents by loader id.
        var statuses: [String: Int] = [:]
        var consoleErrors: [String] = []
        var networkErrors: [String] = []
    }

    init(connection: DevToolsConnection, targetID: String, sessionID: String, timeout: Duration) {
        self.connection = connection
        self.targetID = targetID
        self.sessionID = sessionID
        self.timeout = timeout
    }

    deinit {
        if let listener { connection.removeListener(listener) }
    }

    /// Subscribes to the page's events, switches on the domains and fixes the viewport.
    func prepare() async throws {
        listener = connection.addListener { [weak self] event in self?.handle(event) }
        for method in ["Page.enable", "Runtime.enable", "Log.enable", "Network.enable"] {
            _ = try await call(method)
        }
        _ = try await call("Page.setLifecycleEventsEnabled", ["enabled": .bool(true)])
        _ = try await call(
            "Emulation.setDeviceMetricsOverride",
            [
                "width": .number(Double(Self.viewport.width)), "height": .number(Double(Self.viewport.height)),
                "deviceScaleFactor": .number(1), "mobile": .bool(false),
            ])
    }

    // MARK: What the page reported

    /// The URL of the main document (after redirects), `nil` before the first navigation.
    public var url: URL? {
        lock.withLock { state.commits.last.flatMap { URL(string: $0.url) } }
    }

    /// The HTTP status of the main document (the last response of its redirects), `nil` for pages not
    /// loaded over HTTP.
    public var status: Int? {
        lock.withLock { state.commits.last.flatMap { state.statuses[$0.loaderID] } }
    }

    /// Uncaught exceptions, rejected promises nobody handled, `console.error` calls and other error-level
    /// console entries of every document this page showed, in order. Empty for a page without script errors.
    public var consoleErrors: [String] {
        lock.withLock { state.consoleErrors }
    }

    /// Error-level console entries from the network ("Failed to load resource: … 404"), kept apart from
    /// ``consoleErrors`` so a page deliberately answered with 400 does not count as a script error.
    public var networkErrors: [String] {
        lock.withLock { state.networkErrors }
    }

    // MARK: Navigation

    /// Opens `url` and waits for the load event of the document that arrives.
    /// - Returns: the final URL, after redirects.
    /// - Throws: ``BrowserError/navigationFailed(url:reason:)`` when no document arrives (refused connection,
    ///   unknown host), ``BrowserError/timedOut(_:)`` when none loads within `timeout`.
    @discardableResult
    public func navigate(to url: URL, timeout: Duration? = nil) async throws -> URL {
        let deadline = ContinuousClock.now + (timeout ?? self.timeout)
        do {
            let result = try await call("Page.navigate", ["url": .string(url.absoluteString)], timeout: remaining(deadline))
            if case .string(let reason)? = result["errorText"], !reason.isEmpty {
                throw BrowserError.navigationFailed(url: url.absoluteString, reason: reason)
            }
            guard case .string(let loaderID)? = result["loaderId"] else {
                // A same-document navigation (only the fragment changed): nothing loads.
                return self.url ?? url
            }
            try await wait(for: "the load event of \(url.absoluteString)", until: remaining(deadline)) { state in
                state.loaded.contains(loaderID) && state.commits.contains { $0.loaderID == loaderID }
            }
            return lock.withLock { state.commits.last(where: { $0.loaderID == loaderID }).flatMap { URL(string: $0.url) } } ?? url
        } catch let error as BrowserError {
            guard case .timedOut = error else { throw error }
            _ = try? await call("Page.stopLoading", timeout: .seconds(5))
            throw BrowserError.timedOut("\(url.absoluteString) to load (\(timeout ?? self.timeout))")
        }
    }

    /// Clicks the element matching `selector` (a real mouse click at its centre) and waits until the main
    /// frame has navigated to a new document and loaded it (a form submitted, a link followed; redirects
    /// included).
    /// - Returns: the URL of the new document.
    @discardableResult
    public func clickAndWaitForNavigation(_ selector: String, timeout: Duration? = nil) async throws -> URL {
        let deadline = ContinuousClock.now + (timeout ?? self.timeout)
        let before = lock.withLock { state.commits.count }
        try await click(selector, timeout: remaining(deadline))
        return try await waitForNavigation(after: before, timeout: remaining(deadline))
    }

    /// Waits until the main frame has navigated to a new document (one committed after this call) and
    /// loaded it; for navigations a script or a timer starts. Returns its URL.
    @discardableResult
    public func waitForNavigation(timeout: Duration? = nil) async throws -> URL {
        try await waitForNavigation(after: lock.withLock { state.commits.count }, timeout: timeout ?? self.timeout)
    }

    /// Waits until a loaded main document's URL satisfies `matches` (the current one included): for a
    /// chain of navigations (a form that submits itself, a script redirect) whose end is known but not
    /// the number of steps.
    @discardableResult
    public func waitForURL(timeout: Duration? = nil, _ matches: @escaping @Sendable (URL) -> Bool) async throws -> URL {
        try await wait(for: "a page whose URL matches", until: timeout ?? self.timeout) { state in
            guard let last = state.commits.last, let url = URL(string: last.url) else { return false }
            return state.loaded.contains(last.loaderID) && matches(url)
        }
        return try currentURL()
    }

    private func waitForNavigation(after count: Int, timeout: Duration) async throws -> URL {
        try await wait(for: "a navigation", until: timeout) { state in
            guard state.commits.count > count, let last = state.commits.last else { return false }
            return state.loaded.contains(last.loaderID)
        }
        return try currentURL()
    }

    private func currentURL() throws -> URL {
        guard let url else { throw BrowserError.protocolError(method: "Page.frameNavigated", message: "no URL for the main frame") }
        return url
    }

    /// Runs `body` with `element`, the first element matching `selector`.
    private func evaluate(on selector: String, _ body: String, timeout: Duration?) async throws -> JSONValue {
        let quoted = JSONValue.string(selector).jsonText
        let script = """
            (() => {
                const element = document.querySelector(\(quoted));
                if (!element) throw new Error('no element matches ' + \(quoted));
                \(body)
            })()
            """
        do {
            return try await evaluate(script, timeout: timeout)
        } catch BrowserError.scriptError(let message) where message == "Error: no element matches \(selector)" {
            throw BrowserError.noSuchElement(selector)
        }
    }

    // MARK: Script and elements

    /// Runs `expression` in the page (a promise is awaited) and returns its value as JSON; `undefined`
    /// and values JSON cannot hold (functions, elements) come back as `.null`.
    /// - Throws: ``BrowserError/scriptError(_:)`` with the exception's message when the script throws.
    @discardableResult
    public func evaluate(_ expression: String, timeout: Duration? = nil) async throws -> JSONValue {
        let result = try await call(
            "Runtime.evaluate",
            ["expression": .string(expression), "returnByValue": .bool(true), "awaitPromise": .bool(true), "userGesture": .bool(true)],
            timeout: timeout ?? self.timeout)
        if case .object(let details)? = result["exceptionDetails"] {
            throw BrowserError.scriptError(Self.message(of: details))
        }
        guard case .object(let object)? = result["result"] else { return .null }
        return object["value"] ?? .null
    }

    /// The text a person sees in the first element matching `selector` (its `innerText`).
    public func text(of selector: String, timeout: Duration? = nil) async throws -> String {
        let value = try await evaluate(on: selector, "return element.innerText;", timeout: timeout)
        guard case .string(let text) = value else { throw BrowserError.scriptError("innerText of \(selector) is \(value)") }
        return text
    }

    /// Sets the value of the input or text area matching `selector` as typing would end: focus, the value,
    /// then `input` and `change` events.
    public func fill(_ selector: String, with value: String, timeout: Duration? = nil) async throws {
        let body = """
            element.focus();
            const prototype = element instanceof HTMLTextAreaElement ? HTMLTextAreaElement.prototype
                : element instanceof HTMLSelectElement ? HTMLSelectElement.prototype : HTMLInputElement.prototype;
            Object.getOwnPropertyDescriptor(prototype, 'value').set.call(element, \(JSONValue.string(value).jsonText));
            element.dispatchEvent(new Event('input', { bubbles: true }));
            element.dispatchEvent(new Event('change', { bubbles: true }));
            """
        _ = try await evaluate(on: selector, body, timeout: timeout)
    }

    /// Clicks the element matching `selector` like a person: scrolls it into view and presses and releases
    /// the left mouse button at its centre (so a covered or invisible element is not clicked).
    public func click(_ selector: String, timeout: Duration? = nil) async throws {
        let deadline = ContinuousClock.now + (timeout ?? self.timeout)
        let body = """
            element.scrollIntoView({ block: 'center', inline: 'center' });
            const box = element.getBoundingClientRect();
            if (box.width === 0 || box.height === 0) throw new Error('the element is not visible: ' + \(JSONValue.string(selector).jsonText));
            return [box.left + box.width / 2, box.top + box.height / 2];
            """
        let centre = try await evaluate(on: selector, body, timeout: remaining(deadline))
        guard case .array(let point) = centre, point.count == 2, case .number(let x) = point[0], case .number(let y) = point[1] else {
            throw BrowserError.scriptError("no position for \(selector): \(centre)")
        }
        for type in ["mouseMoved", "mousePressed", "mouseReleased"] {
            var params: [String: JSONValue] = ["type": .string(type), "x": .number(x), "y": .number(y)]
            if type != "mouseMoved" {
                params["button"] = .string("left")
                params["clickCount"] = .number(1)
            }
            _ = try await call("Input.dispatchMouseEvent", params, timeout: remaining(deadline))
        }
    }

    /// Waits until an element matches `selector` (at once if one does), watching the document for changes
    /// rather than polling.
    public func waitFor(selector: String, timeout: Duration? = nil) async throws {
        let limit = timeout ?? self.timeout
        let quoted = JSONValue.string(selector).jsonText
        let script = """
            new Promise((resolve) => {
                if (document.querySelector(\(quoted))) return resolve(true);
                const observer = new MutationObserver(() => {
                    if (document.querySelector(\(quoted))) { observer.disconnect(); resolve(true); }
                });
                observer.observe(document, { childList: true, subtree: true, attributes: true });
            })
            """
        do {
            _ = try await evaluate(script, timeout: limit)
        } catch BrowserError.timedOut {
            throw BrowserError.timedOut("an element matching \(selector) (\(limit))")
        }
    }

    /// Saves a PNG of the viewport (``viewport``) to `file`; with `fullPage`, of the whole document at the viewport's
    /// width (for pages taller than the viewport).
    public func screenshot(to file: URL, fullPage: Bool = false, timeout: Duration? = nil) async throws {
        let deadline = ContinuousClock.now + (timeout ?? self.timeout)
        var params: [String: JSONValue] = ["format": .string("png")]
        if fullPage {
            let metrics = try await call("Page.getLayoutMetrics", timeout: remaining(deadline))
            guard case .object(let size)? = metrics["cssContentSize"], case .number(let height)? = size["height"] else {
                throw BrowserError.protocolError(method: "Page.getLayoutMetrics", message: "no cssContentSize in \(metrics)")
            }
            params["captureBeyondViewport"] = .bool(true)
            let width = lock.withLock { self.width }
            params["clip"] = .object([
                "x": .number(0), "y": .number(0), "width": .number(Double(width)), "height": .number(height.rounded(.up)),
                "scale": .number(1),
            ])
        }
        let result = try await call("Page.captureScreenshot", params, timeout: remaining(deadline))
        guard case .string(let encoded)? = result["data"], let data = Data(base64Encoded: encoded) else {
            throw BrowserError.protocolError(method: "Page.captureScreenshot", message: "no image data")
        }
        try data.write(to: file)
    }

    /// Changes the viewport (CSS pixels), as a phone's when `mobile`; later screenshots take its width.
    public func resize(width: Int, height: Int, mobile: Bool = false) async throws {
        _ = try await call(
            "Emulation.setDeviceMetricsOverride",
            [
                "width": .number(Double(width)), "height": .number(Double(height)), "deviceScaleFactor": .number(1),
                "mobile": .bool(mobile),
            ])
        lock.withLock { self.width = width }
    }

    /// Makes the page see `prefers-color-scheme: dark` (`true`) or `light`.
    public func emulateColorScheme(dark: Bool) async throws {
        _ = try await call(
            "Emulation.setEmulatedMedia",
            ["features": .array([.object(["name": .string("prefers-color-scheme"), "value": .string(dark ? "dark" : "light")])])])
    }

    /// Presses and releases Tab (with Shift when `shift`) as a keyboard does: the browser moves the focus itself.
    public func pressTab(shift: Bool = false) async throws {
        for type in ["rawKeyDown", "keyUp"] {
            _ = try await call(
                "Input.dispatchKeyEvent",
                [
                    "type": .string(type), "key": .string("Tab"), "code": .string("Tab"), "windowsVirtualKeyCode": .number(9),
                    "modifiers": .number(shift ? 8 : 0),
                ])
        }
    }

    /// Closes the tab.
    public func close() async throws {
        if let listener { connection.removeListener(listener) }
        _ = try await connection.call("Target.closeTarget", ["targetId": .string(targetID)], timeout: timeout)
    }

    // MARK: Details

    func call(_ method: String, _ params: [String: JSONValue] = [:], timeout: Duration? = nil) async throws -> [String: JSONValue] {
        try await connection.call(method, params, session: sessionID, timeout: timeout ?? self.timeout)
    }

    private func remaining(_ deadline: ContinuousClock.Instant) -> Duration {
        max(deadline - .now, .milliseconds(1))
    }

    /// Waits until `condition` holds for the page's state (checked now and after every event).
    private func wait(for what: String, until timeout: Duration, _ condition: @escaping @Sendable (State) -> Bool) async throws {
        let pending = Pending<Void>()
        let holds = lock.withLock {
            if condition(state) { return true }
            waiters.append((condition, pending))
            return false
        }
        if holds { return }
        defer { lock.withLock { waiters.removeAll { $0.pending === pending } } }
        try await pending.value(timeout: timeout, waitingFor: what)
    }

    /// Runs on the DevTools reader thread.
    private func handle(_ event: DevToolsEvent) {
        guard event.sessionID == sessionID else { return }
        let params = event.params
        let satisfied: [Pending<Void>] = lock.withLock {
            switch event.method {
            case "Page.frameNavigated":
                guard case .object(let frame)? = params["frame"], frame["parentId"] == nil,
                    case .string(let loaderID)? = frame["loaderId"], case .string(let url)? = frame["url"]
                else { return [] }
                state.commits.append((loaderID, url))
            case "Page.lifecycleEvent":
                guard params["name"] == .string("load"), params["frameId"] == .string(targetID),
                    case .string(let loaderID)? = params["loaderId"]
                else { return [] }
                state.loaded.insert(loaderID)
            case "Network.responseReceived":
                guard params["type"] == .string("Document"), params["frameId"] == .string(targetID),
                    case .string(let loaderID)? = params["loaderId"], case .object(let response)? = params["response"],
                    case .number(let status)? = response["status"]
                else { return [] }
                state.statuses[loaderID] = Int(status)
            case "Runtime.exceptionThrown":
                guard case .object(let details)? = params["exceptionDetails"] else { return [] }
                state.consoleErrors.append(Self.message(of: details))
            case "Runtime.consoleAPICalled":
                guard params["type"] == .string("error"), case .array(let arguments)? = params["args"] else { return [] }
                state.consoleErrors.append("console.error: " + arguments.map(Self.text(of:)).joined(separator: " "))
            case "Log.entryAdded":
                guard case .object(let entry)? = params["entry"], entry["level"] == .string("error"),
                    case .string(let text)? = entry["text"]
                else { return [] }
                if entry["source"] == .string("network") {
                    var line = text
                    if case .string(let url)? = entry["url"] { line += " (\(url))" }
                    state.networkErrors.append(line)
                } else {
                    state.consoleErrors.append(text)
                }
            default:
                return []
            }
            return waiters.filter { $0.condition(state) }.map(\.pending)
        }
        for pending in satisfied { pending.resolve(.success(())) }
    }

    /// The message of a DevTools `ExceptionDetails`: the exception's description's first line
    /// ("TypeError: x is undefined"), else its text ("Uncaught").
    static func message(of details: [String: JSONValue]) -> String {
        if case .object(let exception)? = details["exception"] {
            if case .string(let description)? = exception["description"] {
                return String(description.split(separator: "\n", maxSplits: 1).first ?? "")
            }
            if let value = exception["value"] { return "Uncaught \(text(of: .object(["value": value])))" }
        }
        if case .string(let text)? = details["text"] { return text }
        return "\(details)"
    }

    /// A console argument (a DevTools `RemoteObject`) as text.
    private static func text(of argument: JSONValue) -> String {
        guard case .object(let object) = argument else { return "\(argument)" }
        switch object["value"] {
        case .string(let text)?: return text
        case let value?: return value.jsonText
        case nil:
            if case .string(let description)? = object["description"] { return description }
            return "undefined"
        }
    }
}
