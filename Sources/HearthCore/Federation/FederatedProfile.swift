import Foundation

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
    /// What the ID tokens of the sign-in carry as `firebase.sign_in_attributes`: a SAML assertion's attributes.
    public var signInAttributes: [String: JSONValue]?

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

    /// The profile as Hearth keeps it, whatever the provider (or, for Apple's first-time name, the client)
    /// sent. An id with control characters fails the sign-in with `INVALID_IDP_RESPONSE`. NUL characters,
    /// which no store keeps, are dropped from names and the screen name; an e-mail with a control character
    /// is no e-mail, since without it the address could be another account's. A display name or photo URL
    /// Hearth would refuse from the user is left out (see ``UserText``).
    public func storable() throws -> FederatedProfile {
        func isPrintable(_ text: String) -> Bool { text.unicodeScalars.allSatisfy { $0.value >= 0x20 && $0.value != 0x7F } }
        func withoutNUL(_ text: String?) -> String? {
            guard let text, text.utf8.contains(0) else { return text }
            let cleaned = String(String.UnicodeScalarView(text.unicodeScalars.filter { $0 != "\u{0}" }))
                .trimmingCharacters(in: .whitespacesAndNewlines)
            return cleaned.isEmpty ? nil : cleaned
        }
        guard !rawID.isEmpty, isPrintable(rawID), isPrintable(providerID) else {
            throw HearthError(.invalidIDPResponse, detail: "The \(providerID) credential names no user Hearth can keep.")
        }
        var profile = self
        if let email, !isPrintable(email) {
            profile.email = nil
            profile.emailVerified = false
        }
        profile.displayName = UserText.fromProvider(displayName: withoutNUL(displayName))
        profile.firstName = withoutNUL(firstName)
        profile.lastName = withoutNUL(lastName)
        profile.screenName = withoutNUL(screenName)
        profile.photoURL = UserText.fromProvider(photoURL: photoURL)
        return profile
    }

    /// The link stored on the user.
    public var link: ProviderLink {
        ProviderLink(providerID: providerID, rawID: rawID, email: email, displayName: displayName, photoURL: photoURL, screenName: screenName)
    }
}
