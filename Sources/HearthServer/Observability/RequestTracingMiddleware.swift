import HTTPTypes
import Hummingbird
import Tracing

/// A server span per request, under which the store's transactions (`db.read`, `db.write`) and the calls to
/// identity providers nest.
///
/// Named `POST /v1/accounts:signInWithIdp`: the method and the route template, never the path (`NotFound` for a
/// path no route matched, as in the access log). Its attributes are `http.request.method`, `http.route`,
/// `http.response.status_code` and `hearth.request_id` (the access log's `hb.request.id`); a 5xx answer sets the
/// error status and `error.type` to the status code. Nothing from the query, the headers or the body, and no
/// error's text: it could quote what the client sent.
///
/// A W3C `traceparent` header makes the span a child of the caller's, so that Hearth's spans join its trace.
///
/// Right inside ``RequestObservationMiddleware``, so that it sees the final answer, errors included. Added only
/// when tracing is on.
struct RequestTracingMiddleware<Context: RequestContext>: RouterMiddleware {
    let tracer: any Tracer

    func handle(_ request: Request, context: Context, next: (Request, Context) async throws -> Response) async throws -> Response {
        var instrumentation = InstrumentationContext.current ?? .topLevel
        tracer.extract(Self.propagation(request.headers), into: &instrumentation, using: HTTPFieldsExtractor())
        let route = RequestObservationMiddleware<Context>.route(context)
        let span = tracer.startSpan("\(request.method.rawValue) \(route)", context: instrumentation, ofKind: .server)
        defer { span.end() }
        span.attributes["http.request.method"] = request.method.rawValue
        span.attributes["http.route"] = route
        span.attributes["hearth.request_id"] = context.id
        do {
            let response = try await InstrumentationContext.$current.withValue(span.context) { try await next(request, context) }
            Self.finish(span, status: response.status.code)
            return response
        } catch {
            // What escaped the error middleware (Hummingbird's own errors) is answered by Hummingbird.
            Self.finish(span, status: (error as? any HTTPResponseError)?.status.code ?? 500)
            throw error
        }
    }

    /// The request's `traceparent`, when it is well-formed, and its `tracestate`: nothing else of the request reaches
    /// the tracer, which logs the headers it could not read (a malformed header is ignored here without a word).
    static func propagation(_ headers: HTTPFields) -> HTTPFields {
        var fields = HTTPFields()
        guard let parent = headers[.traceparent], isWellFormed(traceparent: parent) else { return fields }
        fields[.traceparent] = parent
        if let state = headers[.tracestate], state.utf8.count <= 512 { fields[.tracestate] = state }
        return fields
    }

    /// W3C Trace Context's `version-traceid-parentid-flags` in lower-case hex (2, 32, 16 and 2 digits), with a
    /// version other than `ff` and ids other than all zeros.
    static func isWellFormed(traceparent: String) -> Bool {
        let parts = traceparent.split(separator: "-", omittingEmptySubsequences: false)
        guard parts.count == 4, zip(parts, [2, 32, 16, 2]).allSatisfy({ $0.utf8.count == $1 }) else { return false }
        let hex = Set("0123456789abcdef".utf8)
        guard parts.allSatisfy({ $0.utf8.allSatisfy(hex.contains) }) else { return false }
        return parts[0] != "ff" && parts[1].contains { $0 != "0" } && parts[2].contains { $0 != "0" }
    }

    private static func finish(_ span: any Span, status: Int) {
        span.attributes["http.response.status_code"] = status
        guard status >= 500 else { return }
        span.attributes["error.type"] = String(status)
        span.setStatus(SpanStatus(code: .error))
    }
}

/// Reads propagation headers (`traceparent`, `tracestate`) from a request's fields.
struct HTTPFieldsExtractor: Extractor {
    func extract(key: String, from carrier: HTTPFields) -> String? {
        guard let name = HTTPField.Name(key) else { return nil }
        return carrier[name]
    }
}
