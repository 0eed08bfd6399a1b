import Foundation

/// Behaviour switches of the sandbox; the defaults reproduce the real providers.
public struct SandboxSettings: Sendable {
    /// `Cache-Control: max-age` on the Google and Microsoft JWKS answers (those providers send one); `nil` sends none.
    public var jwksMaxAge: Int?
    /// How far an OAuth 1.0a `oauth_timestamp` may be from the sandbox clock (Twitter rejects stale requests).
    public var twitterTimestampWindow: TimeInterval
    /// Whether Graph `/me` requires `appsecret_proof` (the "Require App Secret" app setting).
    public var facebookRequiresAppSecretProof: Bool
    /// Whether the GitHub API refuses requests without `User-Agent` (the real one does, with 403).
    public var githubRequiresUserAgent: Bool
    /// Lifetime of Apple authorization codes (Apple: 5 minutes, single use).
    public var appleCodeLifetime: TimeInterval

    public init(
        jwksMaxAge: Int? = 21_600, twitterTimestampWindow: TimeInterval = 300,
        facebookRequiresAppSecretProof: Bool = true, githubRequiresUserAgent: Bool = true,
        appleCodeLifetime: TimeInterval = 300
    ) {
        self.jwksMaxAge = jwksMaxAge
        self.twitterTimestampWindow = twitterTimestampWindow
        self.facebookRequiresAppSecretProof = facebookRequiresAppSecretProof
        self.githubRequiresUserAgent = githubRequiresUserAgent
        self.appleCodeLifetime = appleCodeLifetime
    }
}
