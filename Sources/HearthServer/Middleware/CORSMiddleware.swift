import HTTPTypes
import Hummingbird

/// CORS for browser clients, as the Firebase emulator does it: the origin and the requested headers are
/// reflected, preflights answer 204.
struct FirebaseCORSMiddleware<Context: RequestContext>: RouterMiddleware {
    func handle(_ request: Request, context: Context, next: (Request, Context) async throws -> Response) async throws -> Response {
        guard let origin = request.headers[.origin] else { return try await next(request, context) }
        if request.method == .options, request.headers[.accessControlRequestMethod] != nil {
            var headers: HTTPFields = [:]
            headers[.accessControlAllowOrigin] = origin
            headers[.accessControlAllowMethods] = "GET, POST, PUT, PATCH, DELETE, OPTIONS"
            headers[.accessControlAllowHeaders] = request.headers[.accessControlRequestHeaders] ?? "content-type, x-goog-api-key, authorization"
            headers[.accessControlMaxAge] = "3600"
            headers[.vary] = "Origin"
            if request.headers[HTTPField.Name("access-control-request-private-network")!] != nil {
                headers[HTTPField.Name("access-control-allow-private-network")!] = "true"
            }
            return Response(status: .noContent, headers: headers)
        }
        var response = try await next(request, context)
        response.headers[.accessControlAllowOrigin] = origin
        response.headers[.vary] = "Origin"
        return response
    }
}
