import HTTPTypes
import Hummingbird

/// Requires an administrator's bearer credential (see ``AdministratorCredentials``) on the admin routes and
/// marks the request as the administrator's. Where `projectWide`, a credential of one tenant is refused
/// (`PERMISSION_DENIED`): the project's settings, its tenants, its metrics and status are the project's administrators'.
struct AdminAuthMiddleware<Context: CallerRequestContext>: RouterMiddleware {
    let credentials: AdministratorCredentials
    var projectWide = false

    func handle(_ request: Request, context: Context, next: (Request, Context) async throws -> Response) async throws -> Response {
        guard request.method != .options else { return try await next(request, context) }
        guard let presented = AdministratorCredentials.bearer(of: request) else { throw RequestError.missingCredential }
        guard let administrator = try await credentials.identify(presented) else { throw RequestError.invalidCredential }
        if projectWide, administrator.tenantID != nil { throw RequestError.permissionDenied }
        RequestRecord.noteAdministrator()
        var context = context
        context.caller = .administrator
        context.administratorCredential = administrator.name
        context.administratorTenant = administrator.tenantID
        return try await next(request, context)
    }
}

extension RequestError {
    /// A credential of one tenant outside that tenant, as Google's IAM answers a caller without the permission.
    static let permissionDenied = RequestError(
        status: .forbidden, message: "The caller does not have permission", statusName: "PERMISSION_DENIED", reason: "forbidden")
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
