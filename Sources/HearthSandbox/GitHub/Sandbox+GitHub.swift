import Foundation

extension Sandbox {
    /// A GitHub OAuth app user access token (`gho_…`, 40 characters), valid at `/user`, `/user/emails` and the
    /// token check until revoked. GitHub OAuth tokens do not expire.
    /// - Parameters:
    ///   - clientID: the OAuth app it was issued to; ``SandboxCredentials/GitHub/clientID`` by default.
    ///   - scopes: granted scopes; `/user/emails` needs `user:email` or `user`.
    public func githubAccessToken(
        for identity: SandboxIdentity, clientID: String? = nil, scopes: [String] = ["read:user", "user:email"]
    ) throws -> String {
        try require(identity, is: .github)
        return issueAccessToken(
            "gho_\(SandboxRandom.alphanumeric(36))", provider: .github, identity: identity,
            clientID: clientID ?? credentials.github.clientID, scopes: scopes, expiresIn: nil)
    }

    /// The secret of a GitHub OAuth app the sandbox knows.
    func githubSecret(_ clientID: String) -> String? {
        let github = credentials.github
        switch clientID {
        case github.clientID: return github.clientSecret
        case github.otherClientID: return github.otherClientSecret
        default: return nil
        }
    }
}
