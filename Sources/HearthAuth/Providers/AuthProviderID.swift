/// A provider id, as FirebaseAuth 11 spells them.
public struct AuthProviderID: Equatable, Hashable, Sendable {
    /// The id on the wire: `"apple.com"`, `"password"`, …
    public let rawValue: String

    private init(_ rawValue: String) { self.rawValue = rawValue }

    public static let apple = AuthProviderID("apple.com")
    public static let email = AuthProviderID("password")
    public static let facebook = AuthProviderID("facebook.com")
    public static let gameCenter = AuthProviderID("gc.apple.com")
    public static let gitHub = AuthProviderID("github.com")
    public static let google = AuthProviderID("google.com")
    public static let phone = AuthProviderID("phone")
    /// Any other id: `"microsoft.com"`, `"twitter.com"`, `"yahoo.com"`, `"oidc.<name>"`, …
    public static func custom(_ value: String) -> AuthProviderID { AuthProviderID(value) }
}

/// `"password"`: the provider id of e-mail and password.
public let EmailAuthProviderID = "password"
/// `"google.com"`
public let GoogleAuthProviderID = "google.com"
/// `"facebook.com"`
public let FacebookAuthProviderID = "facebook.com"
/// `"twitter.com"`
public let TwitterAuthProviderID = "twitter.com"
/// `"github.com"`
public let GitHubAuthProviderID = "github.com"
/// `"phone"`
public let PhoneAuthProviderID = "phone"
/// `"gc.apple.com"`
public let GameCenterAuthProviderID = "gc.apple.com"
/// `"apple.com"` (FirebaseAuth has no such global; it is here for symmetry.)
public let AppleAuthProviderID = "apple.com"
/// `"microsoft.com"` (FirebaseAuth has no such global; it is here for symmetry.)
public let MicrosoftAuthProviderID = "microsoft.com"

/// `"password"`: the sign-in method of an e-mail with a password, as `fetchSignInMethods(forEmail:)` lists it.
public let EmailPasswordAuthSignInMethod = "password"
/// `"emailLink"`
public let EmailLinkAuthSignInMethod = "emailLink"
/// `"google.com"`
public let GoogleAuthSignInMethod = "google.com"
/// `"facebook.com"`
public let FacebookAuthSignInMethod = "facebook.com"
/// `"twitter.com"`
public let TwitterAuthSignInMethod = "twitter.com"
/// `"github.com"`
public let GitHubAuthSignInMethod = "github.com"
/// `"phone"`
public let PhoneAuthSignInMethod = "phone"
