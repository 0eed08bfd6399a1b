import HTTPTypes
import HearthConfiguration
import HearthCore
import HearthTelemetry
import Hummingbird
import Logging

/// What every request leaves behind: its access-log line and its metrics.
///
/// The access log is one line per request, at `info`: method, route template (never the path, which can hold an
/// e-mail or a uid), status, duration, the client's address (through ``ClientAddressResolver``'s trusted
/// proxies), the API key's id, the uid the request turned out to be about, and the request id (`hb.request.id`,
/// also sent back as `X-Request-Id`). Nothing from the query, the headers or the body: no token, password or code.
///
/// The metrics (``ServerMetrics``): requests and their durations by route, sign-ins and sign-ups by provider
/// and result (from what the handlers noted in ``RequestRecord``), token refreshes by result.
///
/// Outermost in the router, so that it sees the final answer, errors included.
struct RequestObservationMiddleware<Context: RequestContext>: RouterMiddleware {
    static var requestIDHeader: HTTPField.Name { HTTPField.Name("X-Request-Id")! }

    let enabled: Bool
    let addresses: ClientAddressResolver
    let metrics: ServerMetrics
    let clock: @Sendable () -> ContinuousClock.Instant

    init(
        enabled: Bool, addresses: ClientAddressResolver, metrics: ServerMetrics,
        clock: @escaping @Sendable () -> ContinuousClock.Instant = { .now }
    ) {
        self.enabled = enabled
        self.addresses = addresses
        self.metrics = metrics
        self.clock = clock
    }

    func handle(_ request: Request, context: Context, next: (Request, Context) async throws -> Response) async throws -> Response {
        let record = RequestRecord()
        let start = clock()
        do {
            var response = try await RequestRecord.$current.withValue(record) { try await next(request, context) }
            response.headers[Self.requestIDHeader] = context.id
            finish(request, context: context, status: response.status.code, record: record, start: start)
            return response
        } catch {
            // What escaped the error middleware (Hummingbird's own errors) is answered by Hummingbird.
            let status = (error as? any HTTPResponseError)?.status.code ?? 500
            finish(request, context: context, status: status, record: record, start: start)
            throw error
        }
    }

    private func finish(_ request: Request, context: Context, status: Int, record: RequestRecord, start: ContinuousClock.Instant) {
        let elapsed = clock() - start
        let route = Self.route(context)
        let notes = record.notes
        measure(route: route, status: status, elapsed: elapsed, notes: notes)
        guard enabled else { return }
        log(request, context: context, route: route, status: status, elapsed: elapsed, notes: notes)
    }

    private func measure(route: String, status: Int, elapsed: Duration, notes: RequestRecord.Notes) {
        metrics.request(route: route, status: status, duration: elapsed, errorCode: notes.errorCode)
        let result = status < 400 ? "ok" : notes.errorCode ?? String(status)
        if let signIn = notes.signIn, signIn.newUser != nil || status >= 400 {
            metrics.count(signIn.signUp ? .signUps : .signIns, signIn.provider, result)
        }
        // The Secure Token endpoint's routes.
        if route == "/v1/token" || route == "/securetoken.googleapis.com/v1/token" { metrics.count(.tokenRefreshes, result) }
    }

    private func log(
        _ request: Request, context: Context, route: String, status: Int, elapsed: Duration, notes: RequestRecord.Notes
    ) {
        var metadata: Logger.Metadata = [
            "method": .string(request.method.rawValue), "route": .string(route), "status": .string(String(status)),
            "duration_ms": .string(LogDuration.milliseconds(elapsed)),
            "client": .string(addresses.client(request, context: context) ?? ClientAddressResolver.unknown),
        ]
        if let key = notes.apiKeyID { metadata["key_id"] = .string(key) }
        if let uid = notes.uid { metadata["uid"] = .string(uid) }
        if notes.administrator { metadata["caller"] = "admin" }
        context.logger.info("request", metadata: metadata)
    }

    /// The route template (`/v1/accounts:lookup`, `/v1/projects/{project}/accounts:batchGet`); `NotFound` for a
    /// path no route matched, so a scanner's paths never reach the log.
    static func route(_ context: Context) -> String {
        guard let path = context.endpointPath, !path.isEmpty else { return "NotFound" }
        return path
    }
}
