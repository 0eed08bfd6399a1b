import AsyncHTTPClient

/// The parts the `hearth` command gives the server that the server does not make itself.
enum Composition {
    /// The HTTP client of the short-lived commands (`keys`, `admin`), one for the process: it lives as long as the
    /// process. `hearth serve` makes its own and runs it as a service of its group (``HTTPClientService``).
    static let httpClient = HTTPClient(eventLoopGroupProvider: .singleton)
}
