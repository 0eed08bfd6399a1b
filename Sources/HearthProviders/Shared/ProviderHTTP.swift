import AsyncHTTPClient
import Foundation
import HearthCore
import HearthTelemetry
import Logging
import Metrics
import NIOCore
import NIOHTTP1
import Tracing

/// Every call Hearth makes to a provider goes through here: one deadline for the whole exchange
/// (connection, headers and body), a size limit, and one mapping of failures to `INVALID_IDP_RESPONSE`.
///
/// Timeouts, refused connections, TLS failures and 5xx answers all become errors with a clear detail; 4xx
/// answers are returned, because what they mean depends on the endpoint. Only scheme, host and path are
/// ever logged: queries and bodies carry tokens and secrets.
///
/// Each call is counted (`hearth_provider_requests_total`: ok, refused for a 4xx answer, failed for none usable),
/// timed (`hearth_provider_request_duration_seconds`) and traced (a client span named after the method and the
/// provider, with the host and path, never the query).
struct ProviderHTTP: Sendable {
    let client: HTTPClient
    let network: ProvidersConfiguration.Network
    let logger: Logger
    let telemetry: Telemetry

    init(client: HTTPClient, network: ProvidersConfiguration.Network, logger: Logger, telemetry: Telemetry = .off) {
        self.client = client
        self.network = network
        self.logger = logger
        self.telemetry = telemetry
    }

    /// Sends one request and reads the whole response.
    func send(
        _ method: HTTPMethod, _ url: URL, headers: [(String, String)] = [], body: Data? = nil, provider: String
    ) async throws -> ProviderResponse {
        let started = ContinuousClock.now
        var result = "failed"
        defer {
            let metrics = telemetry.metrics
            let label = Self.metricLabel(provider)
            Counter(label: MetricDescriptor.providerRequests.name, dimensions: [("provider", label), ("result", result)], factory: metrics)
                .increment()
            let elapsed = ContinuousClock.now - started
            Timer(label: MetricDescriptor.providerRequestDuration.name, dimensions: [("provider", label)], factory: metrics)
                .recordNanoseconds(elapsed.components.seconds * 1_000_000_000 + elapsed.components.attoseconds / 1_000_000_000)
        }
        return try await telemetry.tracer.withSpan("\(method.rawValue) \(provider)", ofKind: .client) { span in
            span.attributes["http.request.method"] = method.rawValue
            span.attributes["server.address"] = url.host ?? ""
            span.attributes["url.path"] = url.path
            span.attributes["hearth.provider"] = provider
            do {
                let response = try await exchange(method, url, headers: headers, body: body, provider: provider, started: started)
                span.attributes["http.response.status_code"] = Int(response.status)
                result = response.isSuccess ? "ok" : "refused"
                return response
            } catch {
                span.recordError(error)
                span.setStatus(SpanStatus(code: .error))
                throw error
            }
        }
    }

    private func exchange(
        _ method: HTTPMethod, _ url: URL, headers: [(String, String)], body: Data?, provider: String, started: ContinuousClock.Instant
    ) async throws -> ProviderResponse {
        var request = HTTPClientRequest(url: url.absoluteString)
        request.method = method
        request.headers.add(name: "User-Agent", value: network.userAgent)
        request.headers.add(name: "Accept", value: "application/json")
        for (name, value) in headers {
            if name.lowercased() == "accept" { request.headers.remove(name: "Accept") }
            request.headers.add(name: name, value: value)
        }
        if let body { request.body = .bytes(ByteBuffer(bytes: body)) }

        let prepared = request
        // The client's own deadline fires a little earlier than ours, so that it can report what it saw
        // (a refused connection it kept retrying, say); ours bounds everything else, body included.
        let timeout = max(network.requestTimeout, 0.001)
        let clientTimeout = TimeAmount.nanoseconds(Int64(timeout * 0.9 * 1_000_000_000))
        let limit = network.maxResponseBytes
        let client = self.client
        let target = url.redactedForLogs
        do {
            let response = try await Deadline.run(seconds: timeout) {
                let response = try await client.execute(prepared, timeout: clientTimeout)
                let buffer = try await response.body.collect(upTo: limit)
                return ProviderResponse(
                    status: response.status.code, headers: response.headers, body: Data(buffer.readableBytesView), provider: provider)
            }
            logger.debug(
                "provider call",
                metadata: [
                    "provider": "\(provider)", "method": "\(method.rawValue)", "url": "\(target)",
                    "status": "\(response.status)", "elapsed": "\(ContinuousClock.now - started)",
                ])
            if response.status >= 500 {
                throw ProviderFailure.invalid(
                    "The identity provider answered with HTTP \(response.status).", reason: "\(provider) \(target) answered HTTP \(response.status)")
            }
            return response
        } catch let error as HearthError {
            throw error
        } catch {
            let failure = Self.classify(error)
            logger.notice(
                "provider call failed",
                metadata: [
                    "provider": "\(provider)", "method": "\(method.rawValue)", "url": "\(target)",
                    "failure": "\(failure.kind)", "elapsed": "\(ContinuousClock.now - started)",
                ])
            throw ProviderFailure.invalid(failure.detail, reason: "\(provider) \(target): \(failure.kind)", underlying: error)
        }
    }

    /// The provider's id for a metric's label (`google.com` for the `Google` the verifiers name it); OpenID Connect
    /// providers are named by their id already.
    static func metricLabel(_ provider: String) -> String {
        ProviderCatalogue.all.first { $0.name == provider }?.id ?? provider
    }

    /// `GET` with an optional bearer token.
    func get(_ url: URL, bearer: String? = nil, headers: [(String, String)] = [], provider: String) async throws -> ProviderResponse {
        var all = headers
        if let bearer { all.append(("Authorization", "Bearer \(bearer)")) }
        return try await send(.GET, url, headers: all, provider: provider)
    }

    /// What went wrong with a call that produced no response, in words a client can act on.
    static func classify(_ error: any Error) -> (kind: String, detail: String) {
        if error is Deadline.Exceeded { return ("timed out", ProviderFailure.timeoutDetail) }
        if error is NIOTooManyBytesError {
            return ("response too large", "The identity provider's response is too large.")
        }
        if let error = error as? HTTPClientError {
            switch error {
            case .deadlineExceeded, .connectTimeout, .readTimeout, .writeTimeout, .getConnectionFromPoolTimeout:
                return ("timed out (\(error))", ProviderFailure.timeoutDetail)
            default:
                return ("HTTP client error (\(error))", ProviderFailure.unreachableDetail)
            }
        }
        if error is CancellationError { return ("cancelled", ProviderFailure.unreachableDetail) }
        return ("\(type(of: error)): \(error)", ProviderFailure.unreachableDetail)
    }
}
