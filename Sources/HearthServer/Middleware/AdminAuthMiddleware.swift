import HTTPTypes
import Hummingbird

/// Requires an administrator's bearer credential (see ``AdministratorCredentials``) on the admin routes and
/// marks the request as the administrator's.
struct AdminAuthMiddleware<Context: CallerRequestContext>: RouterMiddleware {
    let credentials: AdministratorCredentials

    func handle(_ request: Request, context: Context, next: (Request, Context) async throws -> Response) async throws -> Response {
        guard request.method != .options else { return try await next(request, context) }
        guard let presented = AdministratorCredentials.bearer(of: request) else { throw RequestError.missingCredential }
        guard let credential = try await credentials.identify(presented) else { throw RequestError.invalidCredential }
        RequestRecord.noteAdministrator()
        var context = context
        context.caller = .administrator
        context.administratorCredential = credential
        return try await next(request, context)
    }
}

extension RequestError {
    static let missingCredential = RequestError(
        status: .unauthorized,
        message:
            "Request is missing required authentication credential. Expected OAuth 2 access token, login cookie or other valid authentication credential. See https://developers.google.com/identity/sign-in/web/devconsole-project.",
        statusName: "UNAUTHENTICATED", reason: "required")
    static let invalidCredential = RequestError(
        status: .unauthorized,
        message:
            "Request had invalid authentication credentials. Expected OAuth 2 access token, login cookie or other valid authentication credential. See https://developers.google.com/identity/sign-in/web/devconsole-project.",
        statusName: "UNAUTHENTICATED", reason: "authError")
}
