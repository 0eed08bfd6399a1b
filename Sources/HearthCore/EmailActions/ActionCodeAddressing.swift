import Foundation

/// `accounts:sendOobCode`'s rules: which account and address a code is for, who may ask for it, and when e-mail
/// enumeration protection answers as if a mail went out without sending one.
public struct ActionCodeAddressing: Sendable {
    public let settings: any ProjectSettingsReading
    public let store: any AccountStore
    public let idTokens: any IDTokenAuthenticating
    public let abuse: AbuseCounter
    public let clock: WallClock
    public let recentLoginWindow: TimeInterval

    public init(
        settings: any ProjectSettingsReading, store: any AccountStore, idTokens: any IDTokenAuthenticating, abuse: AbuseCounter,
        clock: WallClock, recentLoginWindow: TimeInterval
    ) {
        self.settings = settings
        self.store = store
        self.idTokens = idTokens
        self.abuse = abuse
        self.clock = clock
        self.recentLoginWindow = recentLoginWindow
    }

    /// What is asked (the wire request's fields, unchecked).
    public struct Request: Sendable {
        /// `PASSWORD_RESET`, `VERIFY_EMAIL`, `EMAIL_SIGNIN` or `VERIFY_AND_CHANGE_EMAIL`.
        public var requestType: String
        public var email: String?
        public var newEmail: String?
        public var idToken: String?
        public var hasContinueURL: Bool
        /// An administrator's request (the Admin SDKs' generate…Link) may name any account and returns the link.
        public var byAdministrator: Bool
        /// The link is returned rather than mailed: no mail is counted against the address's limit.
        public var returnsLink: Bool

        public init(
            requestType: String, email: String?, newEmail: String?, idToken: String?, hasContinueURL: Bool, byAdministrator: Bool,
            returnsLink: Bool
        ) {
            self.requestType = requestType
            self.email = email
            self.newEmail = newEmail
            self.idToken = idToken
            self.hasContinueURL = hasContinueURL
            self.byAdministrator = byAdministrator
            self.returnsLink = returnsLink
        }
    }

    /// Who the code is for and what it acts on.
    public struct Target: Sendable, Equatable {
        public var kind: ActionCodeKind
        public var uid: String?
        /// The account's address (the code's `email`).
        public var email: String
        public var newEmail: String?
        /// Where the mail goes: the new address of an e-mail change, else ``email``.
        public var recipient: String
    }

    public enum Decision: Sendable, Equatable {
        /// Issue a code for the target.
        case issue(Target)
        /// Enumeration protection: answer as for a known address, issue nothing, send nothing.
        case answerOnly(email: String)
    }

    /// Decides. Throws `MISSING_EMAIL`, `INVALID_EMAIL`, `EMAIL_NOT_FOUND`, `USER_DISABLED`, `USER_NOT_FOUND`,
    /// `INVALID_ID_TOKEN`, `MISSING_ID_TOKEN`, `OPERATION_NOT_ALLOWED` (e-mail link sign-in off), `MISSING_CONTINUE_URI`,
    /// `MISSING_NEW_EMAIL`, `CREDENTIAL_TOO_OLD_LOGIN_AGAIN`, `EMAIL_EXISTS`, `INVALID_REQ_TYPE`, and
    /// `TOO_MANY_ATTEMPTS_TRY_LATER` (the per-address limit on mail-sending requests, counted before any lookup).
    public func decide(_ request: Request, from origin: ClientOrigin) async throws -> Decision {
        let settings = try await settings.projectSettings()
        let administrator = request.byAdministrator
        func countSending() async throws {
            if !request.returnsLink { try await abuse.count(\.mailSending, address: origin.counterAddress) }
        }
        switch request.requestType {
        case "PASSWORD_RESET":
            let email = try Self.email(request.email)
            try await countSending()
            let found = try await store.user(email: email)
            guard let user = found, !(user.disabled && !administrator) else {
                // Enumeration protection: an unknown address gets the answer a known one gets, and no mail.
                if settings.emailEnumerationProtection, !administrator { return .answerOnly(email: email) }
                throw HearthError(found == nil ? .emailNotFound : .userDisabled)
            }
            return .issue(Target(kind: .passwordReset, uid: user.uid, email: email, recipient: email))
        case "VERIFY_EMAIL":
            let user: UserRecord
            if let idToken = request.idToken {
                user = try await idTokens.authenticate(idToken).user
            } else if request.returnsLink {
                guard let found = try await store.user(email: try Self.email(request.email)) else { throw HearthError(.userNotFound) }
                user = found
            } else {
                throw HearthError(.invalidIDToken, reason: "VERIFY_EMAIL without idToken")
            }
            guard let email = user.email else { throw HearthError(.missingEmail) }
            try await countSending()
            return .issue(Target(kind: .verifyEmail, uid: user.uid, email: email, recipient: email))
        case "EMAIL_SIGNIN":
            guard settings.emailLinkEnabled else { throw HearthError(.operationNotAllowed) }
            let email = try Self.email(request.email)
            guard request.hasContinueURL else { throw HearthError(.missingContinueURI) }
            try await countSending()
            return .issue(Target(kind: .emailSignIn, uid: try await store.user(email: email)?.uid, email: email, recipient: email))
        case "VERIFY_AND_CHANGE_EMAIL":
            guard let rawNewEmail = request.newEmail else { throw HearthError(.missingNewEmail) }
            guard let newEmail = EmailAddress.normalize(rawNewEmail) else { throw HearthError(.invalidEmail) }
            let user: UserRecord
            if let idToken = request.idToken {
                let current = try await idTokens.authenticate(idToken)
                try CredentialChange(email: newEmail, setsPassword: false)
                    .check(current.user, authTime: current.authTime, now: clock.now, window: recentLoginWindow)
                user = current.user
            } else if administrator {
                guard let found = try await store.user(email: try Self.email(request.email)) else { throw HearthError(.userNotFound) }
                user = found
            } else {
                throw HearthError(.missingIDToken)
            }
            guard let email = user.email else { throw HearthError(.missingEmail) }
            // Without enumeration protection a taken address is said at once; with it, only when the link is used.
            if !settings.emailEnumerationProtection || administrator, let owner = try await store.user(email: newEmail), owner.uid != user.uid {
                throw HearthError(.emailExists)
            }
            try await countSending()
            return .issue(Target(kind: .verifyAndChangeEmail, uid: user.uid, email: email, newEmail: newEmail, recipient: newEmail))
        default:
            throw HearthError(.invalidRequestType, reason: "requestType \(request.requestType.prefix(40))")
        }
    }

    private static func email(_ raw: String?) throws -> String {
        guard let raw else { throw HearthError(.missingEmail) }
        guard let email = EmailAddress.normalize(raw) else { throw HearthError(.invalidEmail) }
        return email
    }
}
