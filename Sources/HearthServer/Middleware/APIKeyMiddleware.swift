import HTTPTypes
import Hummingbird

/// Requires an API key in `?key=` or `x-goog-api-key` on the Identity Toolkit and Secure Token routes,
/// unless the request carries an administrator's bearer credential: then no key is needed and the request
/// is the administrator's (a bearer that is not one is `401`, as Google answers). In development mode any
/// non-empty key is accepted, as the Firebase emulator does.
struct APIKeyMiddleware<Context: CallerRequestContext>: RouterMiddleware {
    static var headerName: HTTPField.Name { HTTPField.Name("x-goog-api-key")! }
    let acceptsAnyKey: Bool
    let keys: Set<String>
    let administrators: AdministratorCredentials

    func handle(_ request: Request, context: Context, next: (Request, Context) async throws -> Response) async throws -> Response {
        guard request.method != .options else { return try await next(request, context) }
        if let presented = AdministratorCredentials.bearer(of: request) {
            guard let administrator = try await administrators.identify(presented) else { throw RequestError.invalidCredential }
            RequestRecord.noteAdministrator()
            var context = context
            context.caller = .administrator
            context.administratorCredential = administrator.name
            context.administratorTenant = administrator.tenantID
            return try await next(request, context)
        }
        let key = request.uri.queryParameters.get("key") ?? request.headers[Self.headerName]
        guard let key, !key.isEmpty else { throw RequestError.missingAPIKey }
        guard acceptsAnyKey || keys.contains(key) else { throw RequestError.invalidAPIKey }
        RequestRecord.noteAPIKey(key)
        return try await next(request, context)
    }
}
