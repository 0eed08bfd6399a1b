import Foundation
import Hummingbird

extension SandboxProvider {
    /// Facebook: the Graph API and Limited Login.
    public static let facebook = SandboxProvider(id: "facebook.com")
}

extension SandboxCredentials {
    /// A Facebook app.
    public struct Facebook: Sendable {
        public var appID: String
        public var appSecret: String
        /// The `application` name debug_token reports.
        public var appName: String
        /// Another app, for tokens issued to someone else.
        public var otherAppID: String
        public var otherAppSecret: String

        /// The app access token `APPID|SECRET`.
        public var appAccessToken: String { "\(appID)|\(appSecret)" }
    }

    /// The app registered with Facebook.
    public var facebook: Facebook {
        get { app(.facebook, as: Facebook.self) }
        set { apps[SandboxProvider.facebook.firebaseProviderID] = newValue }
    }
}

extension SandboxEndpoints {
    public struct Facebook: Sendable {
        /// Stand-in for `https://graph.facebook.com` (a version segment such as `/v24.0` may follow).
        public var graphBaseURL: String
        /// `https://www.facebook.com`.
        public var limitedLoginIssuer: String
        /// Stand-in for `https://limited.facebook.com/.well-known/oauth/openid/jwks/`.
        public var limitedLoginJWKSURL: String
        public var limitedLoginDiscoveryURL: String
        public var credentials: SandboxCredentials.Facebook
    }

    public var facebook: Facebook { value(.facebook, as: Facebook.self) }
}

extension SandboxIdentity {
    /// A Facebook account that granted `email`.
    public static let facebookUser = SandboxIdentity(
        provider: .facebook, subject: "10158291837465123", email: "frank@example.com", emailVerified: false,
        displayName: "Frank Sandbox", givenName: "Frank", familyName: "Sandbox",
        photoURL: "https://platform-lookaside.fbsbx.com/platform/profilepic/?asid=10158291837465123&height=50&width=50")
    /// A Facebook account without an email (phone sign-up).
    public static let facebookNoEmail = SandboxIdentity(
        provider: .facebook, subject: "10160011223344556", displayName: "Nora Noemail", givenName: "Nora",
        familyName: "Noemail")
}

extension SandboxProviderDefinition {
    /// Facebook: `debug_token`, `/me`, Limited Login's keys, the dialog `[vXX.X/]dialog/oauth` and
    /// `[vXX.X/]oauth/access_token` (Graph errors).
    static let facebook = SandboxProviderDefinition(
        id: "facebook.com", pathPrefix: "facebook", name: "Facebook", accent: "#1877f2", keyIDStyle: .hex40,
        routes: { [FacebookRoutes(sandbox: $0)] },
        authorization: SandboxAuthorization(
            authorizePaths: ["dialog/oauth", ":version/dialog/oauth"], tokenPaths: ["oauth/access_token", ":version/oauth/access_token"],
            tokenAcceptsGET: true, clientSecret: { sandbox, _, clientID in sandbox.facebookApp(clientID)?.secret }, requiresGrantType: false,
            issue: { sandbox, grant, _ in
                let accessToken = try sandbox.facebookAccessToken(for: grant.identity, appID: grant.clientID, scopes: grant.scopes)
                return SandboxHTTP.json(["access_token": .string(accessToken), "token_type": "bearer", "expires_in": 5_183_944])
            },
            tokenError: { error, description, _ in FacebookRoutes.graphError(description ?? error, code: error == "invalid_client" ? 1 : 100) }),
        makeCredentials: {
            SandboxCredentials.Facebook(
                appID: SandboxRandom.digits(16), appSecret: SandboxRandom.hex(bytes: 16), appName: "Hearth Sandbox",
                otherAppID: SandboxRandom.digits(16), otherAppSecret: SandboxRandom.hex(bytes: 16))
        },
        endpoints: { sandbox, facebook in
            let value = SandboxEndpoints.Facebook(
                graphBaseURL: facebook, limitedLoginIssuer: Sandbox.facebookLimitedLoginIssuer,
                limitedLoginJWKSURL: "\(facebook)/.well-known/oauth/openid/jwks/",
                limitedLoginDiscoveryURL: "\(facebook)/.well-known/openid-configuration/", credentials: sandbox.credentials.facebook)
            return (
                value,
                [
                    "facebook.graphBaseURL": value.graphBaseURL, "facebook.limitedLoginIssuer": value.limitedLoginIssuer,
                    "facebook.limitedLoginJWKSURL": value.limitedLoginJWKSURL, "facebook.appID": value.credentials.appID,
                    "facebook.appSecret": value.credentials.appSecret,
                ]
            )
        },
        presets: [.facebookUser, .facebookNoEmail],
        nativeCredential: { sandbox, identity, _ in .init(accessToken: try sandbox.facebookAccessToken(for: identity)) })
}

extension FacebookRoutes: SandboxRoutes {}
