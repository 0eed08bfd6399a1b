import Foundation
import HTTPTypes
import HearthCore
import HearthMessages
import Hummingbird
import NIOCore

/// `/console/templates`: the e-mail actions' mails and phone sign-in's SMS in every language, each previewed as it is
/// sent (sample values filled in), and an owner's own templates for a mail's subject, text and HTML, kept among the
/// stored settings (``MailTemplates/settingPrefix``) and read by the server with every mail it writes.
///
/// A mail's HTML is shown in a sandboxed frame from its own route, whose `Content-Security-Policy: sandbox` gives it
/// an origin of its own and no script, so that whatever a template holds stays inert.
struct ConsoleTemplatesPage<Context: RequestContext & RemoteAddressRequestContext>: Sendable {
    let console: ConsoleRoutes<Context>
    var services: ConsoleServices { console.services }

    /// The mail HTML's policy: a sandbox without scripts, nothing loaded but inline styles and inline images.
    static var previewPolicy: String { "sandbox; default-src 'none'; style-src 'unsafe-inline'; img-src data:; frame-ancestors 'self'" }
    /// The template page's: the console's, and frames from the console itself.
    static var pagePolicy: String {
        ConsoleLayout.contentSecurityPolicy.replacingOccurrences(of: "default-src 'none';", with: "default-src 'none'; frame-src 'self';")
    }
    /// The longest template an owner may store.
    static var maximumTemplateBytes: Int { 32 * 1024 }

    var templates: MailTemplates {
        get throws { try services.mail?.templates ?? MailTemplates(overrideDirectory: nil) }
    }
    var appName: String { services.mail?.appName ?? services.projectID }

    // MARK: Pages

    @Sendable func list(_ request: Request, context: Context, identity: ConsoleIdentity) async throws -> Response {
        let stored = try await services.store.settings(withPrefix: MailTemplates.settingPrefix)
        let templates = try templates
        let languages = EmailActionLanguage.allCases
        var body = """
            <h1>Templates</h1>
            <p class="muted">Each mail as it is sent, with sample values. Yours replace the built-in text; the configuration's \
            template folder (<code>email.templatesDirectory</code>) is used where you have none.</p>
            <h2 id="mails">E-mails</h2>
            <div class="scroll"><table id="mail-templates"><thead><tr><th scope="col">Mail</th>
            """
        body += languages.map { "<th scope=\"col\">\($0.code)</th>" }.joined() + "</tr></thead><tbody>\n"
        for kind in ActionCodeKind.allCases {
            body += "<tr><th scope=\"row\">\(Self.title(kind)) <span class=\"hint\">\(kind.mode)</span></th>"
            for language in languages {
                let own = MailTemplates.partNames.filter { stored[MailTemplates.storedName(kind, languageCode: language.code, part: $0)] != nil }
                let file = MailTemplates.partNames.filter { templates.hasFileOverride(kind, languageCode: language.code, part: $0) }
                let state = !own.isEmpty ? "yours" : !file.isEmpty ? "folder" : "built-in"
                body += """
                    <td><a href="/console/templates/\(kind.mode)/\(language.code)" \
                    aria-label="\(Self.title(kind)), \(language.code): \(state)">\(state)</a></td>
                    """
            }
            body += "</tr>\n"
        }
        body += "</tbody></table></div>\n<h2 id=\"sms\">SMS</h2>\n"
        body += "<p class=\"muted\">Phone sign-in's message, with a sample code (the text is built in).</p>\n<div class=\"sms-texts\">"
        for language in languages {
            let text = SMSText(appName: appName).verification(code: "123456", languageCode: language.code).text
            body += "<section class=\"panel\" aria-labelledby=\"sms-\(language.code)\"><h3 id=\"sms-\(language.code)\">\(language.code)</h3>"
            body += "<pre lang=\"\(language.code)\">\(ConsoleHTML.escape(text))</pre></section>"
        }
        body += "</div>\n"
        return ConsoleLayout.response(
            ConsoleLayout.page(title: "Templates", projectID: services.projectID, identity: identity, current: "/console/templates", body: body))
    }

    @Sendable func mail(_ request: Request, context: Context, identity: ConsoleIdentity) async throws -> Response {
        guard let (kind, language) = Self.parameters(context) else { return notFound(identity) }
        return try await mailPage(kind, language, identity: identity, notice: request.uri.queryParameters.get("saved") != nil ? .done("Saved.") : nil)
    }

    func mailPage(
        _ kind: ActionCodeKind, _ language: EmailActionLanguage, identity: ConsoleIdentity, notice: ConsoleLayout.Notice?,
        drafts: [String: String]? = nil, status: HTTPResponse.Status = .ok
    ) async throws -> Response {
        let stored = try await services.store.settings(withPrefix: MailTemplates.settingPrefix)
        let mail = try rendered(kind, language, stored: stored)
        let path = "/console/templates/\(kind.mode)/\(language.code)"
        var body = """
            <p><a href="/console/templates">Templates</a></p>
            <h1>\(Self.title(kind)) · \(language.code)</h1>
            <section class="panel" id="preview" aria-labelledby="preview-title"><h2 id="preview-title">As sent</h2>
            <dl><dt>Subject</dt><dd id="subject">\(ConsoleHTML.value(mail.subject, limit: 400))</dd>
            <dt>To</dt><dd>\(ConsoleHTML.escape(Self.sample(kind).email))</dd></dl>
            <h3>HTML</h3>
            <iframe class="mail" src="\(path)/html" sandbox title="The mail's HTML part"></iframe>
            <h3>Plain text</h3>
            <pre id="text">\(ConsoleHTML.escape(mail.text))</pre>
            </section>

            """
        if identity.role.permits(.owner) {
            body += """
                <section class="panel" id="edit" aria-labelledby="edit-title"><h2 id="edit-title">Your template</h2>
                <p class="hint">Mustache: <code>{{appName}}</code>, <code>{{link}}</code>, <code>{{email}}</code>, \
                <code>{{newEmail}}</code>, <code>{{lang}}</code>. Values are escaped in the HTML, not in the subject and text. \
                Leave a part empty for the built-in one (or the template folder's).</p>
                <form class="stack wide" method="post" action="\(path)">\(ConsoleLayout.csrfField(identity))

                """
            for part in MailTemplates.partNames {
                let value = drafts?[part] ?? stored[MailTemplates.storedName(kind, languageCode: language.code, part: part)] ?? ""
                let label = ["subject": "Subject", "txt": "Plain text", "html": "HTML"][part] ?? part
                body += """
                    <div class="field"><label for="part-\(part)">\(label)</label>
                    <textarea id="part-\(part)" name="\(part)" spellcheck="false">\(ConsoleHTML.escape(value))</textarea></div>

                    """
            }
            body += "<button type=\"submit\">Save</button>\n</form>\n</section>\n"
        }
        var headers = ConsoleLayout.headers
        headers[.contentSecurityPolicy] = Self.pagePolicy
        let html = ConsoleLayout.page(
            title: "\(Self.title(kind)) (\(language.code))", projectID: services.projectID, identity: identity, current: "/console/templates",
            notice: notice, body: body)
        return Response(status: status, headers: headers, body: ResponseBody(byteBuffer: ByteBuffer(string: html)))
    }

    /// The mail's HTML part alone, for the preview's frame.
    @Sendable func html(_ request: Request, context: Context, identity: ConsoleIdentity) async throws -> Response {
        guard let (kind, language) = Self.parameters(context) else { return notFound(identity) }
        let mail = try rendered(kind, language, stored: try await services.store.settings(withPrefix: MailTemplates.settingPrefix))
        var headers = ConsoleLayout.headers
        headers[.contentSecurityPolicy] = Self.previewPolicy
        headers[HTTPField.Name("X-Frame-Options")!] = "SAMEORIGIN"
        return Response(status: .ok, headers: headers, body: ResponseBody(byteBuffer: ByteBuffer(string: mail.html)))
    }

    // MARK: Saving

    /// An owner's templates for one mail and language: each part checked as the folder's files are, an empty part
    /// removed; one audit event naming the parts.
    @Sendable func save(_ request: Request, context: Context, identity: ConsoleIdentity, form: [String: String]) async throws -> Response {
        guard let (kind, language) = Self.parameters(context) else { return notFound(identity) }
        var drafts: [String: String] = [:]
        for part in MailTemplates.partNames { drafts[part] = (form[part] ?? "").replacingOccurrences(of: "\r\n", with: "\n") }
        for part in MailTemplates.partNames {
            let source = drafts[part] ?? ""
            var problem: String?
            if source.utf8.count > Self.maximumTemplateBytes {
                problem = "it is longer than \(Self.maximumTemplateBytes / 1024) KiB"
            } else if !source.unicodeScalars.allSatisfy({ $0 == "\n" || $0 == "\t" || $0.properties.generalCategory != .control }) {
                problem = "it holds control characters"
            } else if !source.isEmpty {
                do { try MailTemplates.check(source, part: part) } catch let error as MailTemplates.OverrideError { problem = error.problem }
            }
            if let problem {
                return try await mailPage(
                    kind, language, identity: identity, notice: .error("The \(part) template was not saved: \(problem)."), drafts: drafts,
                    status: .badRequest)
            }
        }
        var changed: [String] = []
        let stored = try await services.store.settings(withPrefix: MailTemplates.settingPrefix)
        for part in MailTemplates.partNames {
            let name = MailTemplates.storedName(kind, languageCode: language.code, part: part)
            let value = drafts[part].flatMap { $0.isEmpty ? nil : $0 }
            guard stored[name] != value else { continue }
            try await services.store.setSetting(name, to: value)
            changed.append(part)
        }
        if !changed.isEmpty {
            await services.operators.audit.record(
                AuditEvent(
                    time: services.clock.now, kind: .adminProjectSettingsChanged, actor: .administrator, actorID: identity.actorID,
                    clientAddress: console.clientAddress(request, context),
                    details: ["fields": changed.map { "mailTemplate.\(kind.mode).\(language.code).\($0)" }.joined(separator: ",")]))
        }
        return ConsoleLayout.redirect("/console/templates/\(kind.mode)/\(language.code)?saved=1")
    }

    // MARK: Parts

    func rendered(_ kind: ActionCodeKind, _ language: EmailActionLanguage, stored: [String: String]) throws -> RenderedMail {
        try templates.adding(stored: stored).render(kind, languageCode: language.code, values: Self.sample(kind, appName: appName))
    }

    /// The mail and language a path names; `nil` for anything else.
    static func parameters(_ context: Context) -> (ActionCodeKind, EmailActionLanguage)? {
        guard let mode = context.parameters.get("mode"), let code = context.parameters.get("lang"),
            let kind = ActionCodeKind.allCases.first(where: { $0.mode == mode }),
            let language = EmailActionLanguage.allCases.first(where: { $0.code == code })
        else { return nil }
        return (kind, language)
    }

    /// The values a preview is filled with.
    static func sample(_ kind: ActionCodeKind, appName: String = "") -> MailValues {
        let newEmail: String? = kind == .recoverEmail || kind == .verifyAndChangeEmail ? "ada.new@example.com" : nil
        return MailValues(
            appName: appName, link: "https://example.com/__/auth/action?mode=\(kind.mode)&oobCode=SAMPLE-CODE&apiKey=SAMPLE",
            email: kind == .verifyAndChangeEmail ? "ada.new@example.com" : "ada@example.com", newEmail: newEmail)
    }

    static func title(_ kind: ActionCodeKind) -> String {
        switch kind {
        case .passwordReset: "Password reset"
        case .verifyEmail: "Verify e-mail"
        case .emailSignIn: "E-mail sign-in link"
        case .verifyAndChangeEmail: "Change e-mail"
        case .recoverEmail: "Revert e-mail change"
        case .revertSecondFactorAddition: "Revert second factor"
        }
    }

    func notFound(_ identity: ConsoleIdentity) -> Response {
        ConsoleLayout.response(
            ConsoleLayout.page(
                title: "Not found", projectID: services.projectID, identity: identity, notice: .error("There is no such template."),
                body: "<h1>Not found</h1><p><a href=\"/console/templates\">Back to the templates</a></p>"),
            status: .notFound)
    }
}
