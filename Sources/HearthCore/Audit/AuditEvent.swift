import Foundation

/// One thing that happened to an account or to the server's settings, kept for administrators to read back.
///
/// An event never holds a secret: no password, hash, token, code, private key or client secret, and no
/// e-mail address of a user (a console operator is named by theirs: ``OperatorRecord/actorID``). A failed password sign-in names the account (``uid``) only when the e-mail belongs to
/// one; for an unknown e-mail it keeps nothing identifying the person (a hash of an e-mail is a dictionary
/// lookup away from the e-mail), only the client's address and why it failed.
public struct AuditEvent: Sendable, Equatable {
    /// What happened, as a stable dotted name (`user.signed_in`). A struct rather than an enum so that an
    /// event a newer version wrote still reads back.
    public struct Kind: RawRepresentable, Sendable, Hashable, Comparable, CustomStringConvertible {
        public let rawValue: String
        public init(rawValue: String) { self.rawValue = rawValue }
        public var description: String { rawValue }
        public static func < (a: Kind, b: Kind) -> Bool { a.rawValue < b.rawValue }

        /// A new account, by the person themselves (``AuditEvent/method``: `password`, `anonymous`, `emailLink`,
        /// `custom`, or a provider id).
        public static let signedUp = Kind(rawValue: "user.signed_up")
        /// A sign-in to an existing account (``AuditEvent/method`` as for ``signedUp``).
        public static let signedIn = Kind(rawValue: "user.signed_in")
        /// A password sign-in refused: wrong password, unknown e-mail, no password, or disabled account
        /// (`reason` in ``AuditEvent/details``).
        public static let signInFailed = Kind(rawValue: "user.sign_in_failed")
        /// A sign-in method added to an account (``AuditEvent/method``: the provider id, or `password`).
        public static let linked = Kind(rawValue: "user.linked")
        /// Sign-in methods removed from an account (`providers` in ``AuditEvent/details``).
        public static let unlinked = Kind(rawValue: "user.unlinked")
        /// A new password, set by the person or with a reset link (``AuditEvent/method``: `update` or `resetLink`).
        public static let passwordChanged = Kind(rawValue: "user.password_changed")
        /// A new e-mail address, set by the person, with a change link, or restored with a recovery link.
        public static let emailChanged = Kind(rawValue: "user.email_changed")
        /// The person deleted their own account.
        public static let deleted = Kind(rawValue: "user.deleted")
        /// An administrator created an account.
        public static let adminUserCreated = Kind(rawValue: "admin.user_created")
        /// An administrator changed an account (`fields` in ``AuditEvent/details``: which ones).
        public static let adminUserUpdated = Kind(rawValue: "admin.user_updated")
        /// An administrator deleted an account (one event per account, batch deletes included).
        public static let adminUserDeleted = Kind(rawValue: "admin.user_deleted")
        /// An administrator had a password-reset or verification link made for an account in the console (`action`:
        /// `PASSWORD_RESET` or `VERIFY_EMAIL`; `delivery`: `mail`, or `shown` to the operator), never the link.
        public static let adminActionLinkIssued = Kind(rawValue: "admin.action_link_issued")
        /// An administrator imported accounts (`imported` and `failed` counts in ``AuditEvent/details``).
        public static let adminUsersImported = Kind(rawValue: "admin.users_imported")
        /// An administrator downloaded every account, password hashes included, from the console (`format`: `json` or
        /// `csv`; `secondFactors`: `included` or `left-out`).
        public static let adminUsersExported = Kind(rawValue: "admin.users_exported")
        /// An administrator created, changed or deleted an identity provider's settings (`provider`,
        /// `operation` in ``AuditEvent/details``).
        public static let adminProviderSettingsChanged = Kind(rawValue: "admin.provider_settings_changed")
        /// An administrator changed the project's sign-in settings (`fields` in ``AuditEvent/details``).
        public static let adminProjectSettingsChanged = Kind(rawValue: "admin.project_settings_changed")
        /// An administrator created, changed or deleted a tenant (`tenant`, `operation` in ``AuditEvent/details``).
        public static let adminTenantChanged = Kind(rawValue: "admin.tenant_changed")
        /// A second factor enrolled (`kind`: `phone` or `totp`, and `enrollment` in ``AuditEvent/details``).
        public static let secondFactorEnrolled = Kind(rawValue: "user.second_factor_enrolled")
        /// A second factor withdrawn (`enrollment` in ``AuditEvent/details``; ``AuditEvent/method``: `withdraw` or
        /// `revertLink`).
        public static let secondFactorWithdrawn = Kind(rawValue: "user.second_factor_withdrawn")
        /// A second factor checked wrongly at sign-in (`kind` and `reason` in ``AuditEvent/details``).
        public static let secondFactorFailed = Kind(rawValue: "user.second_factor_failed")
        /// A passkey enrolled (``AuditEvent/method``: `passkey`).
        public static let passkeyEnrolled = Kind(rawValue: "user.passkey_enrolled")
        /// A passkey removed, by its user or an administrator (``AuditEvent/actor``; `credential`, the credential id's
        /// first 16 characters, and `name` in ``AuditEvent/details``).
        public static let passkeyRemoved = Kind(rawValue: "user.passkey_removed")
        /// Recovery codes generated (`count` in ``AuditEvent/details``; never the codes).
        public static let recoveryCodesGenerated = Kind(rawValue: "user.recovery_codes_generated")
        /// A new token-signing key (`kid`, and `trigger`: `first`, `scheduled` or `manual`).
        public static let keysRotated = Kind(rawValue: "keys.rotated")
        /// A console operator signed in (``AuditEvent/method``: `totp` or `recovery-code`; `operator` in
        /// ``AuditEvent/details``).
        public static let consoleSignedIn = Kind(rawValue: "console.signed_in")
        /// A console sign-in refused (`reason`: `unknown-operator`, `wrong-password` or `wrong-code`; `operator` when
        /// there is one).
        public static let consoleSignInFailed = Kind(rawValue: "console.sign_in_failed")
        /// A console operator added (`operator`, `role` in ``AuditEvent/details``).
        public static let consoleOperatorAdded = Kind(rawValue: "console.operator_added")
        /// A console operator removed (`operator` in ``AuditEvent/details``).
        public static let consoleOperatorRemoved = Kind(rawValue: "console.operator_removed")
        /// A console operator's role changed (`operator`, `role`, `previousRole` in ``AuditEvent/details``).
        public static let consoleOperatorRoleChanged = Kind(rawValue: "console.operator_role_changed")

        /// Every kind this version records, by name.
        public static let known: [Kind] = [
            signedUp, signedIn, signInFailed, linked, unlinked, passwordChanged, emailChanged, deleted, adminUserCreated,
            adminUserUpdated, adminUserDeleted, adminUsersImported, adminUsersExported, adminActionLinkIssued, adminProviderSettingsChanged,
            adminProjectSettingsChanged,
            adminTenantChanged, keysRotated, secondFactorEnrolled, secondFactorWithdrawn, secondFactorFailed, recoveryCodesGenerated, passkeyEnrolled,
            passkeyRemoved,
            consoleSignedIn, consoleSignInFailed, consoleOperatorAdded, consoleOperatorRemoved, consoleOperatorRoleChanged,
        ].sorted()
    }

    /// Who caused the event.
    public enum Actor: String, Sendable, Equatable, CaseIterable {
        /// The person whose account it is (with the app's API key and their own credential or ID token).
        case user
        /// An administrator's credential (an Admin SDK, HearthAdmin, `hearth users`).
        case administrator
        /// The server itself (scheduled key rotation).
        case system
    }

    /// Unique and random: 32 lower-case hex digits.
    public let id: String
    public let time: Date
    public let kind: Kind
    /// The account concerned, when there is one.
    public let uid: String?
    public let actor: Actor
    /// Which administrator: the credential that called (`owner`, `token:<8 hex digits of its SHA-256>`,
    /// `key:<key id>:<service account>`), or the console operator (`operator:<e-mail>`, `development` for development
    /// mode's local browser, `command-line` for `hearth console`); `nil` for the other actors.
    public let actorID: String?
    /// How: the sign-in method or provider id (`password`, `google.com`, …); `nil` when it does not apply.
    public let method: String?
    /// The client's address (see the server's trusted-proxy rules); `nil` for the system and command-line tools.
    public let clientAddress: String?
    /// A few named values that say more (which fields an administrator changed, why a sign-in failed). Never secrets.
    public let details: [String: String]

    public init(
        id: String = AuditEvent.makeID(), time: Date, kind: Kind, uid: String? = nil, actor: Actor, actorID: String? = nil,
        method: String? = nil, clientAddress: String? = nil, details: [String: String] = [:]
    ) {
        self.id = id
        self.time = time
        self.kind = kind
        self.uid = uid
        self.actor = actor
        self.actorID = actorID
        self.method = method
        self.clientAddress = clientAddress
        self.details = details
    }

    /// A new random id: 128 bits as 32 lower-case hex digits.
    public static func makeID() -> String {
        var generator = SystemRandomNumberGenerator()
        let high = generator.next() as UInt64
        let low = generator.next() as UInt64
        return hex(high) + hex(low)
    }

    /// Whether `text` has the form of an id (32 lower-case hex digits).
    public static func isID(_ text: some StringProtocol) -> Bool {
        text.utf8.count == 32 && text.utf8.allSatisfy { (48...57).contains($0) || (97...102).contains($0) }  // 0-9, a-f
    }

    private static func hex(_ value: UInt64) -> String {
        let digits = String(value, radix: 16)
        return String(repeating: "0", count: 16 - digits.count) + digits
    }
}

/// Where a request came from, as audit events keep it.
public struct AuditOrigin: Sendable, Equatable {
    /// The client's full address; `nil` when unknown.
    public var address: String?
    /// The administrator's credential (the server's `AdministratorCredentials.identify`); `nil` for everyone else.
    public var actorID: String?
    /// The client's `User-Agent` and `X-Firebase-Locale`, for the blocking hooks' events (never stored).
    public var userAgent: String?
    public var locale: String?

    public init(address: String? = nil, actorID: String? = nil, userAgent: String? = nil, locale: String? = nil) {
        self.address = address
        self.actorID = actorID
        self.userAgent = userAgent
        self.locale = locale
    }

    public static let none = AuditOrigin()
}
