import Foundation

/// What a sign-in, link or re-authentication returns.
public final class AuthDataResult: Sendable {
    /// The signed-in user. For `link(with:)` the current user itself; for `reauthenticate(with:)` a separate
    /// ``User`` with the same uid (as in FirebaseAuth).
    public let user: User
    /// What the provider said about the user, or nil (anonymous sign-in of an already anonymous user, e-mail links).
    public let additionalUserInfo: AdditionalUserInfo?
    /// The provider's credential as the server returned it (ID token, access token, secret), for calling the
    /// provider's API; nil for e-mail/password and anonymous sign-ins.
    public let credential: OAuthCredential?

    init(user: User, additionalUserInfo: AdditionalUserInfo?, credential: OAuthCredential?) {
        self.user = user
        self.additionalUserInfo = additionalUserInfo
        self.credential = credential
    }
}

/// The provider's view of a user at sign-in.
public final class AdditionalUserInfo: @unchecked Sendable {
    /// The provider id (`"google.com"`, `"password"`; empty for anonymous and custom-token sign-ins).
    public let providerID: String
    /// The provider's profile (the server's `rawUserInfo`), e.g. Twitter's user object or Google's claims.
    /// Immutable after creation, which is what makes the class safe to share.
    public let profile: [String: Any]?
    /// The provider's user name (Twitter screen name, GitHub login).
    public let username: String?
    /// Whether this sign-in created the user.
    public let isNewUser: Bool

    init(providerID: String, profile: [String: Any]?, username: String?, isNewUser: Bool) {
        self.providerID = providerID
        self.profile = profile
        self.username = username
        self.isNewUser = isNewUser
    }

    /// FirebaseAuth's Objective-C spelling of ``isNewUser``.
    public func newUser() -> Bool { isNewUser }

    static func profile(fromRawUserInfo raw: String?) -> [String: Any]? {
        guard let raw, let data = raw.data(using: .utf8) else { return nil }
        return (try? JSONSerialization.jsonObject(with: data)) as? [String: Any]
    }
}
