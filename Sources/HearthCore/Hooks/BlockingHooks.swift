import Foundation

/// Identity Platform's blocking functions (`blockingFunctions` of the project's or a tenant's config): the operator's
/// HTTPS endpoints that Hearth asks before an account is created and before a sign-in gets its tokens. A hook may
/// refuse (its error reaches the client as `BLOCKING_FUNCTION_ERROR_RESPONSE`) or change the account
/// (``BlockingHookChanges``).
public struct BlockingHookSettings: Codable, Sendable, Equatable {
    /// `triggers.beforeCreate.functionUri`.
    public var beforeCreate: String?
    /// `triggers.beforeSignIn.functionUri`.
    public var beforeSignIn: String?
    /// `triggers.beforeSendEmail.functionUri`: asked before a password-reset or e-mail sign-in mail.
    public var beforeSendEmail: String?
    /// `triggers.beforeSendSms.functionUri`: asked before a verification code goes out by SMS.
    public var beforeSendSMS: String?
    /// `forwardInboundCredentials`: which of the identity provider's tokens the event carries.
    public var forwardIDToken: Bool
    public var forwardAccessToken: Bool
    public var forwardRefreshToken: Bool

    public init(
        beforeCreate: String? = nil, beforeSignIn: String? = nil, beforeSendEmail: String? = nil, beforeSendSMS: String? = nil,
        forwardIDToken: Bool = false, forwardAccessToken: Bool = false, forwardRefreshToken: Bool = false
    ) {
        self.beforeCreate = beforeCreate
        self.beforeSignIn = beforeSignIn
        self.beforeSendEmail = beforeSendEmail
        self.beforeSendSMS = beforeSendSMS
        self.forwardIDToken = forwardIDToken
        self.forwardAccessToken = forwardAccessToken
        self.forwardRefreshToken = forwardRefreshToken
    }

    /// Whether `uri` may be a hook's: an `https` URL with a host and no user, password or fragment; or, in development
    /// mode only, `http` to a loopback host. Hearth sends the hooks what a person signs in with: nowhere else.
    public static func isAllowedURI(_ uri: String, development: Bool) -> Bool {
        guard uri.utf8.count <= 2_048, !uri.unicodeScalars.contains(where: { $0.value < 0x21 || $0.value == 0x7F }),
            let components = URLComponents(string: uri), let scheme = components.scheme?.lowercased(), let host = components.host,
            !host.isEmpty, components.user == nil, components.password == nil, components.fragment == nil
        else { return false }
        switch scheme {
        case "https": return true
        case "http": return development && ["localhost", "127.0.0.1", "::1", "[::1]"].contains(host.lowercased())
        default: return false
        }
    }
}

/// What a hook is asked about.
public struct BlockingHookEvent: Sendable {
    public enum Kind: String, Sendable {
        case beforeCreate, beforeSignIn
        /// Before a password-reset or sign-in mail goes out (`beforeSendEmail`).
        case beforeSendEmail
        /// Before a verification code goes out by SMS (`beforeSendSms`).
        case beforeSendSMS = "beforeSendSms"
    }

    public var kind: Kind
    /// The account as it will be written (``Kind/beforeCreate``) or as the sign-in leaves it; a message's events have
    /// none.
    public var user: UserRecord?
    /// A message's recipient (an e-mail address, or an E.164 number) and its type (`PASSWORD_RESET`, `EMAIL_SIGN_IN`;
    /// `SIGN_IN_OR_SIGN_UP`, `MULTI_FACTOR_SIGN_IN`, `MULTI_FACTOR_ENROLLMENT`).
    public var recipient: String?
    public var messageType: String?
    /// The sign-in's method: `password`, `emailLink`, `phone`, or the identity provider's id.
    public var signInMethod: String
    public var origin: AuditOrigin
    /// The identity provider's tokens of a federated sign-in (sent only as `forwardInboundCredentials` allows).
    public var providerTokens: ProviderTokens?
    /// The tenant of the account (`nil`: the project's).
    public var tenantID: String?

    public init(
        kind: Kind, user: UserRecord?, signInMethod: String, origin: AuditOrigin, providerTokens: ProviderTokens? = nil,
        tenantID: String? = nil, recipient: String? = nil, messageType: String? = nil
    ) {
        self.recipient = recipient
        self.messageType = messageType
        self.kind = kind
        self.user = user
        self.signInMethod = signInMethod
        self.origin = origin
        self.providerTokens = providerTokens
        self.tenantID = tenantID
    }
}

/// An identity provider's tokens of a sign-in.
public struct ProviderTokens: Sendable, Equatable {
    public var idToken: String?
    public var accessToken: String?
    public var refreshToken: String?

    public init(idToken: String? = nil, accessToken: String? = nil, refreshToken: String? = nil) {
        self.idToken = idToken
        self.accessToken = accessToken
        self.refreshToken = refreshToken
    }
}

/// What a hook's answer changes (its `userRecord` with `updateMask`): only the fields the mask names. Session claims go
/// into the ID token of this sign-in only, never onto the account.
public struct BlockingHookChanges: Sendable, Equatable {
    /// `.some(nil)`: cleared.
    public var displayName: String??
    public var photoURL: String??
    public var disabled: Bool?
    public var emailVerified: Bool?
    /// The account's developer claims, replaced whole (a JSON object).
    public var customClaims: [String: JSONValue]?
    public var sessionClaims: [String: JSONValue]?

    public init(
        displayName: String?? = nil, photoURL: String?? = nil, disabled: Bool? = nil, emailVerified: Bool? = nil,
        customClaims: [String: JSONValue]? = nil, sessionClaims: [String: JSONValue]? = nil
    ) {
        self.displayName = displayName
        self.photoURL = photoURL
        self.disabled = disabled
        self.emailVerified = emailVerified
        self.customClaims = customClaims
        self.sessionClaims = sessionClaims
    }

    /// Nothing changed.
    public static let none = BlockingHookChanges()

    /// The changes made to `user` (its session claims aside).
    public func apply(to user: inout UserRecord) {
        if let displayName { user.displayName = displayName }
        if let photoURL { user.photoURL = photoURL }
        if let disabled { user.disabled = disabled }
        if let emailVerified, user.email != nil { user.emailVerified = emailVerified }
        if let customClaims { user.customAttributes = customClaims.isEmpty ? nil : JSONValue.object(customClaims).jsonText }
    }
}

/// Calls a hook over the network: the server's (HTTPS, a signed event, Firebase's time-out).
public protocol BlockingHookCalling: Sendable {
    /// Asks the hook at `uri` about `event`. Throws `BLOCKING_FUNCTION_ERROR_RESPONSE` when the hook refuses, fails,
    /// answers late or answers something that is not a hook's answer.
    func call(_ uri: String, event: BlockingHookEvent, settings: BlockingHookSettings) async throws -> BlockingHookChanges
}

/// The hooks of the project's (or a tenant's) settings, as ``SignInCompletion`` runs them: which apply to a sign-in,
/// and in what order (a new account: `beforeCreate`, then `beforeSignIn`).
public struct BlockingHooks: Sendable {
    public let settings: any ProjectSettingsReading
    public let caller: any BlockingHookCalling
    public let tenantID: String?

    public init(settings: any ProjectSettingsReading, caller: any BlockingHookCalling, tenantID: String? = nil) {
        self.settings = settings
        self.caller = caller
        self.tenantID = tenantID
    }

    /// Whether a sign-in recorded as `record` asks the hooks at all: anonymous and custom-token sign-ins never do, as
    /// Firebase's never do, and neither does adding a password to an account.
    public static func applies(to record: SignInCompletion.Record) -> Bool {
        !["anonymous", "custom"].contains(record.provider) && !(record.event == .linked && record.provider == "password")
    }

    /// Asks `beforeSendEmail` (`kind` ``BlockingHookEvent/Kind/beforeSendEmail``) or `beforeSendSms` before a message of
    /// `messageType` goes to `recipient`, when that hook is set; its refusal blocks the message
    /// (`BLOCKING_FUNCTION_ERROR_RESPONSE`). What it answers besides is not read.
    public func beforeSending(_ kind: BlockingHookEvent.Kind, to recipient: String, messageType: String, origin: AuditOrigin) async throws {
        let hooks = try await settings.projectSettings().blockingHooks
        guard let uri = kind == .beforeSendEmail ? hooks.beforeSendEmail : hooks.beforeSendSMS else { return }
        let event = BlockingHookEvent(
            kind: kind, user: nil, signInMethod: "", origin: origin, tenantID: tenantID, recipient: recipient, messageType: messageType)
        _ = try await caller.call(uri, event: event, settings: hooks)
    }

    /// Whether any hook a sign-in asks is set (read from the settings' short-lived cache).
    public func anyConfigured() async throws -> Bool {
        let hooks = try await settings.projectSettings().blockingHooks
        return hooks.beforeCreate != nil || hooks.beforeSignIn != nil
    }

    /// Runs the hooks for `user` (created when `creating`), each seeing the account as the ones before it left it, and
    /// returns their changes together: later hooks' over earlier ones', session claims from `beforeSignIn` only (as
    /// Firebase reads them). Nothing is written here: the caller writes the changes with the sign-in's own.
    public func run(
        for user: UserRecord, creating: Bool, record: SignInCompletion.Record, providerTokens: ProviderTokens?
    ) async throws -> BlockingHookChanges {
        let hooks = try await settings.projectSettings().blockingHooks
        let kinds: [(BlockingHookEvent.Kind, String?)] =
            creating ? [(.beforeCreate, hooks.beforeCreate), (.beforeSignIn, hooks.beforeSignIn)] : [(.beforeSignIn, hooks.beforeSignIn)]
        var user = user
        var combined = BlockingHookChanges.none
        for case (let kind, let uri?) in kinds {
            let event = BlockingHookEvent(
                kind: kind, user: user, signInMethod: record.method, origin: record.origin, providerTokens: providerTokens, tenantID: tenantID)
            var changes = try await caller.call(uri, event: event, settings: hooks)
            if kind != .beforeSignIn { changes.sessionClaims = nil }
            changes.apply(to: &user)
            combined = combined.followed(by: changes)
        }
        return combined
    }
}

extension BlockingHookChanges {
    /// These changes, then `later`'s over them.
    public func followed(by later: BlockingHookChanges) -> BlockingHookChanges {
        var result = self
        if let value = later.displayName { result.displayName = value }
        if let value = later.photoURL { result.photoURL = value }
        if let value = later.disabled { result.disabled = value }
        if let value = later.emailVerified { result.emailVerified = value }
        if let value = later.customClaims { result.customClaims = value }
        if let value = later.sessionClaims { result.sessionClaims = (result.sessionClaims ?? [:]).merging(value) { _, new in new } }
        return result
    }
}
