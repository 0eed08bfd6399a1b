import Foundation

/// An administrator's change of an account (`accounts:update` with `localId`): everything a
/// ``ProfileUpdate`` does, without its rule for signed-in users (no recent sign-in), and more: phone number,
/// verified and disabled flags, custom claims, revocation, times and links.
public struct AdministratorChange: Sendable, Equatable {
    public var profile: ProfileUpdate
    public var phoneNumber: String?
    public var emailVerified: Bool?
    public var disabled: Bool?
    /// `.some(nil)` removes the claims; `nil` leaves them alone. Already checked (``CustomClaims``).
    public var customClaims: String??
    /// Tokens of sign-ins before it stop working: the Admin SDKs' `revokeRefreshTokens`.
    public var validSince: Date?
    public var createdAt: Date?
    public var lastLoginAt: Date?
    /// A provider identity linked (or its profile replaced, when the user has that provider already).
    public var link: ProviderLink?
    /// The second factors replacing the user's (``AdministeredSecondFactors/replacing(_:with:now:)``); empty removes
    /// them all, with the recovery codes; `nil` leaves them alone.
    public var secondFactors: [AdministeredSecondFactors.Entry]?
    /// The credential ids of passkeys to remove (``AdministeredAccounts/update(uid:_:password:fields:from:)``).
    public var removedPasskeys: [String] = []

    public init(profile: ProfileUpdate = ProfileUpdate()) {
        self.profile = profile
    }

    /// Changes `user`. The profile part first (a new e-mail is unverified and a new password ends the
    /// sessions, as for the user's own change), then the administrator's fields, so that a request that
    /// sets an e-mail and `emailVerified` together leaves it verified and an explicit `validSince` wins.
    /// Throws `USER_DISABLED` when it links an identity to a disabled account (as Firebase does, although an administrator
    /// may change anything else of one), and the errors of ``AdministeredSecondFactors/replacing(_:with:now:)``.
    public func apply(to user: inout UserRecord, passwordHash: String?, now: Date) throws {
        if link != nil, user.disabled { throw HearthError(.userDisabled, reason: "an identity linked to a disabled account") }
        if let secondFactors {
            user.secondFactors = try AdministeredSecondFactors.replacing(user.secondFactors, with: secondFactors, now: now)
            if user.secondFactors.isEmpty { user.recoveryCodeHashes = [] }
        }
        profile.apply(to: &user, passwordHash: passwordHash, now: now)
        if let phoneNumber { user.phoneNumber = phoneNumber }
        if let emailVerified, user.email != nil { user.emailVerified = emailVerified }
        if let disabled { user.disabled = disabled }
        if let customClaims { user.customAttributes = customClaims }
        if let validSince { user.validSince = validSince }
        if let createdAt { user.createdAt = createdAt }
        if let lastLoginAt { user.lastLoginAt = lastLoginAt }
        if let link {
            user.providers.removeAll { $0.providerID == link.providerID }
            user.providers.append(link)
        }
        if !user.isAnonymous { user.scheduledDeletionAt = nil }
    }
}
