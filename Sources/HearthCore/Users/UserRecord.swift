import Foundation

/// A user account as the domain sees it.
public struct UserRecord: Sendable, Equatable {
    public var uid: String
    /// Lower-cased; unique across users.
    public var email: String?
    /// The first e-mail the account had, kept once the e-mail changes (`initialEmail`); `nil` while it never did.
    public var initialEmail: String?
    public var emailVerified: Bool
    public var displayName: String?
    public var photoURL: String?
    public var phoneNumber: String?
    /// Self-describing password hash (see ``PasswordHasher``); `nil` when the user has no password.
    public var passwordHash: String?
    public var passwordUpdatedAt: Date?
    public var disabled: Bool
    /// Developer claims, a JSON object as text.
    public var customAttributes: String?
    /// Set once the user signed in with a custom token.
    public var customAuth: Bool
    /// Set once the user signed in with an e-mail link (`emailLink` becomes a sign-in method).
    public var emailLinkSignIn: Bool
    public var createdAt: Date
    public var lastLoginAt: Date?
    /// When an ID token was last handed to the user: a sign-in, or a refresh at the Secure Token endpoint (recorded at
    /// most once per ``refreshRecordingInterval``). `lastRefreshAt`, the Admin SDKs' `lastRefreshTime`.
    public var lastRefreshAt: Date?
    /// Tokens issued before this instant (whole seconds) are no longer accepted.
    public var validSince: Date
    /// When the anonymous-account clean-up may delete this user; `nil` when it never will.
    public var scheduledDeletionAt: Date?
    public var providers: [ProviderLink]
    /// Enrolled second factors, in enrolment order.
    public var secondFactors: [SecondFactorEnrollment]
    /// Hashes of the unused recovery codes (``RecoveryCodes``); empty: none generated, or all used.
    public var recoveryCodeHashes: [String]
    /// The tenant the account belongs to (`firebase.tenant` in its ID tokens); `nil`: the project's own. Set by the
    /// store that read it: a store writes the users it is given into its own tenant, whatever this says.
    public var tenantID: String?

    public init(
        uid: String, email: String? = nil, emailVerified: Bool = false, displayName: String? = nil,
        photoURL: String? = nil, phoneNumber: String? = nil, passwordHash: String? = nil,
        passwordUpdatedAt: Date? = nil, disabled: Bool = false, customAttributes: String? = nil,
        customAuth: Bool = false, emailLinkSignIn: Bool = false, createdAt: Date, lastLoginAt: Date? = nil, validSince: Date,
        scheduledDeletionAt: Date? = nil, providers: [ProviderLink] = [], secondFactors: [SecondFactorEnrollment] = [],
        recoveryCodeHashes: [String] = [], initialEmail: String? = nil, lastRefreshAt: Date? = nil
    ) {
        self.initialEmail = initialEmail
        self.lastRefreshAt = lastRefreshAt
        self.secondFactors = secondFactors
        self.recoveryCodeHashes = recoveryCodeHashes
        self.uid = uid
        self.email = email
        self.emailVerified = emailVerified
        self.displayName = displayName
        self.photoURL = photoURL
        self.phoneNumber = phoneNumber
        self.passwordHash = passwordHash
        self.passwordUpdatedAt = passwordUpdatedAt
        self.disabled = disabled
        self.customAttributes = customAttributes
        self.customAuth = customAuth
        self.emailLinkSignIn = emailLinkSignIn
        self.createdAt = createdAt
        self.lastLoginAt = lastLoginAt
        self.validSince = validSince
        self.scheduledDeletionAt = scheduledDeletionAt
        self.providers = providers
    }

    /// The shortest time between two refreshes of a user that are both recorded in ``lastRefreshAt``: the Secure Token
    /// endpoint is the busiest route and reads the account from a cache, so it writes only when the recorded time is
    /// older than this.
    public static let refreshRecordingInterval: TimeInterval = 60

    /// Whether a refresh at `now` is to be recorded (``refreshRecordingInterval``).
    public func recordsRefresh(at now: Date) -> Bool {
        guard let lastRefreshAt else { return true }
        return now.timeIntervalSince(lastRefreshAt) >= Self.refreshRecordingInterval
    }

    /// Gives the account the e-mail `newEmail` (lower-cased, already checked), keeping the first address it had in
    /// ``initialEmail`` when it had one.
    public mutating func changeEmail(to newEmail: String?) {
        guard newEmail != email else { return }
        if initialEmail == nil, let email { initialEmail = email }
        email = newEmail
    }

    /// The deletion date of an account the anonymous clean-up must never delete although it has no
    /// credential yet: one an administrator made (it is waiting for a password, a link or a custom token).
    public static let neverDeleted = Date(timeIntervalSince1970: 253_402_300_799)  // 9999-12-31T23:59:59Z

    /// The user can sign in with e-mail and password.
    public var hasPasswordProvider: Bool { email != nil && passwordHash != nil }

    /// The user signs in with the e-mail address: a password, an e-mail link, or both. Firebase lists such a
    /// user with the provider `password`.
    public var hasEmailProvider: Bool { email != nil && (passwordHash != nil || emailLinkSignIn) }

    /// No way to sign in again but the refresh token: no password, no e-mail link, no provider, no phone, no
    /// custom token.
    public var isAnonymous: Bool {
        !hasEmailProvider && providers.isEmpty && phoneNumber == nil && !customAuth
    }

    /// Provider ids a client may sign in with, as `createAuthUri` lists them.
    public var signInMethods: [String] {
        var methods: [String] = []
        if hasPasswordProvider { methods.append("password") }
        if email != nil && emailLinkSignIn { methods.append("emailLink") }
        methods.append(contentsOf: providers.map(\.providerID))
        return methods
    }

    /// `firebase.identities` of the ID token: provider → its ids for this user.
    public var identities: [String: [String]] {
        var result: [String: [String]] = [:]
        if let email { result["email"] = [email] }
        if let phoneNumber { result["phone"] = [phoneNumber] }
        for link in providers { result[link.providerID, default: []].append(link.rawID) }
        return result
    }

    /// Generates a Firebase-shaped uid: 28 characters from `[A-Za-z0-9]`.
    public static func makeUID() -> String {
        let alphabet = Array("ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789".utf8)
        var generator = SystemRandomNumberGenerator()
        var characters: [UInt8] = []
        characters.reserveCapacity(28)
        // Random bytes eight at a time (each draw is a system call); a byte below 248 = 4 × 62 picks a character
        // evenly, the others are skipped.
        while characters.count < 28 {
            withUnsafeBytes(of: generator.next() as UInt64) { word in
                for byte in word where byte < 248 && characters.count < 28 {
                    characters.append(alphabet[Int(byte % 62)])
                }
            }
        }
        return String(decoding: characters, as: UTF8.self)
    }
}
