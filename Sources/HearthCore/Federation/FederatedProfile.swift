/// A provider identity after its credential was verified, normalised the way Firebase maps it into a user.
public struct FederatedProfile: Sendable, Equatable, Codable {
    public var providerID: String
    /// The provider's id for the person: `sub`, Microsoft's `oid`, Twitter's numeric id, GitHub's id.
    public var rawID: String
    /// Lower-cased.
    public var email: String?
    /// Whether the provider vouches for the e-mail (the "trusted provider" rule).
    public var emailVerified: Bool
    public var displayName: String?
    public var firstName: String?
    public var lastName: String?
    public var photoURL: String?
    /// Twitter's screen name, GitHub's login.
    public var screenName: String?
    /// Apple's private-relay address flag.
    public var isPrivateEmail: Bool
    /// The provider's profile, returned to clients as `rawUserInfo` (their `additionalUserInfo.profile`).
    public var rawUserInfo: [String: JSONValue]

    public init(
        providerID: String, rawID: String, email: String? = nil, emailVerified: Bool = false, displayName: String? = nil,
        firstName: String? = nil, lastName: String? = nil, photoURL: String? = nil, screenName: String? = nil,
        isPrivateEmail: Bool = false, rawUserInfo: [String: JSONValue] = [:]
    ) {
        self.providerID = providerID
        self.rawID = rawID
        self.email = email
        self.emailVerified = emailVerified
        self.displayName = displayName
        self.firstName = firstName
        self.lastName = lastName
        self.photoURL = photoURL
        self.screenName = screenName
        self.isPrivateEmail = isPrivateEmail
        self.rawUserInfo = rawUserInfo
    }

    /// The profile as Hearth keeps it. An id with control characters, or a NUL anywhere it would be stored,
    /// fails the sign-in with `INVALID_IDP_RESPONSE`; a display name or photo URL Hearth would refuse from
    /// the user is left out (see ``UserText``).
    public func storable() throws -> FederatedProfile {
        guard !rawID.isEmpty, rawID.unicodeScalars.allSatisfy({ $0.value >= 0x20 && $0.value != 0x7F }),
            [providerID, email, screenName, firstName, lastName].allSatisfy({ $0.map(UserText.isStorable) ?? true })
        else {
            throw HearthError(.invalidIDPResponse, detail: "The provider's user id or e-mail has characters Hearth cannot keep.")
        }
        var profile = self
        profile.displayName = UserText.fromProvider(displayName: displayName)
        profile.photoURL = UserText.fromProvider(photoURL: photoURL)
        return profile
    }

    /// The link stored on the user.
    public var link: ProviderLink {
        ProviderLink(providerID: providerID, rawID: rawID, email: email, displayName: displayName, photoURL: photoURL, screenName: screenName)
    }
}
