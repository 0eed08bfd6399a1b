/// One identity-provider account linked to a user (`google.com`, `apple.com`, …).
///
/// The password and phone "providers" are not stored as links: they follow from the user's
/// e-mail/password hash and phone number.
public struct ProviderLink: Sendable, Equatable {
    public var providerID: String
    /// The provider's subject for this person (`sub`, Twitter's numeric id, Microsoft's `oid`).
    public var rawID: String
    public var email: String?
    public var displayName: String?
    public var photoURL: String?
    public var phoneNumber: String?
    public var screenName: String?

    public init(
        providerID: String, rawID: String, email: String? = nil, displayName: String? = nil,
        photoURL: String? = nil, phoneNumber: String? = nil, screenName: String? = nil
    ) {
        self.providerID = providerID
        self.rawID = rawID
        self.email = email
        self.displayName = displayName
        self.photoURL = photoURL
        self.phoneNumber = phoneNumber
        self.screenName = screenName
    }
}
