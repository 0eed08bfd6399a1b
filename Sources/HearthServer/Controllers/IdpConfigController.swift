import Foundation
import HearthConfiguration
import HearthCore
import HearthProviders
import HearthWire
import HearthWireMapping
import Hummingbird

/// The admin API for identity-provider settings, as the Admin SDKs call it:
/// `/v2/projects/{project}/defaultSupportedIdpConfigs[/{idpId}]` and
/// `/v2/projects/{project}/oauthIdpConfigs[/{oidc.name}]` and `/v2/projects/{project}/inboundSamlConfigs[/{saml.name}]`:
/// list, create, get, patch (with `updateMask`),
/// delete. Settings live in the database and take effect on every replica's next federated sign-in.
/// Built-in providers' secrets are accepted and never returned; an OpenID Connect provider's `clientSecret` is returned,
/// as Identity Platform does. Stored settings are sealed at rest (``SecretSealer/sealedSettingPrefixes``).
struct IdpConfigController<Context: RequestContext>: Sendable {
    /// Reads and writes the settings (checked, audited, applied to this replica at once).
    let changes: ProviderSettingsChanges
    let audit: AuditTrail
    let configuration: ServerConfiguration
    /// The tenant the controller works in (`nil`: the project's): SAML configs' resource names carry it.
    var tenantID: String?

    static func addRoutes(to group: RouterGroup<Context>, from source: ControllerSource<Self, Context>) {
        group.get("defaultSupportedIdpConfigs", use: source { controller in { try await controller.list($0, $1, kind: .defaultSupported) } })
        group.post("defaultSupportedIdpConfigs", use: source { controller in { try await controller.create($0, $1, kind: .defaultSupported) } })
        group.get("defaultSupportedIdpConfigs/:id", use: source { controller in { try await controller.get($0, $1, kind: .defaultSupported) } })
        group.patch("defaultSupportedIdpConfigs/:id", use: source { controller in { try await controller.update($0, $1, kind: .defaultSupported) } })
        group.delete("defaultSupportedIdpConfigs/:id", use: source { controller in { try await controller.delete($0, $1, kind: .defaultSupported) } })
        group.get("oauthIdpConfigs", use: source { controller in { try await controller.list($0, $1, kind: .oauth) } })
        group.post("oauthIdpConfigs", use: source { controller in { try await controller.create($0, $1, kind: .oauth) } })
        group.get("oauthIdpConfigs/:id", use: source { controller in { try await controller.get($0, $1, kind: .oauth) } })
        group.patch("oauthIdpConfigs/:id", use: source { controller in { try await controller.update($0, $1, kind: .oauth) } })
        group.delete("oauthIdpConfigs/:id", use: source { controller in { try await controller.delete($0, $1, kind: .oauth) } })
        group.get("inboundSamlConfigs", use: source { controller in { try await controller.list($0, $1, kind: .saml) } })
        group.post("inboundSamlConfigs", use: source { controller in { try await controller.create($0, $1, kind: .saml) } })
        group.get("inboundSamlConfigs/:id", use: source { controller in { try await controller.get($0, $1, kind: .saml) } })
        group.patch("inboundSamlConfigs/:id", use: source { controller in { try await controller.update($0, $1, kind: .saml) } })
        group.delete("inboundSamlConfigs/:id", use: source { controller in { try await controller.delete($0, $1, kind: .saml) } })
    }

    typealias Kind = IdpConfigCollection

    // MARK: Handlers

    func list(_ request: Request, _ context: Context, kind: Kind) async throws -> Response {
        let project = try checkedProject(context)
        // Pages of `pageSize` (1 to 100, 100 by default) in id order, after the id `pageToken` names; a next page
        // is named only when one follows.
        let parameters = request.uri.queryParameters
        let pageSize =
            try parameters.get("pageSize").map { text -> Int in
                guard let size = Int(text), (0...100).contains(size) else {
                    throw HearthError(.invalidArgument, detail: "pageSize must be between 0 and 100")
                }
                return size == 0 ? 100 : size
            } ?? 100
        let after = parameters.get("pageToken").flatMap { $0.isEmpty ? nil : $0 }
        let all = try await changes.all().filter { setting in
            kind.owns(setting.providerID) && after.map { setting.providerID > $0 } ?? true
        }.sorted { $0.providerID < $1.providerID }
        let settings = Array(all.prefix(pageSize))
        let next = all.count > pageSize ? settings.last?.providerID : nil
        switch kind {
        case .defaultSupported:
            return WireCoding.response(
                ListDefaultSupportedIdpConfigsResponse(
                    defaultSupportedIdpConfigs: settings.map { DefaultSupportedIdpConfig($0, project: project) }, nextPageToken: next))
        case .oauth:
            return WireCoding.response(
                ListOAuthIdpConfigsResponse(oauthIdpConfigs: settings.map { OAuthIdpConfig($0, project: project) }, nextPageToken: next))
        case .saml:
            return WireCoding.response(
                ListInboundSamlConfigsResponse(
                    inboundSamlConfigs: settings.map { InboundSamlConfig($0, name: resourceName($0.providerID, kind: .saml, project: project)) },
                    nextPageToken: next))
        }
    }

    func get(_ request: Request, _ context: Context, kind: Kind) async throws -> Response {
        let project = try checkedProject(context)
        let id = try checkedID(context, kind: kind)
        guard let setting = try await changes.setting(id) else { throw HearthError(.configurationNotFound) }
        return respond(setting, kind: kind, project: project)
    }

    func create(_ request: Request, _ context: Context, kind: Kind) async throws -> Response {
        let project = try checkedProject(context)
        guard let id = request.uri.queryParameters.get(kind.idParameter), !id.isEmpty else {
            throw HearthError(.invalidProviderID, detail: "the \(kind.idParameter) query parameter is required")
        }
        try kind.validateID(id)
        let setting = try await changes.create(id, from: audit.origin(request, context: context)) {
            try await apply(request, to: &$0, kind: kind, mask: nil)
        }
        return respond(setting, kind: kind, project: project)
    }

    func update(_ request: Request, _ context: Context, kind: Kind) async throws -> Response {
        let project = try checkedProject(context)
        let id = try checkedID(context, kind: kind)
        let mask = request.uri.queryParameters.get("updateMask").map {
            $0.split(separator: ",").map { $0.trimmingCharacters(in: .whitespaces) }.filter { !$0.isEmpty }
        }
        let setting = try await changes.update(id, from: audit.origin(request, context: context)) {
            try await apply(request, to: &$0, kind: kind, mask: mask)
        }
        return respond(setting, kind: kind, project: project)
    }

    func delete(_ request: Request, _ context: Context, kind: Kind) async throws -> Response {
        _ = try checkedProject(context)
        let id = try checkedID(context, kind: kind)
        try await changes.delete(id, from: audit.origin(request, context: context))
        return WireCoding.response(EmptyObject())
    }

    // MARK: Parts

    private struct EmptyObject: Codable, Sendable {}

    private func checkedProject(_ context: Context) throws -> String {
        let project = context.parameters.get("project") ?? ""
        guard project == configuration.projectID else { throw HearthError(.projectNotFound) }
        return project
    }

    private func checkedID(_ context: Context, kind: Kind) throws -> String {
        let id = context.parameters.get("id") ?? ""
        guard kind.owns(id) else { throw HearthError(.configurationNotFound) }
        return id
    }

    /// Copies the body's fields into `setting`: all present fields, or with an `updateMask` exactly the
    /// masked ones (a masked field absent from the body is cleared).
    private func apply(_ request: Request, to setting: inout IdentityProviderSetting, kind: Kind, mask: [String]?) async throws {
        let limit = configuration.maxBodyBytes
        switch kind {
        case .defaultSupported: setting.apply(try await WireCoding.decode(DefaultSupportedIdpConfig.self, from: request, limit: limit), mask: mask)
        case .oauth: setting.apply(try await WireCoding.decode(OAuthIdpConfig.self, from: request, limit: limit), mask: mask)
        case .saml: setting.apply(try await WireCoding.decode(InboundSamlConfig.self, from: request, limit: limit), mask: mask)
        }
    }

    private func respond(_ setting: IdentityProviderSetting, kind: Kind, project: String) -> Response {
        switch kind {
        case .defaultSupported: WireCoding.response(DefaultSupportedIdpConfig(setting, project: project))
        case .oauth: WireCoding.response(OAuthIdpConfig(setting, project: project))
        case .saml: WireCoding.response(InboundSamlConfig(setting, name: resourceName(setting.providerID, kind: .saml, project: project)))
        }
    }

    /// `projects/{p}[/tenants/{t}]/{collection}/{id}`: a tenant's configs are named under it.
    private func resourceName(_ providerID: String, kind: Kind, project: String) -> String {
        "projects/\(project)" + (tenantID.map { "/tenants/\($0)" } ?? "") + "/\(kind.collection)/\(providerID)"
    }
}
