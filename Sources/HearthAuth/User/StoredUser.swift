import Foundation
import HearthWire

/// The tokens of a signed-in user.
struct TokenSet: Codable, Equatable, Sendable {
    var idToken: String
    var refreshToken: String
    /// Local time of expiry: the receipt time plus `expiresIn`, as FirebaseAuth computes it.
    var expirationDate: Date
}

/// Everything the SDK knows about a user: what ``User`` shows and what the store keeps (JSON).
struct StoredUser: Codable, Equatable, Sendable {
    /// Format version of the stored JSON.
    var version = 1
    var uid: String
    var isAnonymous: Bool
    var email: String?
    var isEmailVerified = false
    var displayName: String?
    var photoURL: URL?
    var phoneNumber: String?
    var hasPassword = false
    var providerData: [ProviderUserInfo] = []
    var metadata = UserMetadata(lastSignInDate: nil, creationDate: nil)
    var tenantID: String?
    /// The enrolled second factors (`mfaInfo` of `accounts:lookup`); absent from users stored before there were any.
    var mfaEnrollments: [MFAEnrollment]?
    /// The account's passkeys (`passkeyInfo` of `accounts:lookup`); nil when it has none.
    var passkeys: [HearthWire.PasskeyInfo]?
    var tokens: TokenSet
    /// The API key the tokens were issued with.
    var apiKey: String

    init(uid: String, isAnonymous: Bool, tokens: TokenSet, apiKey: String, tenantID: String?) {
        self.uid = uid
        self.isAnonymous = isAnonymous
        self.tokens = tokens
        self.apiKey = apiKey
        self.tenantID = tenantID
    }

    /// Takes the profile from an `accounts:lookup` answer. `isAnonymous` is the caller's business, as in FirebaseAuth.
    mutating func apply(_ info: HearthWire.UserInfo) {
        email = info.email
        isEmailVerified = info.emailVerified ?? false
        displayName = info.displayName
        photoURL = info.photoUrl.flatMap { URL(string: $0) }
        phoneNumber = info.phoneNumber
        hasPassword = info.passwordHash != nil
        providerData = (info.providerUserInfo ?? []).map(ProviderUserInfo.init)
        mfaEnrollments = info.mfaInfo
        passkeys = info.passkeyInfo
        metadata = UserMetadata(
            lastSignInDate: info.lastLoginAt.map(Self.millisecondsDate),
            creationDate: info.createdAt.map(Self.millisecondsDate))
    }

    static func millisecondsDate(_ milliseconds: WireInt64) -> Date {
        Date(timeIntervalSince1970: Double(milliseconds.value) / 1000)
    }
}

extension ProviderUserInfo {
    init(_ wire: HearthWire.ProviderUserInfo) {
        self.init(
            providerID: wire.providerId, uid: wire.federatedId ?? wire.rawId ?? "", displayName: wire.displayName,
            photoURL: wire.photoUrl.flatMap { URL(string: $0) }, email: wire.email, phoneNumber: wire.phoneNumber)
    }
}
