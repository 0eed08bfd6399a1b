import Foundation
import HearthConfiguration
import HearthCore
import HearthWire
import HearthWireMapping
import Hummingbird

/// Identity Platform's tenants: `POST/GET /v2/projects/{project}/tenants`, `GET/PATCH/DELETE …/tenants/{tenant}`. The
/// tenant's sign-in settings live on the tenant itself (`allowPasswordSignup`, `enableEmailLinkSignin`,
/// `enableAnonymousUser`, `disableAuth`, `mfaConfig`, `testPhoneNumbers`, `smsRegionConfig`, `emailPrivacyConfig`).
/// Deleting a tenant deletes its users.
struct TenantsController<Context: CallerRequestContext>: Sendable {
    let services: HearthServices
    /// Every write, with its audit event and this replica's cache of the tenant dropped.
    let changes: TenantChanges
    let audit: AuditTrail

    static var maximumPageSize: Int { 1_000 }

    func addRoutes(to group: RouterGroup<Context>) {
        group.post("tenants", use: create)
        group.get("tenants", use: list)
        group.get("tenants/:tenant", use: get)
        group.patch("tenants/:tenant", use: update)
        group.delete("tenants/:tenant", use: delete)
    }

    private var projectID: String { services.configuration.projectID }

    /// Errors: `INVALID_ARGUMENT` (a display name Identity Platform refuses), `INVALID_CONFIG` (settings).
    @Sendable func create(_ request: Request, context: Context) async throws -> Response {
        let input = try await WireCoding.decode(TenantResource.self, from: request, limit: services.configuration.maxBodyBytes)
        guard let displayName = input.displayName else { throw HearthError(.invalidArgument, detail: "displayName is required.") }
        let tenant = try await changes.create(displayName: displayName, from: audit.origin(request, context: context)) {
            try $0.apply(input, paths: input.fieldPaths(updateMask: nil))
        }
        return WireCoding.response(resource(tenant))
    }

    @Sendable func get(_ request: Request, context: Context) async throws -> Response {
        WireCoding.response(resource(try await existing(context)))
    }

    /// Pages of `pageSize` (1 to 1,000, 20 by default) in id order; `nextPageToken` names the last tenant of a full page.
    @Sendable func list(_ request: Request, context: Context) async throws -> Response {
        let parameters = request.uri.queryParameters
        let pageSize =
            try parameters.get("pageSize").map { text -> Int in
                guard let number = Int(text), (1...Self.maximumPageSize).contains(number) else {
                    throw HearthError(.invalidArgument, detail: "pageSize must be between 1 and \(Self.maximumPageSize).")
                }
                return number
            } ?? 20
        let after = parameters.get("pageToken").flatMap { $0.isEmpty ? nil : $0 }
        if let after, !TenantRecord.isValidID(after) { throw HearthError(.invalidPageToken) }
        let page = try await services.store.tenants(after: after, limit: pageSize + 1)
        let shown = Array(page.prefix(pageSize))
        return WireCoding.response(
            ListTenantsResponse(tenants: shown.map(resource), nextPageToken: page.count > pageSize ? shown.last?.id : nil))
    }

    /// `updateMask` names the fields to change (every field the body sets when there is none).
    @Sendable func update(_ request: Request, context: Context) async throws -> Response {
        let tenantID = try await existing(context).id
        let input = try await WireCoding.decode(TenantResource.self, from: request, limit: services.configuration.maxBodyBytes)
        let paths = try input.fieldPaths(updateMask: request.uri.queryParameters.get("updateMask"))
        let updated = try await changes.update(id: tenantID, fields: paths, from: audit.origin(request, context: context)) {
            try $0.apply(input, paths: paths)
        }
        return WireCoding.response(resource(updated))
    }

    @Sendable func delete(_ request: Request, context: Context) async throws -> Response {
        let tenantID = try await existing(context).id
        try await changes.delete(id: tenantID, from: audit.origin(request, context: context))
        return WireCoding.response([String: String]())
    }

    /// The tenant of the path: `INVALID_TENANT_ID`, `TENANT_NOT_FOUND`.
    private func existing(_ context: Context) async throws -> TenantRecord {
        try await changes.tenant(context.parameters.get("tenant") ?? "")
    }

    private func resource(_ tenant: TenantRecord) -> TenantResource {
        TenantResource(tenant, projectID: projectID, settings: ProjectSettings.tenantDefaults(services.configuration).applying(tenant.settings))
    }
}
