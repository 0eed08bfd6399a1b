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
        tracer.extract(request.headers, into: &instrumentation, using: HTTPFieldsExtractor())
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
