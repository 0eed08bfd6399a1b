/// A failure to start or drive the headless browser, with a message meant for the person running the tests.
public enum BrowserError: Error, CustomStringConvertible, Equatable {
    /// No Chromium executable was found, or it would not start or answer; the message says why.
    case launchFailed(String)
    /// A DevTools call or a wait did not finish in time; names what was waited for.
    case timedOut(String)
    /// Chromium answered a DevTools call with an error.
    case protocolError(method: String, message: String)
    /// A navigation failed before any page arrived (`net::ERR_CONNECTION_REFUSED`, …).
    case navigationFailed(url: String, reason: String)
    /// Script run in the page threw; the message is the exception's.
    case scriptError(String)
    /// No element matched a selector.
    case noSuchElement(String)
    /// Chromium's DevTools pipe closed (the browser ended or was closed).
    case closed(String)

    public var description: String {
        switch self {
        case .launchFailed(let message): "Chromium did not start: \(message)"
        case .timedOut(let what): "timed out waiting for \(what)"
        case .protocolError(let method, let message): "\(method) failed: \(message)"
        case .navigationFailed(let url, let reason): "navigation to \(url) failed: \(reason)"
        case .scriptError(let message): "script error: \(message)"
        case .noSuchElement(let selector): "no element matches \(selector)"
        case .closed(let message): "the browser is closed: \(message)"
        }
    }
}
