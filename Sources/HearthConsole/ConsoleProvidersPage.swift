import Foundation
import HearthCore
import HearthProviders
import HearthWire
import HearthWireMapping
import Hummingbird

/// `/console/settings/providers[?tenant=…]`: the sign-in methods' providers of the project (or a tenant): each built-in
/// provider on or off with its client id and secret, the OpenID Connect and SAML providers, added and removed. Secrets
/// are write-only: the page says whether one is set, never what it is, and an empty secret field keeps the stored one.
/// Each change becomes the admin API's body (`DefaultSupportedIdpConfig`, `OAuthIdpConfig`, `InboundSamlConfig`) with an
/// `updateMask`, and goes through the same use case and rules as `…IdpConfigs` (``ProviderSettingsChanges``).
struct ConsoleProvidersPage<Context: RequestContext & RemoteAddressRequestContext>: Sendable {
    let console: ConsoleRoutes<Context>
    var services: ConsoleServices { console.services }
    var settings: ConsoleSignInSettings { services.signInSettings }

    static var path: String { "/console/settings/providers" }

    @Sendable func show(_ request: Request, context: Context, identity: ConsoleIdentity) async throws -> Response {
        let parameters = request.uri.queryParameters
        let notice: ConsoleLayout.Notice? =
            if let saved = parameters.get("saved") {
                .done("Saved \(saved).")
            } else if let removed = parameters.get("removed") {
                .done("Removed \(removed).")
            } else {
                nil
            }
        return try await console.inSettingsScope(parameters.get("tenant"), identity) { try await page($0, identity: identity, notice: notice) }
    }

    /// Adds an OpenID Connect (`kind=oidc`) or SAML (`kind=saml`) provider.
    @Sendable func add(_ request: Request, context: Context, identity: ConsoleIdentity, form: [String: String]) async throws -> Response {
        let collection: IdpConfigCollection = form["kind"] == "saml" ? .saml : .oauth
        return try await write(request, context, identity, form) { scope, origin in
            let id = try ConsoleFormInput.line(form, "id", label: "The provider id", limit: 80) ?? ""
            try collection.validateID(id)
            let apply = try Self.change(of: collection, id, form)
            _ = try await scope.useCases.providers.create(id, from: origin) { apply(&$0) }
            return "saved=\(ConsoleHTML.queryValue(id))"
        }
    }

    /// `save` (on, off, the fields) or `delete` one provider.
    @Sendable func change(_ request: Request, context: Context, identity: ConsoleIdentity, form: [String: String]) async throws -> Response {
        let id = context.parameters.get("provider") ?? ""
        let action = context.parameters.get("action") ?? ""
        guard let collection = [IdpConfigCollection.defaultSupported, .oauth, .saml].first(where: { $0.owns(id) }),
            ["save", "delete"].contains(action)
        else {
            return console.notFound(identity, "There is no such provider or action.")
        }
        return try await write(request, context, identity, form) { scope, origin in
            let providers = scope.useCases.providers
            if action == "delete" {
                try await providers.delete(id, from: origin)
                return "removed=\(ConsoleHTML.queryValue(id))"
            }
            let apply = try Self.change(of: collection, id, form)
            // A built-in provider has no setting until it is first saved: the first save makes it.
            if collection == .defaultSupported, try await providers.setting(id) == nil {
                _ = try await providers.create(id, from: origin) { apply(&$0) }
            } else {
                _ = try await providers.update(id, from: origin) { apply(&$0) }
            }
            return "saved=\(ConsoleHTML.queryValue(id))"
        }
    }

    /// Runs `body` in the form's scope and answers with the page again: a redirect with `body`'s query, or the refusal.
    private func write(
        _ request: Request, _ context: Context, _ identity: ConsoleIdentity, _ form: [String: String],
        _ body: (ConsoleSettingsScope, AuditOrigin) async throws -> String
    ) async throws -> Response {
        try await console.inSettingsScope(form["tenant"], identity) { scope in
            let query: String
            do {
                query = try await body(scope, console.origin(request, context, identity))
            } catch let error as ConsoleInputError {
                return try await page(scope, identity: identity, notice: .error(error.message), status: .badRequest)
            } catch let error as HearthError {
                return try await page(scope, identity: identity, notice: .error(ConsoleMessages.settingsText(error)), status: .badRequest)
            }
            return ConsoleLayout.redirect(Self.path + (scope.query.isEmpty ? "?" : scope.query + "&") + query)
        }
    }

    // MARK: Forms as the admin API's bodies

    /// What `collection`'s form for provider `id` sets, as the admin API's body applied with its `updateMask`: every
    /// field shown, and a secret (a client secret, Apple's private key, the IdP's certificate) only when one was typed.
    static func change(of collection: IdpConfigCollection, _ id: String, _ form: [String: String]) throws
        -> @Sendable (inout IdentityProviderSetting) -> Void
    {
        let enabled = ConsoleFormInput.flag(form, "enabled")
        let clientID = try ConsoleFormInput.line(form, "client-id", label: "The client ID")
        let secret = try ConsoleFormInput.line(form, "client-secret", label: "The client secret", limit: 4_096)
        let audiences = try ConsoleFormInput.list(form, "audiences", label: "The other client IDs")
        let client = ["enabled", "clientId", "whitelistedAudiences"] + (secret == nil ? [] : ["clientSecret"])
        switch collection {
        case .defaultSupported:
            var mask = client
            var config = DefaultSupportedIdpConfig(enabled: enabled, clientId: clientID, clientSecret: secret, whitelistedAudiences: audiences)
            switch id {
            case "apple.com":
                let key = try ConsoleFormInput.lines(form, "apple-private-key", label: "The private key", limit: 8_192)
                config.appleSignInConfig = AppleSignInConfig(
                    bundleIds: try ConsoleFormInput.list(form, "apple-bundle-ids", label: "The bundle IDs"),
                    codeFlowConfig: .init(
                        teamId: try ConsoleFormInput.line(form, "apple-team-id", label: "The team ID", limit: 64),
                        keyId: try ConsoleFormInput.line(form, "apple-key-id", label: "The key ID", limit: 64), privateKey: key))
                mask += ["appleSignInConfig.bundleIds", "appleSignInConfig.codeFlowConfig.teamId", "appleSignInConfig.codeFlowConfig.keyId"]
                if key != nil { mask.append("appleSignInConfig.codeFlowConfig.privateKey") }
            case "microsoft.com":
                config.microsoftSignInConfig = MicrosoftSignInConfig(
                    tenant: try ConsoleFormInput.line(form, "microsoft-tenant", label: "The tenant", limit: 256),
                    allowedTenantIds: try ConsoleFormInput.list(form, "microsoft-allowed-tenants", label: "The allowed tenant IDs"))
                mask += ["microsoftSignInConfig.tenant", "microsoftSignInConfig.allowedTenantIds"]
            default: break
            }
            return { [config, mask] in $0.apply(config, mask: mask) }
        case .oauth:
            let mask = client + ["displayName", "issuer"]
            let config = OAuthIdpConfig(
                clientId: clientID, issuer: try ConsoleFormInput.line(form, "issuer", label: "The issuer"),
                displayName: try ConsoleFormInput.line(form, "display-name", label: "The display name", limit: 200), enabled: enabled,
                clientSecret: secret, whitelistedAudiences: audiences)
            return { $0.apply(config, mask: mask) }
        case .saml:
            let certificate = try ConsoleFormInput.lines(form, "idp-certificate", label: "The IdP's certificate")
            let mask =
                [
                    "enabled", "displayName", "idpConfig.idpEntityId", "idpConfig.ssoUrl", "idpConfig.signRequest", "spConfig.spEntityId",
                    "spConfig.callbackUri",
                ]
                + (certificate == nil ? [] : ["idpConfig.idpCertificates"])
            let config = InboundSamlConfig(
                idpConfig: .init(
                    idpEntityId: try ConsoleFormInput.line(form, "idp-entity-id", label: "The IdP entity ID"),
                    ssoUrl: try ConsoleFormInput.line(form, "sso-url", label: "The SSO URL"),
                    idpCertificates: certificate.map { [.init(x509Certificate: $0)] }, signRequest: ConsoleFormInput.flag(form, "sign-request")),
                spConfig: .init(
                    spEntityId: try ConsoleFormInput.line(form, "sp-entity-id", label: "The SP entity ID"),
                    callbackUri: try ConsoleFormInput.line(form, "acs-url", label: "The ACS URL")),
                displayName: try ConsoleFormInput.line(form, "display-name", label: "The display name", limit: 200), enabled: enabled)
            return { $0.apply(config, mask: mask) }
        }
    }

    // MARK: The page

    func page(_ scope: ConsoleSettingsScope, identity: ConsoleIdentity, notice: ConsoleLayout.Notice?, status: HTTPResponse.Status = .ok)
        async throws -> Response
    {
        let providers = scope.useCases.providers
        let stored = Dictionary(try await providers.all().map { ($0.providerID, $0) }) { first, _ in first }
        let owner = identity.role.permits(.owner)
        let rendering = Rendering(identity: identity, scope: scope, owner: owner, callbackURL: settings.callbackURL())
        var body = """
            <h1>Sign-in methods of \(ConsoleHTML.value(scope.name))</h1>
            <p class="muted">The callback URL to register with each provider: <code>\(ConsoleHTML.escape(rendering.callbackURL))</code>. \
            Secrets are never shown again once saved; leave a secret empty to keep the one stored.\(owner ? "" : " Only an owner changes them.")</p>
            <p class="muted">E-mail, phone and anonymous sign-in are on the <a href="\(ConsoleSettingsPage<Context>.path)\(scope.query)">settings page</a>.</p>
            <h2 id="built-in">Built-in providers</h2>

            """
        for description in ProviderCatalogue.all where !description.isFamily {
            body += rendering.builtIn(description, stored[description.id], enabled: providers.verifier.isEnabled(description.id))
        }
        body += "<h2 id=\"oidc\">OpenID Connect providers</h2>\n"
        let oidc = stored.values.filter { IdpConfigCollection.oauth.owns($0.providerID) }.sorted { $0.providerID < $1.providerID }
        if oidc.isEmpty { body += "<p class=\"muted\" id=\"no-oidc\">None yet.</p>\n" }
        for setting in oidc { body += rendering.oidc(setting) }
        if owner { body += rendering.addOIDC() }
        body += "<h2 id=\"saml\">SAML providers</h2>\n"
        let saml = stored.values.filter { IdpConfigCollection.saml.owns($0.providerID) }.sorted { $0.providerID < $1.providerID }
        if saml.isEmpty { body += "<p class=\"muted\" id=\"no-saml\">None yet.</p>\n" }
        for setting in saml { body += rendering.saml(setting) }
        if owner { body += rendering.addSAML() }
        return ConsoleLayout.response(
            ConsoleLayout.page(
                title: "Sign-in methods", projectID: services.projectID, identity: identity, current: Self.path,
                switcher: scope.switcher(path: Self.path), notice: notice, body: body),
            status: status)
    }
}

/// The providers page's parts, in HTML: every value escaped, secrets only as "set" or "not set".
private struct Rendering {
    let identity: ConsoleIdentity
    let scope: ConsoleSettingsScope
    let owner: Bool
    let callbackURL: String

    var path: String { "/console/settings/providers" }

    /// An HTML id for `providerID` (`google.com` → `provider-google-com`).
    func anchor(_ providerID: String) -> String {
        "provider-" + String(providerID.map { $0.isLetter || $0.isNumber ? $0 : "-" })
    }

    func state(_ enabled: Bool) -> String {
        enabled ? "<span class=\"badge good\">on</span>" : "<span class=\"badge\">off</span>"
    }

    func secret(_ value: String?) -> String {
        value?.isEmpty == false ? "<span class=\"secret-state\">set</span>" : "<span class=\"secret-state muted\">not set</span>"
    }

    func form(_ action: String, _ fields: String, button: String, danger: Bool = false) -> String {
        """
        <form class="stack" method="post" action="\(action)">\(ConsoleLayout.csrfField(identity))\(scope.field)
        \(fields)<button type="submit"\(danger ? " class=\"danger\"" : "")>\(button)</button></form>
        """
    }

    func field(_ prefix: String, _ name: String, _ label: String, _ value: String?, type: String = "text", hint: String? = nil) -> String {
        let id = "\(prefix)-\(name)"
        return """
            <div class="field"><label for="\(id)">\(label)\(hint.map { " <span class=\"hint\">\($0)</span>" } ?? "")</label>\
            <input type="\(type)" id="\(id)" name="\(name)" value="\(ConsoleHTML.escape(value ?? ""))"\(type == "password" ? " autocomplete=\"off\"" : "")></div>

            """
    }

    func checkbox(_ prefix: String, _ name: String, _ label: String, _ on: Bool) -> String {
        """
        <div class="check"><input type="checkbox" id="\(prefix)-\(name)" name="\(name)"\(on ? " checked" : "")>\
        <label for="\(prefix)-\(name)">\(label)</label></div>

        """
    }

    func secretField(_ prefix: String) -> String {
        field(prefix, "client-secret", "Client secret", nil, type: "password", hint: "empty: keep the one stored")
    }

    func builtIn(_ description: ProviderDescription, _ setting: IdentityProviderSetting?, enabled: Bool) -> String {
        let prefix = anchor(description.id)
        let source =
            setting != nil
            ? ""
            : scope.tenantID == nil ? " <span class=\"hint\">as the configuration file sets it</span>" : " <span class=\"hint\">not set up</span>"
        var html = """
            <section class="panel provider" id="\(prefix)" aria-labelledby="\(prefix)-title">
            <h3 id="\(prefix)-title">\(ConsoleHTML.escape(description.name)) <code>\(ConsoleHTML.escape(description.id))</code> \(state(enabled))\(source)</h3>
            <dl><dt>Client ID</dt><dd>\(ConsoleHTML.value(setting?.clientID))</dd><dt>Client secret</dt><dd>\(secret(setting?.clientSecret))</dd></dl>

            """
        html += own(description.id, setting)
        if owner {
            let fields =
                checkbox(prefix, "enabled", "On", enabled) + field(prefix, "client-id", "Client ID", setting?.clientID) + secretField(prefix)
                + audiencesField(prefix, setting?.additionalClientIDs) + ownFields(description.id, prefix, setting)
            html += "<details><summary>Change \(ConsoleHTML.escape(description.name))</summary>\n"
            html += form("\(path)/\(description.id)/save", fields, button: "Save \(ConsoleHTML.escape(description.name))")
            html += "</details>\n"
        }
        return html + "</section>\n"
    }

    /// The other client IDs, and what only Apple and Microsoft have (Apple's private key as "set" or "not set").
    func own(_ id: String, _ setting: IdentityProviderSetting?) -> String {
        var rows = [("Other client IDs", list(setting?.additionalClientIDs))]
        switch id {
        case "apple.com":
            rows += [
                ("Bundle IDs", list(setting?.appleBundleIDs)), ("Team ID", ConsoleHTML.value(setting?.appleTeamID)),
                ("Key ID", ConsoleHTML.value(setting?.appleKeyID)), ("Private key", secret(setting?.applePrivateKey)),
            ]
        case "microsoft.com":
            rows += [("Tenant", ConsoleHTML.value(setting?.microsoftTenant)), ("Allowed tenant IDs", list(setting?.microsoftAllowedTenantIDs))]
        default: break
        }
        return "<dl class=\"own\">" + rows.map { "<dt>\($0.0)</dt><dd>\($0.1)</dd>" }.joined() + "</dl>\n"
    }

    func list(_ values: [String]?) -> String {
        guard let values, !values.isEmpty else { return ConsoleHTML.value(nil) }
        return values.map { ConsoleHTML.value($0, limit: 120) }.joined(separator: ", ")
    }

    func ownFields(_ id: String, _ prefix: String, _ setting: IdentityProviderSetting?) -> String {
        switch id {
        case "apple.com":
            return listField(
                prefix, "apple-bundle-ids", "Bundle IDs", setting?.appleBundleIDs, hint: "the apps whose ID tokens are taken, one a line")
                + field(prefix, "apple-team-id", "Team ID", setting?.appleTeamID) + field(prefix, "apple-key-id", "Key ID", setting?.appleKeyID)
                    + """
                    <div class="field"><label for="\(prefix)-apple-private-key">Private key (.p8, PEM) <span class="hint">empty: keep the one \
                    stored</span></label><textarea id="\(prefix)-apple-private-key" name="apple-private-key" rows="4" autocomplete="off" \
                    spellcheck="false"></textarea></div>

                    """
        case "microsoft.com":
            return field(
                prefix, "microsoft-tenant", "Tenant", setting?.microsoftTenant,
                hint: "common, organizations, consumers, a tenant ID or a verified domain; empty: the configuration's")
                + listField(prefix, "microsoft-allowed-tenants", "Allowed tenant IDs", setting?.microsoftAllowedTenantIDs, hint: "one a line")
        default: return ""
        }
    }

    func audiencesField(_ prefix: String, _ values: [String]?) -> String {
        listField(prefix, "audiences", "Other client IDs", values, hint: "audiences also taken, such as an app's own client ID; one a line")
    }

    func listField(_ prefix: String, _ name: String, _ label: String, _ values: [String]?, hint: String) -> String {
        """
        <div class="field"><label for="\(prefix)-\(name)">\(label) <span class="hint">\(hint)</span></label>\
        <textarea id="\(prefix)-\(name)" name="\(name)" rows="2">\(ConsoleHTML.escape((values ?? []).joined(separator: "\n")))</textarea></div>

        """
    }

    func removal(_ setting: IdentityProviderSetting) -> String {
        form("\(path)/\(setting.providerID)/delete", "", button: "Remove \(ConsoleHTML.escape(setting.providerID))", danger: true)
    }

    func oidc(_ setting: IdentityProviderSetting) -> String {
        let prefix = anchor(setting.providerID)
        var html = """
            <section class="panel provider" id="\(prefix)" aria-labelledby="\(prefix)-title">
            <h3 id="\(prefix)-title">\(ConsoleHTML.value(setting.displayName ?? setting.providerID)) <code>\(ConsoleHTML.escape(setting.providerID))</code> \
            \(state(setting.enabled))</h3>
            <dl><dt>Issuer</dt><dd>\(ConsoleHTML.value(setting.issuer))</dd><dt>Client ID</dt><dd>\(ConsoleHTML.value(setting.clientID))</dd>\
            <dt>Client secret</dt><dd>\(secret(setting.clientSecret))</dd><dt>Other client IDs</dt><dd>\(list(setting.additionalClientIDs))</dd></dl>

            """
        if owner {
            let fields =
                checkbox(prefix, "enabled", "On", setting.enabled) + field(prefix, "display-name", "Display name", setting.displayName)
                + field(prefix, "issuer", "Issuer", setting.issuer) + field(prefix, "client-id", "Client ID", setting.clientID) + secretField(prefix)
                + audiencesField(prefix, setting.additionalClientIDs)
            html += "<details><summary>Change</summary>\n\(form("\(path)/\(setting.providerID)/save", fields, button: "Save"))</details>\n"
            html += removal(setting)
        }
        return html + "</section>\n"
    }

    func addOIDC() -> String {
        let fields =
            "<input type=\"hidden\" name=\"kind\" value=\"oidc\">"
            + field("new-oidc", "id", "Provider id", "oidc.", hint: "oidc. and a name: lower-case letters, digits, '.', '_', '-'")
            + checkbox("new-oidc", "enabled", "On", true) + field("new-oidc", "display-name", "Display name", nil)
            + field("new-oidc", "issuer", "Issuer", nil, hint: "https URL of its discovery document's issuer")
            + field("new-oidc", "client-id", "Client ID", nil) + secretField("new-oidc")
        return
            "<details class=\"panel\" id=\"add-oidc\"><summary>Add an OpenID Connect provider</summary>\n\(form(path, fields, button: "Add"))</details>\n"
    }

    func saml(_ setting: IdentityProviderSetting) -> String {
        let prefix = anchor(setting.providerID)
        let saml = setting.saml
        let acs = saml.callbackURI.flatMap { $0.isEmpty ? nil : $0 } ?? callbackURL
        var html = """
            <section class="panel provider" id="\(prefix)" aria-labelledby="\(prefix)-title">
            <h3 id="\(prefix)-title">\(ConsoleHTML.value(setting.displayName ?? setting.providerID)) <code>\(ConsoleHTML.escape(setting.providerID))</code> \
            \(state(setting.enabled))</h3>
            <dl><dt>IdP entity ID</dt><dd>\(ConsoleHTML.value(saml.idpEntityID))</dd><dt>SSO URL</dt><dd>\(ConsoleHTML.value(saml.ssoURL))</dd>\
            <dt>IdP certificates</dt><dd>\(saml.idpCertificates?.count ?? 0)</dd><dt>Signs requests</dt><dd>\(saml.signsRequests == true ? "yes" : "no")</dd></dl>
            <h4>For the IdP</h4>
            <dl><dt>SP entity ID</dt><dd>\(ConsoleHTML.value(saml.spEntityID))</dd><dt>ACS URL</dt><dd><code>\(ConsoleHTML.escape(acs))</code></dd></dl>
            \(saml.spCertificate.map { "<p>SP certificate (checks the signed AuthnRequests):</p><pre class=\"sp-certificate\">\(ConsoleHTML.escape($0))</pre>" } ?? "")

            """
        if owner {
            let fields =
                checkbox(prefix, "enabled", "On", setting.enabled) + field(prefix, "display-name", "Display name", setting.displayName)
                + field(prefix, "idp-entity-id", "IdP entity ID", saml.idpEntityID) + field(prefix, "sso-url", "SSO URL", saml.ssoURL)
                + certificateField(prefix, keep: true) + checkbox(prefix, "sign-request", "Sign AuthnRequests", saml.signsRequests == true)
                + field(prefix, "sp-entity-id", "SP entity ID", saml.spEntityID)
                + field(prefix, "acs-url", "ACS URL", saml.callbackURI, hint: "empty: \(ConsoleHTML.escape(callbackURL))")
            html += "<details><summary>Change</summary>\n\(form("\(path)/\(setting.providerID)/save", fields, button: "Save"))</details>\n"
            html += removal(setting)
        }
        return html + "</section>\n"
    }

    func certificateField(_ prefix: String, keep: Bool) -> String {
        """
        <div class="field"><label for="\(prefix)-idp-certificate">IdP certificate (PEM)\
        \(keep ? " <span class=\"hint\">empty: keep the certificates stored</span>" : "")</label>\
        <textarea id="\(prefix)-idp-certificate" name="idp-certificate" rows="4"></textarea></div>

        """
    }

    func addSAML() -> String {
        let fields =
            "<input type=\"hidden\" name=\"kind\" value=\"saml\">"
            + field("new-saml", "id", "Provider id", "saml.", hint: "saml. and a name: lower-case letters, digits, '.', '_', '-'")
            + checkbox("new-saml", "enabled", "On", true) + field("new-saml", "display-name", "Display name", nil)
            + field("new-saml", "idp-entity-id", "IdP entity ID", nil) + field("new-saml", "sso-url", "SSO URL", nil)
            + certificateField("new-saml", keep: false) + checkbox("new-saml", "sign-request", "Sign AuthnRequests", false)
            + field("new-saml", "sp-entity-id", "SP entity ID", nil, hint: "the Audience the IdP's assertions name")
            + field("new-saml", "acs-url", "ACS URL", nil, hint: "empty: \(ConsoleHTML.escape(callbackURL))")
        return "<details class=\"panel\" id=\"add-saml\"><summary>Add a SAML provider</summary>\n\(form(path, fields, button: "Add"))</details>\n"
    }
}
