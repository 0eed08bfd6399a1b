/// An identity provider the sandbox stands in for.
public enum SandboxProvider: Sendable, Hashable, CustomStringConvertible {
    case apple
    case microsoft
    case google
    case facebook
    case github
    case twitter
    /// Yahoo: OpenID Connect at `https://api.login.yahoo.com`, ID tokens signed ES256.
    case yahoo
    /// A generic OpenID Connect issuer, by the name in Firebase's `oidc.<name>` provider id.
    case oidc(String)

    /// The Firebase provider id: `apple.com`, `microsoft.com`, `google.com`, `facebook.com`, `github.com`,
    /// `twitter.com`, `yahoo.com` or `oidc.<name>`.
    public var firebaseProviderID: String {
        switch self {
        case .apple: "apple.com"
        case .microsoft: "microsoft.com"
        case .google: "google.com"
        case .facebook: "facebook.com"
        case .github: "github.com"
        case .twitter: "twitter.com"
        case .yahoo: "yahoo.com"
        case .oidc(let name): "oidc.\(name)"
        }
    }

    /// The path segment the provider is served under, e.g. `apple` or `oidc/<name>`.
    public var pathPrefix: String {
        switch self {
        case .apple: "apple"
        case .microsoft: "microsoft"
        case .google: "google"
        case .facebook: "facebook"
        case .github: "github"
        case .twitter: "twitter"
        case .yahoo: "yahoo"
        case .oidc(let name): "oidc/\(name)"
        }
    }

    public var description: String { firebaseProviderID }
}
