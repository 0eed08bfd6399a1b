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
    let store: any SettingStore
    /// Re-read after each change, so the change applies to this replica's next sign-in at once.
    let identityVerifier: any IdentityVerifier
    let audit: AuditTrail
    let configuration: ServerConfiguration
    /// The tenant the controller works in (`nil`: the project's): SAML configs' resource names carry it.
    var tenantID: String?
    /// When a SAML provider's SP certificate starts.
    var clock: WallClock = .system

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

    enum Kind {
        case defaultSupported, oauth, saml

        var collection: String {
            switch self {
            case .defaultSupported: "defaultSupportedIdpConfigs"
            case .oauth: "oauthIdpConfigs"
            case .saml: "inboundSamlConfigs"
            }
        }
        /// The query parameter naming the new config on create.
        var idParameter: String {
            switch self {
            case .defaultSupported: "idpId"
            case .oauth: "oauthIdpConfigId"
            case .saml: "inboundSamlConfigId"
            }
        }

        /// Where the catalogue puts the providers of this kind.
        var catalogueCollection: ProviderDescription.AdminCollection {
            switch self {
            case .defaultSupported: .defaultSupported
            case .oauth: .oauth
            case .saml: .inboundSaml
            }
        }

        func owns(_ providerID: String) -> Bool { ProviderCatalogue.describes(providerID, in: catalogueCollection) }

        func validateID(_ id: String) throws {
            switch self {
            case .defaultSupported:
                guard owns(id) else {
                    let known = ProviderCatalogue.builtInProviderIDs.sorted().joined(separator: ", ")
                    throw HearthError(.invalidProviderID, detail: "expected one of \(known)")
                }
            case .oauth:
                guard id.range(of: #"^oidc\.[a-z0-9][a-z0-9._-]{0,62}$"#, options: .regularExpression) != nil else {
                    throw HearthError(
                        .invalidProviderID, detail: "OIDC provider ids look like oidc.<name>, with lower-case letters, digits, '.', '_' and '-'")
                }
            case .saml:
                guard id.range(of: #"^saml\.[a-z0-9][a-z0-9._-]{0,62}$"#, options: .regularExpression) != nil else {
                    throw HearthError(
                        .invalidProviderID, detail: "SAML provider ids look like saml.<name>, with lower-case letters, digits, '.', '_' and '-'")
                }
            }
        }
    }

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
        let all = try await storedSettings().filter { setting in
            kind.owns(setting.providerID) && after.map { setting.providerID > $0 } ?? true
        }.sorted { $0.providerID < $1.providerID }
        let settings = Array(all.prefix(pageSize))
        let next = all.count > pageSize ? settings.last?.providerID : nil
        switch kind {
        case .defaultSupported:
            return WireCoding.response(
                ListDefaultSupportedIdpConfigsResponse(
                    defaultSupportedIdpConfigs: settings.map { Self.defaultSupportedConfig($0, project: project) }, nextPageToken: next))
        case .oauth:
            return WireCoding.response(
                ListOAuthIdpConfigsResponse(oauthIdpConfigs: settings.map { Self.oauthConfig($0, project: project) }, nextPageToken: next))
        case .saml:
            return WireCoding.response(
                ListInboundSamlConfigsResponse(
                    inboundSamlConfigs: settings.map { Self.samlConfig($0, name: resourceName($0.providerID, kind: .saml, project: project)) },
                    nextPageToken: next))
        }
    }

    func get(_ request: Request, _ context: Context, kind: Kind) async throws -> Response {
        let project = try checkedProject(context)
        let id = try checkedID(context, kind: kind)
        guard let setting = try await storedSetting(id) else { throw HearthError(.configurationNotFound) }
        return respond(setting, kind: kind, project: project)
    }

    func create(_ request: Request, _ context: Context, kind: Kind) async throws -> Response {
        let project = try checkedProject(context)
        guard let id = request.uri.queryParameters.get(kind.idParameter), !id.isEmpty else {
            throw HearthError(.invalidProviderID, detail: "the \(kind.idParameter) query parameter is required")
        }
        try kind.validateID(id)
        var setting = IdentityProviderSetting(providerID: id, enabled: false)
        try await apply(request, to: &setting, kind: kind, mask: nil)
        if kind == .saml { try SAMLServiceProviderKey.generate(into: &setting, now: clock.now) }
        try ProviderCatalogue.validate(setting)
        // Created only if absent: an existing row makes this write a no-op and the answer CONFIGURATION_EXISTS.
        guard try await store.insertSetting(IdentityProviderSetting.storageName(for: id), value: Self.encode(setting)) else {
            throw HearthError(.configurationExists)
        }
        await recordChange(id, "created", request, context)
        try await identityVerifier.refresh()
        return respond(setting, kind: kind, project: project)
    }

    func update(_ request: Request, _ context: Context, kind: Kind) async throws -> Response {
        let project = try checkedProject(context)
        let id = try checkedID(context, kind: kind)
        guard var setting = try await storedSetting(id) else { throw HearthError(.configurationNotFound) }
        let mask = request.uri.queryParameters.get("updateMask").map {
            $0.split(separator: ",").map { $0.trimmingCharacters(in: .whitespaces) }.filter { !$0.isEmpty }
        }
        try await apply(request, to: &setting, kind: kind, mask: mask)
        try ProviderCatalogue.validate(setting)
        try await store.setSetting(IdentityProviderSetting.storageName(for: id), to: Self.encode(setting))
        await recordChange(id, "updated", request, context)
        try await identityVerifier.refresh()
        return respond(setting, kind: kind, project: project)
    }

    func delete(_ request: Request, _ context: Context, kind: Kind) async throws -> Response {
        _ = try checkedProject(context)
        let id = try checkedID(context, kind: kind)
        guard try await storedSetting(id) != nil else { throw HearthError(.configurationNotFound) }
        try await store.setSetting(IdentityProviderSetting.storageName(for: id), to: nil)
        await recordChange(id, "deleted", request, context)
        try await identityVerifier.refresh()
        return WireCoding.response(EmptyObject())
    }

    // MARK: Parts

    /// The audit event of a provider's settings created, updated or deleted (which provider, never the values).
    private func recordChange(_ providerID: String, _ operation: String, _ request: Request, _ context: Context) async {
        await audit.record(
            .adminProviderSettingsChanged, uid: nil, actor: .administrator, request: request, context: context,
            details: ["provider": providerID, "operation": operation])
    }

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

    private func storedSettings() async throws -> [IdentityProviderSetting] {
        try await store.settings(withPrefix: IdentityProviderSetting.storagePrefix).values.compactMap(Self.decode)
    }

    private func storedSetting(_ id: String) async throws -> IdentityProviderSetting? {
        try await store.setting(IdentityProviderSetting.storageName(for: id)).flatMap(Self.decode)
    }

    /// Copies the body's fields into `setting`: all present fields, or with an `updateMask` exactly the
    /// masked ones (a masked field absent from the body is cleared).
    private func apply(_ request: Request, to setting: inout IdentityProviderSetting, kind: Kind, mask: [String]?) async throws {
        func masked(_ field: String) -> Bool? {
            guard let mask else { return nil }
            return mask.contains { $0 == field || $0.hasPrefix(field + ".") || field.hasPrefix($0 + ".") }
        }
        /// Whether to write `field`: the mask says so, or (no mask) the body has a value.
        func take<T>(_ field: String, _ value: T?) -> Bool { masked(field) ?? (value != nil) }

        switch kind {
        case .defaultSupported:
            let body = try await WireCoding.decode(DefaultSupportedIdpConfig.self, from: request, limit: configuration.maxBodyBytes)
            if take("enabled", body.enabled) { setting.enabled = body.enabled ?? false }
            if take("clientId", body.clientId) { setting.clientID = body.clientId }
            if take("clientSecret", body.clientSecret) { setting.clientSecret = body.clientSecret }
            if take("whitelistedAudiences", body.whitelistedAudiences) { setting.additionalClientIDs = body.whitelistedAudiences }
            // The providers' own sections (`appleSignInConfig`, …), field by field, as their folders declare them.
            ProviderCatalogue.applyAdminSections(Self.jsonObject(body) ?? [:], to: &setting, masked: masked)
        case .oauth:
            let body = try await WireCoding.decode(OAuthIdpConfig.self, from: request, limit: configuration.maxBodyBytes)
            if take("enabled", body.enabled) { setting.enabled = body.enabled ?? false }
            if take("clientId", body.clientId) { setting.clientID = body.clientId }
            if take("clientSecret", body.clientSecret) { setting.clientSecret = body.clientSecret }
            if take("whitelistedAudiences", body.whitelistedAudiences) { setting.additionalClientIDs = body.whitelistedAudiences }
            if take("issuer", body.issuer) { setting.issuer = body.issuer }
            if take("displayName", body.displayName) { setting.displayName = body.displayName }
            if take("responseType.idToken", body.responseType?.idToken) { setting.responseTypeIDToken = body.responseType?.idToken }
            if take("responseType.code", body.responseType?.code) { setting.responseTypeCode = body.responseType?.code }
        case .saml:
            let body = try await WireCoding.decode(InboundSamlConfig.self, from: request, limit: configuration.maxBodyBytes)
            var saml = setting.saml
            if take("enabled", body.enabled) { setting.enabled = body.enabled ?? false }
            if take("displayName", body.displayName) { setting.displayName = body.displayName }
            if take("idpConfig.idpEntityId", body.idpConfig?.idpEntityId) { saml.idpEntityID = body.idpConfig?.idpEntityId }
            if take("idpConfig.ssoUrl", body.idpConfig?.ssoUrl) { saml.ssoURL = body.idpConfig?.ssoUrl }
            if take("idpConfig.signRequest", body.idpConfig?.signRequest) { saml.signsRequests = body.idpConfig?.signRequest }
            if take("idpConfig.idpCertificates", body.idpConfig?.idpCertificates) {
                saml.idpCertificates = body.idpConfig?.idpCertificates?.map { $0.x509Certificate ?? "" }
            }
            if take("spConfig.spEntityId", body.spConfig?.spEntityId) { saml.spEntityID = body.spConfig?.spEntityId }
            if take("spConfig.callbackUri", body.spConfig?.callbackUri) { saml.callbackURI = body.spConfig?.callbackUri }
            setting.saml = saml
        }
    }

    private func respond(_ setting: IdentityProviderSetting, kind: Kind, project: String) -> Response {
        switch kind {
        case .defaultSupported: WireCoding.response(Self.defaultSupportedConfig(setting, project: project))
        case .oauth: WireCoding.response(Self.oauthConfig(setting, project: project))
        case .saml: WireCoding.response(Self.samlConfig(setting, name: resourceName(setting.providerID, kind: .saml, project: project)))
        }
    }

    /// `projects/{p}[/tenants/{t}]/{collection}/{id}`: a tenant's configs are named under it.
    private func resourceName(_ providerID: String, kind: Kind, project: String) -> String {
        "projects/\(project)" + (tenantID.map { "/tenants/\($0)" } ?? "") + "/\(kind.collection)/\(providerID)"
    }

    /// The wire form of a SAML provider, without the SP's private key.
    static func samlConfig(_ setting: IdentityProviderSetting, name: String) -> InboundSamlConfig {
        let saml = setting.saml
        return InboundSamlConfig(
            name: name,
            idpConfig: InboundSamlConfig.IdpConfig(
                idpEntityId: saml.idpEntityID, ssoUrl: saml.ssoURL,
                idpCertificates: saml.idpCertificates?.map { InboundSamlConfig.IdpCertificate(x509Certificate: $0) },
                signRequest: saml.signsRequests),
            spConfig: InboundSamlConfig.SpConfig(
                spEntityId: saml.spEntityID, callbackUri: saml.callbackURI,
                spCertificates: saml.spCertificate.map { [InboundSamlConfig.SpCertificate(x509Certificate: $0, expiresAt: saml.spCertificateExpiry)] }
            ),
            displayName: setting.displayName, enabled: setting.enabled)
    }

    /// The wire form, without secrets.
    static func defaultSupportedConfig(_ setting: IdentityProviderSetting, project: String) -> DefaultSupportedIdpConfig {
        var config = DefaultSupportedIdpConfig(
            name: "projects/\(project)/defaultSupportedIdpConfigs/\(setting.providerID)", enabled: setting.enabled, clientId: setting.clientID,
            whitelistedAudiences: setting.additionalClientIDs)
        // The provider's own sections, without their secrets, as its folder answers them.
        let sections = ProviderCatalogue.adminSectionAnswers(for: setting)
        if !sections.isEmpty, var object = jsonObject(config) {
            object.merge(sections) { _, section in section }
            config = (try? JSONDecoder().decode(DefaultSupportedIdpConfig.self, from: Data(JSONValue.object(object).jsonText.utf8))) ?? config
        }
        return config
    }

    /// A wire value as a JSON object.
    static func jsonObject(_ value: some Encodable) -> [String: JSONValue]? {
        guard let data = try? JSONEncoder().encode(value), case .object(let object)? = try? JSONDecoder().decode(JSONValue.self, from: data) else {
            return nil
        }
        return object
    }

    /// The wire form, with the client secret of the code flow (Identity Platform returns it; the Admin SDKs'
    /// `OIDCAuthProviderConfig.clientSecret` reads it).
    static func oauthConfig(_ setting: IdentityProviderSetting, project: String) -> OAuthIdpConfig {
        let responseType =
            setting.responseTypeIDToken == nil && setting.responseTypeCode == nil
            ? nil : OAuthIdpConfig.ResponseType(idToken: setting.responseTypeIDToken, code: setting.responseTypeCode)
        return OAuthIdpConfig(
            name: "projects/\(project)/oauthIdpConfigs/\(setting.providerID)", clientId: setting.clientID, issuer: setting.issuer,
            displayName: setting.displayName, enabled: setting.enabled, clientSecret: setting.clientSecret, responseType: responseType,
            whitelistedAudiences: setting.additionalClientIDs)
    }

    static func encode(_ setting: IdentityProviderSetting) throws -> String {
        String(decoding: try JSONEncoder().encode(setting), as: UTF8.self)
    }

    static func decode(_ text: String) -> IdentityProviderSetting? {
        try? JSONDecoder().decode(IdentityProviderSetting.self, from: Data(text.utf8))
    }
}
