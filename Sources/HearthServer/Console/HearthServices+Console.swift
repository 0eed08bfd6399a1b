import Foundation
import HearthConfiguration
import HearthConsole
import HearthCore
import HearthMessages
import HearthOTP
import HearthProviders
import HearthStorage
import HearthTokens

extension HearthServices {
    /// The parts the console is given (``ConsoleRoutes``): the administrator's use cases on this server's store, the
    /// operators' sign-in with the password lockout of `abuse.lockout.*`, the status page's report, and the sign-in
    /// settings' use cases of the project and each tenant, those of `scopes` (whose caches their changes keep current).
    func console(scopes: TenantScopes) -> ConsoleServices {
        let (audit, passwords, totp, secrets) = consoleParts
        var console = ConsoleServices(
            accounts: AdministeredAccounts(store: store, passwords: passwords, audit: audit, clock: clock), store: store, hashing: hashing,
            signIn: consoleSignIn,
            operators: ConsoleOperators(store: store, passwords: passwords, totp: totp, secrets: secrets, audit: audit, clock: clock),
            clock: clock, projectID: configuration.projectID, localBrowserIsOwner: configuration.mode == .development,
            statusReport: { await statusReport() }, rotateKeys: { try await keyRing.rotateNow(actorID: $0) },
            signInSettings: ConsoleSignInSettings(
                tenants: scopes.tenantChanges,
                scope: { tenantID in
                    let parts = try await scopes.administered(tenantID)
                    return .init(
                        settings: parts.projectConfig.changes, providers: parts.idpConfigs.changes, accounts: parts.adminAccounts.accounts,
                        store: parts.services.store, emailLink: parts.services.consoleEmailLink)
                },
                callbackURL: { self.browserSignInHandlerURL(authority: nil).absoluteString },
                authorizedDomains: configuration.authorizedContinueHosts.sorted(), development: configuration.mode == .development))
        console.mail = (mailTemplates, configuration.email.appName ?? configuration.projectID)
        return console
    }

    /// An e-mail action's link for `user` of these services' scope, mailed too with `send` (limits and hooks included).
    @Sendable func consoleEmailLink(_ kind: ActionCodeKind, _ user: UserRecord, _ send: Bool, _ origin: AuditOrigin) async throws -> String {
        guard let email = user.email else { throw HearthError(.missingEmail) }
        let actions = EmailActions(services: self)
        if send {
            try actions.requireSending()
            try await actions.countMail(to: email, kind: kind)
            try await actions.askBeforeSending(kind, to: email, origin: origin)
        }
        let issued = try await actions.issue(kind, uid: user.uid, email: email, continueURL: nil, languageCode: nil)
        if send { try await actions.send(kind, to: email, link: issued.link, languageCode: nil) }
        return issued.link
    }

    /// The operators' sign-in and sessions (also what the hourly pruning pass clears of expired sessions).
    var consoleSignIn: ConsoleSignIn {
        let (audit, passwords, totp, secrets) = consoleParts
        return ConsoleSignIn(store: store, passwords: passwords, totp: totp, secrets: secrets, abuse: abuseCounter, audit: audit, clock: clock)
    }

    private var consoleParts: (AuditTrail, ServerPasswords, TOTPCodes, OperatorSecrets) {
        (
            AuditTrail(services: self), ServerPasswords(services: self), TOTPCodes(algorithm: HummingbirdTOTP()),
            OperatorSecrets(sealer: database.sealer)
        )
    }
}
