import AsyncHTTPClient

/// The parts the `hearth` command gives the server that the server does not make itself.
enum Composition {
    /// The HTTP client of the providers' calls (keys, discovery, token endpoints), one for the process: it lives as
    /// long as the process, so it is never shut down while a request may use it.
    static let httpClient = HTTPClient(eventLoopGroupProvider: .singleton)
}
