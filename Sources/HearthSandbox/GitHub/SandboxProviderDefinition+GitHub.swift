import Foundation
import HTTPTypes
import HearthFormEncoding
import Hummingbird

extension SandboxProvider {
    /// GitHub OAuth apps.
    public static let github = SandboxProvider(id: "github.com")
}

extension SandboxCredentials {
    /// A GitHub OAuth app.
    public struct GitHub: Sendable {
        public var clientID: String
        public var clientSecret: String
        public var otherClientID: String
        public var otherClientSecret: String
    }

    /// The app registered with GitHub.
    public var github: GitHub {
        get { app(.github, as: GitHub.self) }
        set { apps[SandboxProvider.github.firebaseProviderID] = newValue }
    }
}

extension SandboxEndpoints {
    public struct GitHub: Sendable {
        /// Stand-in for `https://api.github.com`.
        public var apiBaseURL: String
        public var credentials: SandboxCredentials.GitHub
    }

    public var github: GitHub { value(.github, as: GitHub.self) }
}

extension SandboxIdentity {
    /// A GitHub user with a private verified primary email and two more addresses.
    public static let githubUser = SandboxIdentity(
        provider: .github, subject: "9919191", email: "mona@example.com", emailVerified: true,
        displayName: "Mona Lisa Octocat", photoURL: "https://avatars.githubusercontent.com/u/9919191?v=4",
        screenName: "sandbox-mona",
        otherEmails: [
            SandboxEmailAddress(email: "9919191+sandbox-mona@users.noreply.github.com", verified: true),
            SandboxEmailAddress(email: "mona.old@example.org", verified: false),
        ])
    /// A GitHub user whose primary email is public but unverified, and who has no display name.
    public static let githubUnverified = SandboxIdentity(
        provider: .github, subject: "8818181", email: "hubot@example.com", emailVerified: false,
        photoURL: "https://avatars.githubusercontent.com/u/8818181?v=4", screenName: "sandbox-hubot",
        emailIsPublic: true)
}

extension SandboxProviderDefinition {
    /// GitHub: `/user`, `/user/emails`, the token check, `login/oauth/authorize` and
    /// `login/oauth/access_token` (errors with HTTP 200, a form or JSON answer).
    static let github = SandboxProviderDefinition(
        id: "github.com", pathPrefix: "github", name: "GitHub", accent: "#24292f", keyIDStyle: .uuid,
        routes: { [GitHubRoutes(sandbox: $0)] },
        authorization: SandboxAuthorization(
            authorizePaths: ["login/oauth/authorize"], tokenPaths: ["login/oauth/access_token"],
            clientSecret: { sandbox, _, clientID in sandbox.githubSecret(clientID) }, requiresResponseType: false, requiresGrantType: false,
            issue: { sandbox, grant, request in
                let accessToken = try sandbox.githubAccessToken(for: grant.identity, clientID: grant.clientID, scopes: grant.scopes)
                let fields = [("access_token", accessToken), ("scope", grant.scopes.joined(separator: ",")), ("token_type", "bearer")]
                if AuthorizationRoutes.wantsJSON(request) {
                    return SandboxHTTP.json(.object(Dictionary(uniqueKeysWithValues: fields.map { ($0.0, SandboxJSON.string($0.1)) })))
                }
                return SandboxHTTP.text(FormEncoding.encode(fields), status: .ok, contentType: "application/x-www-form-urlencoded; charset=utf-8")
            },
            tokenError: { error, description, _ in
                let code = error == "invalid_client" ? "incorrect_client_credentials" : error == "invalid_grant" ? "bad_verification_code" : error
                return SandboxHTTP.json([
                    "error": .string(code), "error_description": .string(description ?? code),
                    "error_uri": "https://docs.github.com/apps/managing-oauth-apps/troubleshooting-oauth-app-access-token-request-errors",
                ])
            }),
        makeCredentials: {
            SandboxCredentials.GitHub(
                clientID: "Ov23li\(SandboxRandom.alphanumeric(14))", clientSecret: SandboxRandom.hex(bytes: 20),
                otherClientID: "Ov23li\(SandboxRandom.alphanumeric(14))", otherClientSecret: SandboxRandom.hex(bytes: 20))
        },
        endpoints: { sandbox, github in
            let value = SandboxEndpoints.GitHub(apiBaseURL: github, credentials: sandbox.credentials.github)
            return (
                value,
                [
                    "github.apiBaseURL": value.apiBaseURL, "github.clientID": value.credentials.clientID,
                    "github.clientSecret": value.credentials.clientSecret,
                ]
            )
        },
        presets: [.githubUser, .githubUnverified],
        nativeCredential: { sandbox, identity, _ in .init(accessToken: try sandbox.githubAccessToken(for: identity)) })
}

extension GitHubRoutes: SandboxRoutes {}
