import Foundation

/// `accounts:update` by the person signed in (an administrator's update is the admin API's): a new e-mail, password,
/// display name or photo, attributes deleted, providers unlinked, passkeys removed. A change of credentials ends the other sessions
/// and starts a new one; a new e-mail voids the links sent to the old address, which is mailed a recovery link.
public struct OwnAccountUpdate: Sendable {
    public typealias Store = AccountStore & ActionCodeStore & PasskeyStore

    public let settings: any ProjectSettingsReading
    public let store: any Store
    public let passwords: any PasswordChecking
    public let idTokens: any IDTokenAuthenticating
    public let tokens: any IDTokenMinting
    public let audit: any AuditRecording
    public let mail: any AccountMailing
    public let clock: WallClock
    public let recentLoginWindow: TimeInterval

    public init(
        settings: any ProjectSettingsReading, store: any Store, passwords: any PasswordChecking, idTokens: any IDTokenAuthenticating,
        tokens: any IDTokenMinting, audit: any AuditRecording, mail: any AccountMailing, clock: WallClock, recentLoginWindow: TimeInterval
    ) {
        self.settings = settings
        self.store = store
        self.passwords = passwords
        self.idTokens = idTokens
        self.tokens = tokens
        self.audit = audit
        self.mail = mail
        self.clock = clock
        self.recentLoginWindow = recentLoginWindow
    }

    /// What the person asks for (the wire request's fields, unchecked).
    public struct Input: Sendable {
        public var email: String?
        public var password: String?
        public var displayName: String?
        public var photoURL: String?
        /// `DISPLAY_NAME`, `PHOTO_URL`, `EMAIL`, `PASSWORD`; other names are ignored, as Firebase ignores them.
        public var deletedAttributes: [String]
        public var deletedProviders: [String]
        /// The credential ids of passkeys to remove (`deletePasskey`).
        public var deletedPasskeys: [String] = []
        /// Whether the request sets what only an administrator may: custom claims, a phone number, the e-mail's
        /// verification, a linked identity, the creation or last sign-in time (`INSUFFICIENT_PERMISSION`).
        public var setsAdministratorFields: Bool
        /// Whether it disables or enables the account (`OPERATION_NOT_ALLOWED`).
        public var setsDisabled: Bool
        /// The `X-Firebase-Locale` of the request: the language of the recovery mail.
        public var languageCode: String?

        public init(
            email: String? = nil, password: String? = nil, displayName: String? = nil, photoURL: String? = nil, deletedAttributes: [String] = [],
            deletedProviders: [String] = [], setsAdministratorFields: Bool = false, setsDisabled: Bool = false, languageCode: String? = nil
        ) {
            self.email = email
            self.password = password
            self.displayName = displayName
            self.photoURL = photoURL
            self.deletedAttributes = deletedAttributes
            self.deletedProviders = deletedProviders
            self.setsAdministratorFields = setsAdministratorFields
            self.setsDisabled = setsDisabled
            self.languageCode = languageCode
        }
    }

    /// The account as written, and the new session when the credentials changed.
    public struct Updated: Sendable {
        public var user: UserRecord
        public var session: (idToken: String, refreshToken: String, expiresIn: Int)?
    }

    /// The update the request asks for. Throws `INVALID_EMAIL`, `WEAK_PASSWORD`, `INVALID_DISPLAY_NAME`,
    /// `INVALID_PHOTO_URL`; unknown attribute names are ignored.
    public static func profileUpdate(_ input: Input) throws -> ProfileUpdate {
        let email = try input.email.map { raw in
            guard let normalized = EmailAddress.normalize(raw) else { throw HearthError(.invalidEmail) }
            return normalized
        }
        try input.password.map(PasswordPolicy.check)
        let attributes: [String: ProfileUpdate.Attribute] = [
            "DISPLAY_NAME": .displayName, "PHOTO_URL": .photoURL, "EMAIL": .email, "PASSWORD": .password,
        ]
        return ProfileUpdate(
            email: email, setsPassword: input.password != nil,
            displayName: try input.displayName.map(UserText.displayName), photoURL: try input.photoURL.map(UserText.photoURL),
            deletedAttributes: Set(input.deletedAttributes.compactMap { attributes[$0] }), deletedProviders: Set(input.deletedProviders))
    }

    /// Updates the account of `idToken`. Throws `INSUFFICIENT_PERMISSION`, `OPERATION_NOT_ALLOWED`, the ID token's
    /// errors, ``profileUpdate(_:)``'s, `CREDENTIAL_TOO_OLD_LOGIN_AGAIN`, `EMAIL_CHANGE_NEEDS_VERIFICATION` (with
    /// enumeration protection) and `EMAIL_EXISTS`. Unlinking the last sign-in method is allowed, as Firebase allows it.
    public func callAsFunction(_ input: Input, idToken: String, from origin: AuditOrigin) async throws -> Updated {
        if input.setsAdministratorFields { throw HearthError(.insufficientPermission) }
        if input.setsDisabled { throw HearthError(.operationNotAllowed) }
        let current = try await idTokens.authenticate(idToken)
        let now = clock.now
        let update = try Self.profileUpdate(input)
        try update.check(
            current.user, authTime: current.authTime, now: now, recentLoginWindow: recentLoginWindow,
            emailEnumerationProtection: try await settings.projectSettings().emailEnumerationProtection)
        if let email = update.email { try update.checkEmail(ownedBy: try await store.user(email: email), for: current.user) }
        try await PasskeyRemoval(store: store, audit: audit, clock: clock).remove(
            input.deletedPasskeys, uid: current.user.uid, actor: .user, from: origin)
        let hash = try await input.password.asyncMap { try await passwords.hash($0) }

        // New tokens when the credentials changed: the old ones stop working (validSince moves).
        let provider = update.setsPassword ? "password" : current.signInProvider
        let session =
            update.changesCredentials(of: current.user)
            ? RefreshSessionRecord.issue(
                uid: current.user.uid, signInProvider: provider, authTime: now, now: now, tenantID: current.user.tenantID) : nil
        let user = try await StoreConflict.mapped {
            try await store.updateUser(uid: current.user.uid, session: session?.record) { user in
                update.apply(to: &user, passwordHash: hash, now: now)
                // The new session's ID token is handed out with the answer.
                if session != nil { user.lastRefreshAt = now }
            }
        }
        await recordChanges(from: current.user, to: user, passwordSet: hash != nil, origin: origin)
        if hash != nil { try await store.deleteActionCodes(uid: user.uid, kinds: [.passwordReset]) }
        if let oldEmail = current.user.email, oldEmail != user.email {
            // The old address hears of the change and can undo it; links sent to it stop working.
            try await store.deleteActionCodes(uid: user.uid, kinds: Set(ActionCodeKind.allCases))
            if let newEmail = user.email, !current.user.isAnonymous {
                try await mail.mailRecoveryLink(uid: user.uid, oldEmail: oldEmail, newEmail: newEmail, languageCode: input.languageCode)
            }
        }
        guard let session else { return Updated(user: user) }
        let idToken = try await tokens.mintIDToken(for: user, signInProvider: provider, authTime: now, sessionClaims: [:])
        return Updated(user: user, session: (idToken, session.token, Int(tokens.idTokenLifetime)))
    }

    /// The audit events of a person's own update: a password added (a link) or changed, a new e-mail address,
    /// sign-in methods removed.
    private func recordChanges(from before: UserRecord, to after: UserRecord, passwordSet: Bool, origin: AuditOrigin) async {
        func record(_ kind: AuditEvent.Kind, method: String?, details: [String: String] = [:]) async {
            await audit.record(
                AuditEvent(
                    time: clock.now, kind: kind, uid: after.uid, actor: .user, actorID: origin.actorID, method: method,
                    clientAddress: origin.address, details: details))
        }
        if passwordSet {
            let kind: AuditEvent.Kind = before.passwordHash == nil ? .linked : .passwordChanged
            await record(kind, method: kind == .linked ? "password" : "update")
        }
        if before.email != after.email { await record(.emailChanged, method: "update") }
        let removed = before.signInMethodSet.subtracting(after.signInMethodSet)
        if !removed.isEmpty { await record(.unlinked, method: nil, details: ["providers": removed.sorted().joined(separator: ",")]) }
    }
}

extension UserRecord {
    /// The providers the user can sign in with: linked providers, `password` and `phone`.
    public var signInMethodSet: Set<String> {
        var methods = Set(providers.map(\.providerID))
        if passwordHash != nil { methods.insert("password") }
        if phoneNumber != nil { methods.insert("phone") }
        return methods
    }
}
