import Foundation

/// A user account at one provider, as the sandbox reports it in tokens and profile answers.
///
/// `subject` is the provider's own user id: Apple, Google, Yahoo and OIDC `sub`; Microsoft `oid` (the token's `sub` is
/// derived per application, as Microsoft does); Facebook's app-scoped id; GitHub's numeric `id`; Twitter's `id_str`.
/// Ready-made accounts are in ``SandboxIdentity/presets``; build others with the memberwise initializer.
public struct SandboxIdentity: Sendable, Hashable {
    public var provider: SandboxProvider
    public var subject: String
    public var email: String?
    /// Apple `email_verified`, Google/Yahoo/OIDC `email_verified`, GitHub `verified` of the primary address,
    /// Microsoft `xms_edov`. Facebook and Twitter have no such field.
    public var emailVerified: Bool
    /// `name`
    public var displayName: String?
    /// `given_name` / `first_name` (also Apple's `user.name.firstName`).
    public var givenName: String?
    /// `family_name` / `last_name` (also Apple's `user.name.lastName`).
    public var familyName: String?
    /// Google/OIDC `picture`, Facebook picture URL, GitHub `avatar_url`, Twitter `profile_image_url_https`.
    public var photoURL: String?
    /// Twitter `screen_name`, GitHub `login`, Yahoo `nickname`.
    public var screenName: String?
    /// Apple: the email is a `@privaterelay.appleid.com` relay (`is_private_email`).
    public var isPrivateEmail: Bool
    /// Apple `real_user_status` (0 unsupported, 1 unknown, 2 likely real); only native sign-ins carry it.
    public var realUserStatus: Int?
    /// Microsoft `tid`: the tenant GUID, ``SandboxMicrosoftTenant/personalAccountsTenantID`` for personal accounts.
    public var tenantID: String?
    /// Microsoft `preferred_username` (UPN, email or phone).
    public var preferredUsername: String?
    /// Google Workspace domain (`hd`).
    public var hostedDomain: String?
    /// `locale`, e.g. `en`.
    public var locale: String?
    /// GitHub: whether the primary email is public (then it appears as `/user`'s `email`).
    public var emailIsPublic: Bool
    /// GitHub `/user/emails` entries besides the primary ``email``.
    public var otherEmails: [SandboxEmailAddress]

    public init(
        provider: SandboxProvider, subject: String, email: String? = nil, emailVerified: Bool = false,
        displayName: String? = nil, givenName: String? = nil, familyName: String? = nil, photoURL: String? = nil,
        screenName: String? = nil, isPrivateEmail: Bool = false, realUserStatus: Int? = nil, tenantID: String? = nil,
        preferredUsername: String? = nil, hostedDomain: String? = nil, locale: String? = nil,
        emailIsPublic: Bool = false, otherEmails: [SandboxEmailAddress] = []
    ) {
        self.provider = provider
        self.subject = subject
        self.email = email
        self.emailVerified = emailVerified
        self.displayName = displayName
        self.givenName = givenName
        self.familyName = familyName
        self.photoURL = photoURL
        self.screenName = screenName
        self.isPrivateEmail = isPrivateEmail
        self.realUserStatus = realUserStatus
        self.tenantID = tenantID
        self.preferredUsername = preferredUsername
        self.hostedDomain = hostedDomain
        self.locale = locale
        self.emailIsPublic = emailIsPublic
        self.otherEmails = otherEmails
    }

    /// Microsoft: whether this is a personal (MSA) account, i.e. its tenant is the consumers tenant.
    public var isMicrosoftPersonalAccount: Bool { tenantID == SandboxMicrosoftTenant.personalAccountsTenantID }

    /// Microsoft: the id Firebase stores as `rawId`. For personal accounts the 16 hex digits that `oid`
    /// (`00000000-0000-0000-XXXX-XXXXXXXXXXXX`) pads; otherwise `oid` itself (providers.md §3.6).
    public var microsoftFederatedID: String {
        let prefix = "00000000-0000-0000-"
        guard subject.hasPrefix(prefix) else { return subject }
        return subject.dropFirst(prefix.count).replacingOccurrences(of: "-", with: "")
    }

    /// Microsoft: the `oid` of a personal account whose 16-hex-digit id (Graph `/me` `id`) is `federatedID`
    /// (pass exactly 16 hexadecimal digits).
    public static func microsoftPersonalObjectID(federatedID: String) -> String {
        let hex = federatedID.lowercased()
        let split = hex.index(hex.startIndex, offsetBy: min(4, hex.count))
        return "00000000-0000-0000-\(hex[..<split])-\(hex[split...])"
    }
}
