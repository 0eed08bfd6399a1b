import Foundation
import HearthCore
import HearthWire

extension UserInfo {
    /// base64 of "REDACTED", what production returns in place of a password hash.
    public static let redactedPasswordHash = UserInfo.redacted

    public init(_ user: UserRecord) {
        self.init(localId: user.uid)
        email = user.email
        emailVerified = user.emailVerified
        displayName = user.displayName
        photoUrl = user.photoURL
        phoneNumber = user.phoneNumber
        disabled = user.disabled
        customAttributes = user.customAttributes
        customAuth = user.customAuth ? true : nil
        emailLinkSignin = user.emailLinkSignIn ? true : nil
        passwordHash = user.passwordHash == nil ? nil : Self.redactedPasswordHash
        passwordUpdatedAt = user.passwordUpdatedAt.map { ($0.timeIntervalSince1970 * 1000).rounded() }
        validSince = WireInt64(Int64(user.validSince.timeIntervalSince1970))
        createdAt = WireInt64(Int64(user.createdAt.timeIntervalSince1970 * 1000))
        lastLoginAt = user.lastLoginAt.map { WireInt64(Int64($0.timeIntervalSince1970 * 1000)) }
        lastRefreshAt = user.lastRefreshAt?.formatted(Date.ISO8601FormatStyle(includingFractionalSeconds: true))
        initialEmail = user.initialEmail
        // Firebase repeats Twitter's handle at the top level of the user.
        screenName = user.providers.first { $0.providerID == "twitter.com" }?.screenName
        mfaInfo = user.secondFactors.isEmpty ? nil : user.secondFactors.map { MFAEnrollment($0) }
        tenantId = user.tenantID
        var providers: [ProviderUserInfo] = []
        if let email = user.email, user.hasEmailProvider {
            providers.append(
                ProviderUserInfo(
                    providerId: "password", rawId: email, federatedId: email, email: email, displayName: user.displayName, photoUrl: user.photoURL))
        }
        if let phone = user.phoneNumber {
            providers.append(ProviderUserInfo(providerId: "phone", rawId: phone, phoneNumber: phone))
        }
        for link in user.providers {
            providers.append(
                ProviderUserInfo(
                    providerId: link.providerID, rawId: link.rawID, federatedId: link.rawID, email: link.email,
                    displayName: link.displayName, photoUrl: link.photoURL, phoneNumber: link.phoneNumber, screenName: link.screenName))
        }
        providerUserInfo = providers
    }
}

extension UpdateResponse {
    /// The account as `accounts:update` answers (the user's own update, an administrator's, an e-mail action applied).
    public init(_ user: UserRecord) {
        self.init(localId: user.uid)
        email = user.email
        emailVerified = user.email == nil ? nil : user.emailVerified
        displayName = user.displayName
        photoUrl = user.photoURL
        providerUserInfo = UserInfo(user).providerUserInfo ?? []
        passwordHash = user.passwordHash == nil ? nil : UserInfo.redactedPasswordHash
    }
}
