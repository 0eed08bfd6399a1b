import Foundation

extension Sandbox {
    /// An OAuth 1.0a access token and secret as Twitter's `/oauth/access_token` returns them, accepted by
    /// verify_credentials when the request is signed with the same consumer's key and secret.
    /// - Parameter consumerKey: the app it was issued to; ``SandboxCredentials/Twitter/consumerKey`` by default,
    ///   or ``SandboxCredentials/Twitter/otherConsumerKey`` for a token of another app.
    public func twitterAccessToken(for identity: SandboxIdentity, consumerKey: String? = nil) throws -> SandboxOAuth1Token {
        try require(identity, is: .twitter)
        let token = SandboxOAuth1Token(
            token: "\(identity.subject)-\(SandboxRandom.alphanumeric(40))", secret: SandboxRandom.alphanumeric(45))
        let issued = IssuedTwitterToken(
            identity: identity, consumerKey: consumerKey ?? credentials.twitter.consumerKey, secret: token.secret)
        withState { state in
            state.remember(identity)
            state.twitterTokens[token.token] = issued
        }
        return token
    }

    /// The consumer secret of a Twitter app the sandbox knows.
    func twitterConsumerSecret(_ consumerKey: String) -> String? {
        let twitter = credentials.twitter
        switch consumerKey {
        case twitter.consumerKey: return twitter.consumerSecret
        case twitter.otherConsumerKey: return twitter.otherConsumerSecret
        default: return nil
        }
    }
}
