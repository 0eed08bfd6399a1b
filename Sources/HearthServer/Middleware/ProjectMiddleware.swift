import HearthCore
import Hummingbird

/// Refuses project-scoped routes (`/v1/projects/{project}/…`) for any project but the configured one
/// (`PROJECT_NOT_FOUND`): a Hearth server serves one project.
struct ProjectMiddleware<Context: RequestContext>: RouterMiddleware {
    let projectID: String

    func handle(_ request: Request, context: Context, next: (Request, Context) async throws -> Response) async throws -> Response {
        guard request.method != .options else { return try await next(request, context) }
        guard context.parameters.get("project") == projectID else { throw HearthError(.projectNotFound) }
        return try await next(request, context)
    }
}
