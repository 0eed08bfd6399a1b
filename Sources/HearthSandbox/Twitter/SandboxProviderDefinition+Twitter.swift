import Foundation
import Hummingbird

extension SandboxProvider {
    /// Twitter (X), OAuth 1.0a.
    public static let twitter = SandboxProvider(id: "twitter.com")
}

extension SandboxCredentials {
    /// A Twitter (X) app's API key and secret (OAuth 1.0a consumer).
    public struct Twitter: Sendable {
        public var consumerKey: String
        public var consumerSecret: String
        public var otherConsumerKey: String
        public var otherConsumerSecret: String
    }

    /// The app registered with Twitter.
    public var twitter: Twitter {
        get { app(.twitter, as: Twitter.self) }
        set { apps[SandboxProvider.twitter.firebaseProviderID] = newValue }
    }
}

extension SandboxEndpoints {
    public struct Twitter: Sendable {
        /// Stand-in for `https://api.twitter.com`; sign requests with the URL actually called.
        public var apiBaseURL: String
        public var verifyCredentialsURL: String
        public var credentials: SandboxCredentials.Twitter
    }

    public var twitter: Twitter { value(.twitter, as: Twitter.self) }
}

extension SandboxIdentity {
    /// A Twitter user whose id is above 2^53 (JSON `id` loses precision; use `id_str`).
    public static let twitterUser = SandboxIdentity(
        provider: .twitter, subject: "1457823950123456789", email: "jack@example.com", emailVerified: true,
        displayName: "Jack Sandbox",
        photoURL: "https://pbs.twimg.com/profile_images/1457823950123456789/sandbox_normal.png",
        screenName: "sandbox_jack")
    /// A Twitter user with no confirmed email (`email` is `null` even with `include_email=true`).
    public static let twitterNoEmail = SandboxIdentity(
        provider: .twitter, subject: "6253282", displayName: "Twitter API Sandbox",
        photoURL: "https://pbs.twimg.com/profile_images/6253282/api_normal.png", screenName: "sandbox_api")
}

extension SandboxProviderDefinition {
    /// Twitter: `verify_credentials`, and OAuth 1.0a's request token, authenticate page and access token
    /// (its own browser protocol, so no OAuth 2.0 consent page).
    static let twitter = SandboxProviderDefinition(
        id: "twitter.com", pathPrefix: "twitter", name: "Twitter", accent: "#1d9bf0", keyIDStyle: .uuid,
        routes: { [TwitterRoutes(sandbox: $0), TwitterOAuthRoutes(sandbox: $0)] },
        makeCredentials: {
            SandboxCredentials.Twitter(
                consumerKey: SandboxRandom.alphanumeric(25), consumerSecret: SandboxRandom.alphanumeric(50),
                otherConsumerKey: SandboxRandom.alphanumeric(25), otherConsumerSecret: SandboxRandom.alphanumeric(50))
        },
        endpoints: { sandbox, twitter in
            let value = SandboxEndpoints.Twitter(
                apiBaseURL: twitter, verifyCredentialsURL: "\(twitter)/1.1/account/verify_credentials.json", credentials: sandbox.credentials.twitter)
            return (
                value,
                [
                    "twitter.apiBaseURL": value.apiBaseURL, "twitter.consumerKey": value.credentials.consumerKey,
                    "twitter.consumerSecret": value.credentials.consumerSecret,
                ]
            )
        },
        presets: [.twitterUser, .twitterNoEmail],
        nativeCredential: { sandbox, identity, _ in
            let token = try sandbox.twitterAccessToken(for: identity)
            return .init(accessToken: token.token, tokenSecret: token.secret)
        })
}

extension TwitterRoutes: SandboxRoutes {}

extension TwitterOAuthRoutes: SandboxRoutes {}
