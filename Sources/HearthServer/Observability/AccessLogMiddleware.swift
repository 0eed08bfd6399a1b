import Foundation
import HTTPTypes
import HearthCore
import Hummingbird
import Logging

/// One log line per request, at `info`: method, route template (never the path, which can hold an e-mail or a
/// uid), status, duration, the client's address (through ``ClientAddressResolver``'s trusted proxies), the
/// API key's id, the uid the request turned out to be about, and the request id (`hb.request.id`, also sent
/// back as `X-Request-Id`). Nothing from the query, the headers or the body: no token, password or code.
///
/// Outermost in the router, so that it sees the final answer, errors included.
struct AccessLogMiddleware<Context: RequestContext>: RouterMiddleware {
    static var requestIDHeader: HTTPField.Name { HTTPField.Name("X-Request-Id")! }

    let enabled: Bool
    let addresses: ClientAddressResolver
    let clock: @Sendable () -> ContinuousClock.Instant

    init(enabled: Bool, addresses: ClientAddressResolver, clock: @escaping @Sendable () -> ContinuousClock.Instant = { .now }) {
        self.enabled = enabled
        self.addresses = addresses
        self.clock = clock
    }

    func handle(_ request: Request, context: Context, next: (Request, Context) async throws -> Response) async throws -> Response {
        let record = RequestRecord()
        let start = clock()
        do {
            var response = try await RequestRecord.$current.withValue(record) { try await next(request, context) }
            response.headers[Self.requestIDHeader] = context.id
            log(request, context: context, status: response.status.code, record: record, start: start)
            return response
        } catch {
            // What escaped the error middleware (Hummingbird's own errors) is answered by Hummingbird.
            let status = (error as? any HTTPResponseError)?.status.code ?? 500
            log(request, context: context, status: status, record: record, start: start)
            throw error
        }
    }

    private func log(_ request: Request, context: Context, status: Int, record: RequestRecord, start: ContinuousClock.Instant) {
        guard enabled else { return }
        let elapsed = clock() - start
        let milliseconds = Double(elapsed.components.seconds) * 1_000 + Double(elapsed.components.attoseconds) / 1e15
        let notes = record.notes
        var metadata: Logger.Metadata = [
            "method": "\(request.method.rawValue)",
            "route": "\(Self.route(context))",
            "status": "\(status)",
            "duration_ms": "\(String(format: "%.3f", milliseconds))",
            "client": "\(addresses.client(request, context: context) ?? ClientAddressResolver.unknown)",
        ]
        if let key = notes.apiKeyID { metadata["key_id"] = "\(key)" }
        if let uid = notes.uid { metadata["uid"] = "\(uid)" }
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
