import Foundation
import HearthConfiguration
import HearthCore
import HearthWire
import HearthWireMapping
import Hummingbird

/// `GET/PATCH /v2/projects/{project}/config`: the sign-in settings of ``ProjectSettings`` as Identity
/// Toolkit's `Config` names them. PATCH changes the fields `updateMask` names (every field the body has
/// when it names none); fields Hearth does not keep are refused rather than silently dropped.
struct ProjectConfigController<Context: RequestContext>: Sendable {
    let settings: ProjectSettingsSource
    let changes: ProjectSettingsChanges
    /// Hearth's own hash parameters, shown as the project's `hashConfig`.
    let passwords: PasswordHasher
    let audit: AuditTrail
    let configuration: ServerConfiguration

    static func addRoutes(to group: RouterGroup<Context>, from source: ControllerSource<Self, Context>) {
        group.get("config", use: source { $0.get })
        group.patch("config", use: source { $0.patch })
    }

    @Sendable func get(_ request: Request, context: Context) async throws -> Response {
        try checkProject(context)
        return WireCoding.response(config(try await settings.projectSettings()))
    }

    @Sendable func patch(_ request: Request, context: Context) async throws -> Response {
        try checkProject(context)
        let input = try await WireCoding.decode(ProjectConfig.self, from: request, limit: configuration.maxBodyBytes)
        let mask = try input.fieldPaths(updateMask: request.uri.queryParameters.get("updateMask"))
        let stored = try await changes.change(fields: mask, from: audit.origin(request, context: context)) {
            try $0.apply(input, paths: mask, development: configuration.mode == .development)
        }
        return WireCoding.response(config(stored))
    }

    private func config(_ settings: ProjectSettings) -> ProjectConfig {
        ProjectConfig(settings, projectID: configuration.projectID, hasher: passwords)
    }

    private func checkProject(_ context: Context) throws {
        guard context.parameters.get("project") == configuration.projectID else { throw HearthError(.projectNotFound) }
    }
}
