import Foundation
import HearthCore
import HearthWire
import HearthWireMapping
import Hummingbird

/// `/console/settings[?tenant=…]`: the project's (or a tenant's) sign-in settings, one form per section (which sign-ins
/// are on; accounts; phone; second factors; blocking hooks), and the authorized domains and callback URL to give
/// providers. Each section is saved by an owner (`POST /console/settings/{section}`): the form becomes the admin API's
/// body (`ProjectConfig` for the project, `TenantResource` for a tenant) with the section's `updateMask` paths, and
/// goes through the same use case and rules as `PATCH …/config` or `PATCH …/tenants/{t}`.
struct ConsoleSettingsPage<Context: RequestContext & RemoteAddressRequestContext>: Sendable {
    let console: ConsoleRoutes<Context>
    var services: ConsoleServices { console.services }
    var settings: ConsoleSignInSettings { services.signInSettings }

    static var path: String { "/console/settings" }

    @Sendable func show(_ request: Request, context: Context, identity: ConsoleIdentity) async throws -> Response {
        let parameters = request.uri.queryParameters
        let notice: ConsoleLayout.Notice? =
            if parameters.get("created") == "tenant" {
                .done("The tenant was created.")
            } else if parameters.get("deleted") == "tenant" {
                .done("The tenant and its users were deleted.")
            } else {
                parameters.get("saved") != nil ? .done("Saved.") : nil
            }
        return try await console.inSettingsScope(parameters.get("tenant"), identity) { scope in
            try await page(scope, identity: identity, notice: notice)
        }
    }

    @Sendable func change(_ request: Request, context: Context, identity: ConsoleIdentity, form: [String: String]) async throws -> Response {
        let section = context.parameters.get("section") ?? ""
        return try await console.inSettingsScope(form["tenant"], identity) { scope in
            let origin = console.origin(request, context, identity)
            do {
                let current = try await scope.useCases.settings.settings.projectSettings()
                if let tenantID = scope.tenantID {
                    guard let change = try Self.tenantChange(section, form, current) else { return console.notFound(identity, Self.noSection) }
                    let (body, paths) = change
                    try await settings.tenants.update(id: tenantID, fields: paths, from: origin) { try $0.apply(body, paths: paths) }
                } else {
                    guard let change = try Self.projectChange(section, form, current) else { return console.notFound(identity, Self.noSection) }
                    let (body, paths) = change
                    let development = settings.development
                    try await scope.useCases.settings.change(fields: paths, from: origin) {
                        try $0.apply(body, paths: paths, development: development)
                    }
                }
            } catch let error as ConsoleInputError {
                return try await page(scope, identity: identity, notice: .error(error.message), status: .badRequest)
            } catch let error as HearthError {
                return try await page(scope, identity: identity, notice: .error(ConsoleMessages.settingsText(error)), status: .badRequest)
            }
            return ConsoleLayout.redirect(Self.path + (scope.query.isEmpty ? "?" : scope.query + "&") + "saved=\(section)#\(section)")
        }
    }

    static var noSection: String { "There is no such section of the settings." }

    // MARK: The page

    /// The page of `scope`; `typedName`: a refused new tenant's name, shown again in its field.
    func page(
        _ scope: ConsoleSettingsScope, identity: ConsoleIdentity, notice: ConsoleLayout.Notice?, status: HTTPResponse.Status = .ok,
        typedName: String = ""
    ) async throws -> Response {
        let current = try await scope.useCases.settings.settings.projectSettings()
        let owner = identity.role.permits(.owner)
        let tenant = scope.tenantID != nil
        var body = "<h1>Settings of \(ConsoleHTML.value(scope.name))</h1>\n"
        if !owner { body += "<p class=\"muted\" id=\"read-only\">Only an owner changes the settings; you see them as they are.</p>\n" }
        if let tenant = scope.tenant { body += ConsoleTenants<Context>.tenant(tenant, identity: identity) }
        func section(_ name: String, _ title: String, _ fields: String) -> String {
            """
            <section class="panel" id="\(name)" aria-labelledby="\(name)-title"><h2 id="\(name)-title">\(title)</h2>
            <form class="stack" method="post" action="\(Self.path)/\(name)">\(ConsoleLayout.csrfField(identity))\(scope.field)
            <fieldset\(owner ? "" : " disabled")><legend class="visually-hidden">\(title)</legend>
            \(fields)
            </fieldset>\(owner ? "<button type=\"submit\">Save \(title.lowercased())</button>" : "")
            </form></section>

            """
        }
        var methods =
            Self.checkbox("password", "E-mail and password", current.passwordEnabled)
            + Self.checkbox("email-link", "E-mail link (passwordless)", current.emailLinkEnabled)
            + Self.checkbox("anonymous", "Anonymous", current.anonymousEnabled, hint: "off: signUp without credentials answers ADMIN_ONLY_OPERATION")
        methods +=
            tenant
            ? Self.checkbox(
                "disabled", "Sign-ins off for this tenant", scope.tenant?.disabled ?? false,
                hint: "disableAuth: administrators still manage its users")
            : Self.checkbox("phone", "Phone", current.phoneEnabled)
        body += section("methods", "Sign-in methods", methods)
        var accounts = Self.checkbox(
            "enumeration", "E-mail enumeration protection", current.emailEnumerationProtection,
            hint: "answers do not tell whether an address has an account")
        if !tenant {
            accounts += Self.checkbox("one-account", "One account per e-mail address", current.oneAccountPerEmail)
            accounts += Self.checkbox("cleanup", "Delete anonymous users after 30 days", current.anonymousCleanupEnabled)
        }
        body += section("accounts", "Accounts", accounts)
        let numbers = current.testPhoneNumbers.sorted { $0.key < $1.key }.map { "\($0.key) \($0.value)" }.joined(separator: "\n")
        let (allowlist, regions): (Bool, Set<String>) =
            switch current.smsRegionPolicy {
            case .allowByDefault(let denied): (false, denied)
            case .allowlistOnly(let allowed): (true, allowed)
            }
        body += section(
            "phone", "Phone",
            """
            <div class="field"><label for="test-numbers">Test phone numbers <span class="hint">one a line: the number (E.164) and its \
            6-digit code, at most \(ProjectSettings.maxTestPhoneNumbers); no SMS is sent to them</span></label>
            <textarea id="test-numbers" name="test-numbers" rows="4">\(ConsoleHTML.escape(numbers))</textarea></div>
            <div class="field"><span class="label">SMS regions</span>
            <div class="check"><input type="radio" id="regions-deny" name="regions-mode" value="deny"\(allowlist ? "" : " checked")>\
            <label for="regions-deny">Every region but those listed</label></div>
            <div class="check"><input type="radio" id="regions-allow" name="regions-mode" value="allow"\(allowlist ? " checked" : "")>\
            <label for="regions-allow">Only the regions listed</label></div>
            <label for="regions">Regions <span class="hint">ISO 3166 codes such as US, GB, separated by commas</span></label>
            <input type="text" id="regions" name="regions" value="\(ConsoleHTML.escape(regions.sorted().joined(separator: ", ")))"></div>
            """)
        let mfa = current.multiFactor
        let states = MultiFactorSettings.State.allCases.map {
            "<option value=\"\($0.rawValue)\"\($0 == mfa.state ? " selected" : "")>\($0.rawValue.lowercased().capitalized)</option>"
        }
        body += section(
            "mfa", "Second factors",
            """
            <div class="field"><label for="mfa-state">State</label><select id="mfa-state" name="mfa-state">\(states.joined())</select></div>
            \(Self.checkbox("mfa-sms", "SMS codes", mfa.phoneEnabled))\(Self.checkbox("mfa-totp", "Authenticator apps (TOTP)", mfa.totpEnabled))\
            \(Self.checkbox("mfa-recovery", "Recovery codes", mfa.recoveryCodesEnabled))
            <div class="field"><label for="mfa-intervals">TOTP adjacent intervals <span class="hint">periods of 30 s before and after \
            the current one whose codes are also taken, 0 to \(MultiFactorSettings.maxAdjacentIntervals)</span></label>
            <input type="text" inputmode="numeric" id="mfa-intervals" name="mfa-intervals" value="\(mfa.totpAdjacentIntervals)"></div>
            """)
        if !tenant {
            let hooks = current.blockingHooks
            body += section(
                "hooks", "Blocking hooks",
                """
                <p class="hint">HTTPS URLs Hearth asks before an account is made, before a sign-in's tokens, before it sends a \
                mail and before it sends an SMS (empty: none). The forwarded credentials stay as the admin API set them.</p>
                \(Self.textField("hook-before-create", "beforeCreate", hooks.beforeCreate))\(Self.textField("hook-before-sign-in", "beforeSignIn", hooks.beforeSignIn))\
                \(Self.textField("hook-before-send-email", "beforeSendEmail", hooks.beforeSendEmail))\(Self.textField("hook-before-send-sms", "beforeSendSms", hooks.beforeSendSMS))
                """)
        }
        body += """
            <section class="panel" id="domains" aria-labelledby="domains-title"><h2 id="domains-title">Authorized domains and callback URL</h2>
            <p>Give providers this callback (redirect) URL, and a SAML IdP this ACS URL:</p><p><code id="callback-url">\(ConsoleHTML.escape(settings.callbackURL()))</code></p>
            <p>Continue and return URLs may point at these hosts (<code>email.authorizedDomains</code>, \
            <code>browserSignIn.returnURLs</code> and the server's own URLs in the configuration):</p>
            <ul id="authorized-domains">\(settings.authorizedDomains.map { "<li><code>\(ConsoleHTML.escape($0))</code></li>" }.joined())</ul>
            </section>
            """
        if !tenant { body += ConsoleTenants<Context>.list(scope, identity: identity, typedName: typedName) }
        return ConsoleLayout.response(
            ConsoleLayout.page(
                title: "Settings", projectID: services.projectID, identity: identity, current: Self.path, switcher: scope.switcher(path: Self.path),
                notice: notice, body: body),
            status: status)
    }

    static func checkbox(_ name: String, _ label: String, _ on: Bool, hint: String? = nil) -> String {
        """
        <div class="check"><input type="checkbox" id="\(name)" name="\(name)"\(on ? " checked" : "")>\
        <label for="\(name)">\(label)\(hint.map { " <span class=\"hint\">\($0)</span>" } ?? "")</label></div>

        """
    }

    static func textField(_ name: String, _ label: String, _ value: String?, type: String = "text") -> String {
        """
        <div class="field"><label for="\(name)">\(label)</label>\
        <input type="\(type)" id="\(name)" name="\(name)" value="\(ConsoleHTML.escape(value ?? ""))"></div>

        """
    }

    // MARK: Forms as the admin API's bodies

    /// The project config body and `updateMask` paths of `section`'s form; `nil` for no such section.
    static func projectChange(_ section: String, _ form: [String: String], _ current: ProjectSettings) throws -> (ProjectConfig, [String])? {
        let flag = { ConsoleFormInput.flag(form, $0) }
        switch section {
        case "methods":
            let signIn = SignInConfig(
                anonymous: EnabledConfig(enabled: flag("anonymous")),
                email: EmailSignInConfig(enabled: flag("password"), passwordRequired: !flag("email-link")),
                phoneNumber: PhoneNumberSignInConfig(enabled: flag("phone")))
            return (
                ProjectConfig(signIn: signIn),
                ["signIn.email.enabled", "signIn.email.passwordRequired", "signIn.anonymous.enabled", "signIn.phoneNumber.enabled"]
            )
        case "accounts":
            return (
                ProjectConfig(
                    signIn: SignInConfig(allowDuplicateEmails: !flag("one-account")),
                    emailPrivacyConfig: EmailPrivacyConfig(enableImprovedEmailPrivacy: flag("enumeration")), autodeleteAnonymousUsers: flag("cleanup")
                ),
                ["emailPrivacyConfig.enableImprovedEmailPrivacy", "signIn.allowDuplicateEmails", "autodeleteAnonymousUsers"]
            )
        case "phone":
            return (
                ProjectConfig(
                    signIn: SignInConfig(phoneNumber: PhoneNumberSignInConfig(testPhoneNumbers: try testPhoneNumbers(form))),
                    smsRegionConfig: try regions(form)),
                ["signIn.phoneNumber.testPhoneNumbers", "smsRegionConfig"]
            )
        case "mfa": return (ProjectConfig(mfa: try multiFactor(form)), ["mfa"])
        case "hooks": return (ProjectConfig(blockingFunctions: try hooks(form, current.blockingHooks)), ["blockingFunctions"])
        default: return nil
        }
    }

    /// The tenant body and `updateMask` paths of `section`'s form; `nil` for no such section.
    static func tenantChange(_ section: String, _ form: [String: String], _ current: ProjectSettings) throws -> (TenantResource, [String])? {
        let flag = { ConsoleFormInput.flag(form, $0) }
        switch section {
        case "methods":
            return (
                TenantResource(
                    allowPasswordSignup: flag("password"), enableEmailLinkSignin: flag("email-link"), enableAnonymousUser: flag("anonymous"),
                    disableAuth: flag("disabled")),
                ["allowPasswordSignup", "enableEmailLinkSignin", "enableAnonymousUser", "disableAuth"]
            )
        case "accounts":
            return (
                TenantResource(emailPrivacyConfig: EmailPrivacyConfig(enableImprovedEmailPrivacy: flag("enumeration"))),
                ["emailPrivacyConfig.enableImprovedEmailPrivacy"]
            )
        case "phone":
            return (
                TenantResource(testPhoneNumbers: try testPhoneNumbers(form), smsRegionConfig: try regions(form)),
                ["testPhoneNumbers", "smsRegionConfig"]
            )
        case "mfa": return (TenantResource(mfaConfig: try multiFactor(form)), ["mfaConfig"])
        default: return nil
        }
    }

    /// One number and its code a line; the numbers and codes themselves are checked by the settings' rules.
    static func testPhoneNumbers(_ form: [String: String]) throws -> [String: String] {
        var numbers: [String: String] = [:]
        for line in (try ConsoleFormInput.lines(form, "test-numbers", label: "Test phone numbers", limit: 2_000) ?? "").split(
            whereSeparator: \.isNewline)
        {
            let parts = line.split(whereSeparator: { $0 == " " || $0 == "\t" || $0 == "," || $0 == ":" })
            guard !parts.isEmpty else { continue }
            guard parts.count == 2 else {
                throw ConsoleInputError(message: "Each line of the test phone numbers is a number and its code, e.g. +16505551234 123456.")
            }
            numbers[String(parts[0])] = String(parts[1])
        }
        return numbers
    }

    static func regions(_ form: [String: String]) throws -> SmsRegionConfig {
        let text = try ConsoleFormInput.line(form, "regions", label: "Regions", limit: 1_500) ?? ""
        let codes = text.split(whereSeparator: { $0 == "," || $0 == " " }).map(String.init)
        return form["regions-mode"] == "allow"
            ? SmsRegionConfig(allowlistOnly: .init(allowedRegions: codes)) : SmsRegionConfig(allowByDefault: .init(disallowedRegions: codes))
    }

    static func multiFactor(_ form: [String: String]) throws -> MultiFactorAuthConfig {
        let intervals = try ConsoleFormInput.line(form, "mfa-intervals", label: "TOTP adjacent intervals", limit: 10) ?? ""
        // Not a number is out of range too: the rule's own message says what is allowed.
        let adjacent = Int(intervals) ?? -1
        return MultiFactorAuthConfig(
            state: form["mfa-state"] ?? "", enabledProviders: ConsoleFormInput.flag(form, "mfa-sms") ? ["PHONE_SMS"] : [],
            providerConfigs: [
                .init(state: ConsoleFormInput.flag(form, "mfa-totp") ? "ENABLED" : "DISABLED", totpProviderConfig: .init(adjacentIntervals: adjacent))
            ],
            hearthRecoveryCodesEnabled: ConsoleFormInput.flag(form, "mfa-recovery"))
    }

    /// The hooks as they are (the forwarded credentials), with the four triggers the page shows replaced by the form's.
    static func hooks(_ form: [String: String], _ current: BlockingHookSettings) throws -> BlockingFunctionsConfig {
        var config = BlockingFunctionsConfig(current)
        var triggers = config.triggers ?? [:]
        for (name, field) in [
            ("beforeCreate", "hook-before-create"), ("beforeSignIn", "hook-before-sign-in"), ("beforeSendEmail", "hook-before-send-email"),
            ("beforeSendSms", "hook-before-send-sms"),
        ] {
            triggers[name] = try ConsoleFormInput.line(form, field, label: name).map { BlockingFunctionsConfig.Trigger(functionUri: $0) }
        }
        config.triggers = triggers.isEmpty ? nil : triggers
        return config
    }
}
