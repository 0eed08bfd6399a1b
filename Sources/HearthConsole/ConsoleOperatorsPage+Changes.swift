import Foundation
import HearthCore
import Hummingbird

extension ConsoleOperatorsPage {
    /// `POST /console/operators`: adds an operator through ``ConsoleOperators/add(email:role:password:issuer:actorID:)``
    /// and answers with their authenticator secret and recovery codes, shown this once (the answer is never stored:
    /// `Cache-Control: no-store`, and a reload does not post again without the browser asking).
    @Sendable func add(_ request: Request, context: Context, identity: ConsoleIdentity, form: [String: String]) async throws -> Response {
        let email = form["email"] ?? ""
        guard let role = OperatorRecord.Role(rawValue: form["role"] ?? "") else {
            return try await page(identity: identity, notice: .error("Choose a role: viewer, editor or owner."), status: .badRequest, email: email)
        }
        let added: ConsoleOperators.Added
        do {
            added = try await services.operators.add(
                email: email, role: role, password: form["password"] ?? "", issuer: "Hearth console (\(services.projectID))",
                actorID: identity.actorID)
        } catch let error as HearthError {
            let message =
                switch error.code {
                case .invalidEmail: "That is not an e-mail address."
                case .weakPassword: "The password needs at least \(ConsoleOperators.minimumPasswordLength) characters."
                case .emailExists: "There is an operator with that e-mail already."
                default: throw error
                }
            return try await page(identity: identity, notice: .error(message), status: .badRequest, email: email, role: role)
        }
        let codes = added.recoveryCodes.map { "<li><code>\(ConsoleHTML.escape($0))</code></li>" }.joined()
        let body = """
            <h1>Operator added</h1>
            <section class="panel" id="added" aria-labelledby="added-title">
            <h2 id="added-title">\(ConsoleHTML.value(added.record.email)) · \(added.record.role.rawValue)</h2>
            <p><strong>Shown this once.</strong> Give these to the new operator now, by a safe way: they are not kept in a form \
            anyone can read again, and this page is not stored by the browser.</p>
            <dl>
            <dt>Authenticator app</dt><dd><code id="otpauth">\(ConsoleHTML.escape(added.authenticatorURL))</code></dd>
            \(QRCode(Array(added.authenticatorURL.utf8)).map { "<dt>Or scan it</dt><dd id=\"otpauth-qr\">\($0.svg(label: "QR code of the authenticator link"))</dd>" } ?? "")
            <dt>Secret to type in</dt><dd><code id="secret">\(ConsoleHTML.escape(added.sharedSecretKey))</code></dd>
            <dt>Recovery codes</dt><dd><ul id="recovery-codes">\(codes)</ul><span class="hint">each works once instead of a code</span></dd>
            </dl>
            <p>They sign in at <code>/console/sign-in</code> with their e-mail, the password you chose, then their app's code.</p>
            <p><a href="/console/operators">Back to the operators</a></p>
            </section>
            """
        return ConsoleLayout.response(
            ConsoleLayout.page(
                title: "Operator added", projectID: services.projectID, identity: identity, current: "/console/operators",
                notice: .done("The operator was added."), body: body))
    }

    /// `POST /console/operators/role`: another operator's new role (an owner's own role stays, so that the console never
    /// loses its last owner by a slip).
    @Sendable func changeRole(_ request: Request, context: Context, identity: ConsoleIdentity, form: [String: String]) async throws -> Response {
        let email = form["email"] ?? ""
        guard let role = OperatorRecord.Role(rawValue: form["role"] ?? "") else {
            return try await page(identity: identity, notice: .error("Choose a role: viewer, editor or owner."), status: .badRequest)
        }
        guard EmailAddress.normalize(email).map({ "operator:\($0)" }) != identity.actorID else {
            return try await page(identity: identity, notice: .error("You cannot change your own role."), status: .badRequest)
        }
        switch try await services.operators.changeRole(email: email, to: role, actorID: identity.actorID) {
        case .notFound: return try await page(identity: identity, notice: .error("There is no such operator (any more)."), status: .notFound)
        case .unchanged, .changed: return ConsoleLayout.redirect("/console/operators?role=1")
        }
    }
}

/// The operators page's forms.
enum OperatorForms {
    static func roleOptions(_ selected: OperatorRecord.Role) -> String {
        OperatorRecord.Role.allCases.map { "<option value=\"\($0.rawValue)\"\($0 == selected ? " selected" : "")>\($0.rawValue)</option>" }.joined()
    }

    /// A row's role, changeable.
    static func roleForm(_ record: OperatorRecord, identity: ConsoleIdentity) -> String {
        let label = "Role of \(ConsoleHTML.escape(record.email))"
        return """
            <form class="inline" method="post" action="/console/operators/role">\(ConsoleLayout.csrfField(identity))\
            <input type="hidden" name="email" value="\(ConsoleHTML.escape(record.email))">\
            <select name="role" aria-label="\(label)">\(roleOptions(record.role))</select> \
            <button type="submit" class="secondary" aria-label="Change the role of \(ConsoleHTML.escape(record.email))">Change</button></form>
            """
    }

    /// Adding an operator: e-mail, role and a first password.
    static func addForm(identity: ConsoleIdentity, email: String, role: OperatorRecord.Role) -> String {
        """
        <section class="panel" id="add" aria-labelledby="add-title"><h2 id="add-title">Add an operator</h2>
        <form class="stack" method="post" action="/console/operators">\(ConsoleLayout.csrfField(identity))
        <div class="field"><label for="new-email">E-mail</label>
        <input type="email" id="new-email" name="email" autocomplete="off" required value="\(ConsoleHTML.escape(email))"></div>
        <div class="field"><label for="new-role">Role</label><select id="new-role" name="role">\(roleOptions(role))</select></div>
        <div class="field"><label for="new-password">Password <span class="hint">at least \(ConsoleOperators.minimumPasswordLength) \
        characters; give it to them yourself</span></label>
        <input type="password" id="new-password" name="password" autocomplete="new-password" required \
        minlength="\(ConsoleOperators.minimumPasswordLength)"></div>
        <button type="submit">Add</button>
        <p class="hint">Their authenticator secret and recovery codes are shown once, on the next page.</p>
        </form>
        </section>
        """
    }
}
