import Foundation
import HearthConfiguration
import HearthCore
import HearthFormEncoding
import HearthMessages
import HearthTelemetry
import Logging

/// The e-mail actions both `accounts:*` and the action page perform: issuing a code and its link, queueing the
/// mail, and using a code up (password reset, verification, e-mail change, e-mail recovery).
///
/// Codes are 256 random bits, stored only as hashes, single-use (the store deletes a code as it hands it
/// out, so of two parallel uses one wins), expire after `email.linkLifetimeSeconds`, and are bound to the
/// address they were sent for: a code whose account has another address now is refused. A new password voids
/// outstanding reset links; an e-mail change voids every link sent for the old address.
struct EmailActions: AccountMailing {
    let services: HearthServices

    private var configuration: ServerConfiguration { services.configuration }
    private var store: any HearthStore { services.store }

    /// The page links open: `email.actionURL`, else `<server.publicURL>/__/auth/action`.
    var actionURL: String { configuration.email.actionURL ?? services.publicBaseURL + ActionPageController<HearthRequestContext>.path }

    /// The name mails and the page give the app.
    var appName: String { configuration.email.appName ?? configuration.projectID }

    /// Whether mails can leave: a mail server is configured, or development mode keeps them in its outbox.
    var canSend: Bool { services.mailTransport != nil || configuration.mode == .development }

    /// Throws `OPERATION_NOT_ALLOWED` when no mail can leave (production without `email.smtp.url`): a mail
    /// queued then would never arrive.
    func requireSending() throws {
        guard canSend else { throw HearthError(.operationNotAllowed, detail: "Hearth cannot send e-mail: email.smtp.url is not set.") }
    }

    // MARK: Issuing

    /// Makes a code for `kind`, stores its hash, and returns the code and its link.
    func issue(
        _ kind: ActionCodeKind, uid: String?, email: String, newEmail: String? = nil, continueURL: String?, languageCode: String?,
        mfaEnrollmentID: String? = nil
    ) async throws -> (code: String, link: String) {
        let code = ActionCode.make()
        let now = services.clock.now
        let language = languageCode.map(Self.languageTag)
        try await store.insertActionCode(
            ActionCodeRecord(
                codeHash: ActionCode.hash(code), kind: kind, uid: uid, email: email, newEmail: newEmail, continueURL: continueURL,
                languageCode: language, mfaEnrollmentID: mfaEnrollmentID, createdAt: now,
                expiresAt: now.addingTimeInterval(configuration.email.linkLifetime)))
        return (code, link(code: code, kind: kind, continueURL: continueURL, languageCode: language))
    }

    /// The action link: Firebase's query keys (`mode`, `oobCode`, `apiKey`, `tenantId` for a tenant's account,
    /// `continueUrl`, `lang`), which the client SDKs' `ActionCodeURL` parsers read.
    func link(code: String, kind: ActionCodeKind, continueURL: String?, languageCode: String?) -> String {
        var pairs = [("mode", kind.mode), ("oobCode", code), ("apiKey", configuration.apiKeys.first ?? "hearth")]
        if let tenantID = services.tenantID { pairs.append(("tenantId", tenantID)) }
        if let continueURL { pairs.append(("continueUrl", continueURL)) }
        pairs.append(("lang", languageCode ?? "en"))
        return actionURL + "?" + pairs.map { "\($0.0)=\(FormEncoding.percentEncode($0.1))" }.joined(separator: "&")
    }

    /// Asks the operator's `beforeSendEmail` hook, when one is set, before a password-reset or e-mail sign-in mail to
    /// `recipient` is made; its refusal stops the mail (`BLOCKING_FUNCTION_ERROR_RESPONSE`).
    func askBeforeSending(_ kind: ActionCodeKind, to recipient: String, origin: AuditOrigin) async throws {
        let type: String
        switch kind {
        case .passwordReset: type = "PASSWORD_RESET"
        case .emailSignIn: type = "EMAIL_SIGN_IN"
        default: return
        }
        let hooks = BlockingHooks(settings: services.projectSettings, caller: HTTPBlockingHooks(services: services), tenantID: services.tenantID)
        try await hooks.beforeSending(.beforeSendEmail, to: recipient, messageType: type, origin: origin)
    }

    /// Counts one mail to `recipient` against the limits: `RESET_PASSWORD_EXCEED_LIMIT` for too many reset
    /// mails to one address, `TOO_MANY_ATTEMPTS_TRY_LATER` for other mails and for the server-wide limit.
    /// Counted before anything is sent, so parallel requests cannot all slip under a limit.
    func countMail(to recipient: String, kind: ActionCodeKind) async throws {
        let now = services.clock.now
        let perRecipient = configuration.email.perRecipient
        if perRecipient.isEnabled {
            let count = try await store.incrementCounter(perRecipient.counterKey(address: recipient), window: perRecipient.window, now: now)
            if perRecipient.refuses(count: count) {
                throw HearthError(
                    kind == .passwordReset ? .resetPasswordExceedLimit : .tooManyAttempts, reason: "mails per address",
                    retryAfter: perRecipient.secondsUntilWindowEnds(now: now))
            }
        }
        let perMinute = configuration.email.perMinute
        if perMinute.isEnabled {
            let count = try await store.incrementCounter(perMinute.counterKey(address: "server"), window: perMinute.window, now: now)
            if perMinute.refuses(count: count) {
                throw HearthError(.tooManyAttempts, reason: "mails per minute", retryAfter: perMinute.secondsUntilWindowEnds(now: now))
            }
        }
    }

    /// Writes the mail of `kind` and queues it for delivery. Development mode prints the link to the log, as
    /// the Firebase emulator does; production never logs it.
    func send(_ kind: ActionCodeKind, to recipient: String, link: String, newEmail: String? = nil, languageCode: String?) async throws {
        let templates = services.mailTemplates.adding(stored: try await services.store.settings(withPrefix: MailTemplates.settingPrefix))
        let rendered = templates.render(
            kind, languageCode: languageCode, values: MailValues(appName: appName, link: link, email: recipient, newEmail: newEmail))
        let now = services.clock.now
        let mail = OutgoingMail(
            id: OutgoingMail.makeID(), recipient: recipient, subject: rendered.subject, textBody: rendered.text, htmlBody: rendered.html,
            purpose: kind.rawValue, languageCode: rendered.languageCode, createdAt: now)
        try await store.enqueueMail(mail)
        services.metrics.count(.mailsQueued, mail.purpose)
        services.mailSignal.wake()
        if configuration.mode == .development {
            services.logger.notice(
                "Queued a mail (development mode prints its link; see /sandbox/mail)",
                metadata: ["purpose": "\(kind.rawValue)", "to": "\(recipient)", "link": "\(link)"])
        } else {
            services.logger.info("Queued a mail", metadata: ["purpose": "\(kind.rawValue)", "mail": "\(mail.id)"])
        }
    }

    // MARK: Using codes

    /// What using a code does to the account (``ActionCodeRedemption``), with the recovery mails sent from here.
    var redemption: ActionCodeRedemption {
        ActionCodeRedemption(store: store, clock: services.clock, passwords: ServerPasswords(services: services), mail: self)
    }

    /// After an e-mail change: a `RECOVER_EMAIL` link to the old address, which restores it. Not counted
    /// against the mail limits (the change itself was).
    func mailRecoveryLink(uid: String, oldEmail: String, newEmail: String, languageCode: String?) async throws {
        guard canSend else {
            services.logger.notice("No recovery mail for an e-mail change: email.smtp.url is not set", metadata: ["uid": "\(uid)"])
            return
        }
        let issued = try await issue(.recoverEmail, uid: uid, email: oldEmail, newEmail: newEmail, continueURL: nil, languageCode: languageCode)
        try await send(.recoverEmail, to: oldEmail, link: issued.link, newEmail: newEmail, languageCode: languageCode)
    }

    func mailSecondFactorAdded(uid: String, email: String, factor: SecondFactorEnrollment, languageCode: String?) async throws {
        guard canSend else { return }
        let issued = try await issue(
            .revertSecondFactorAddition, uid: uid, email: email, continueURL: nil, languageCode: languageCode, mfaEnrollmentID: factor.id)
        try await send(.revertSecondFactorAddition, to: email, link: issued.link, newEmail: Self.name(of: factor), languageCode: languageCode)
    }

    /// How the mail and the page name a factor: its display name, and a phone factor's number but its last digits hidden.
    static func name(of factor: SecondFactorEnrollment) -> String {
        let kind = factor.phoneNumber.map(SecondFactorEnrollment.masked) ?? "TOTP"
        return factor.displayName.map { "\($0) (\(kind))" } ?? kind
    }

    // MARK: Helpers

    @discardableResult
    /// A client's language as a tag (`hi`, `pt-br`): letters, digits and dashes only, at most 35 characters.
    static func languageTag(_ raw: String) -> String {
        let cleaned = raw.replacingOccurrences(of: "_", with: "-").lowercased()
        guard !cleaned.isEmpty, cleaned.count <= 35,
            cleaned.unicodeScalars.allSatisfy({ $0.isASCII && ($0.properties.isAlphabetic || $0.properties.numericType != nil || $0 == "-") })
        else { return "en" }
        return cleaned
    }
}
