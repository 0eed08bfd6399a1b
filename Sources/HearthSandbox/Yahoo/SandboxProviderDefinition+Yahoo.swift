import Foundation
import Hummingbird

extension SandboxProvider {
    /// Yahoo: OpenID Connect at `https://api.login.yahoo.com`, ID tokens signed ES256.
    public static let yahoo = SandboxProvider(id: "yahoo.com")
}

extension SandboxCredentials {
    /// A Yahoo app (developer.yahoo.com): the OAuth 2.0 client id and secret, plus another app's.
    public struct Yahoo: Sendable {
        /// Client ID (Consumer Key), e.g. `dj0yJmk9…` (base64 of `v=2&i=…&d=…&s=consumersecret&sv=0&x=…`).
        public var clientID: String
        /// Client Secret (Consumer Secret): 40 hexadecimal digits.
        public var clientSecret: String
        /// Another app, for tokens issued to someone else.
        public var otherClientID: String
        public var otherClientSecret: String

        /// A fresh random app.
        static func generate() -> (id: String, secret: String) {
            let application = Data("ai=\(SandboxRandom.alphanumeric(8))&pi=0".utf8).base64EncodedString()
            let inner = "v=2&i=\(SandboxRandom.alphanumeric(12))&d=\(application)&s=consumersecret&sv=0&x=\(SandboxRandom.hex(bytes: 1))"
            return (Data(inner.utf8).base64EncodedString().replacingOccurrences(of: "=", with: "-"), SandboxRandom.hex(bytes: 20))
        }
    }

    /// The app registered with Yahoo.
    public var yahoo: Yahoo {
        get { app(.yahoo, as: Yahoo.self) }
        set { apps[SandboxProvider.yahoo.firebaseProviderID] = newValue }
    }
}

extension SandboxEndpoints {
    public struct Yahoo: Sendable {
        /// Stand-in for `https://api.login.yahoo.com`.
        public var baseURL: String
        /// `https://api.login.yahoo.com` (tokens carry the real issuer).
        public var issuer: String
        /// `<baseURL>/.well-known/openid-configuration`.
        public var discoveryURL: String
        /// `<baseURL>/openid/v1/certs`: EC P-256 keys (ES256).
        public var jwksURL: String
        /// `<baseURL>/oauth2/request_auth`.
        public var authorizationURL: String
        /// `<baseURL>/oauth2/get_token`.
        public var tokenURL: String
        /// `<baseURL>/openid/v1/userinfo`.
        public var userInfoURL: String
        public var credentials: SandboxCredentials.Yahoo
    }

    public var yahoo: Yahoo { value(.yahoo, as: Yahoo.self) }
}

extension SandboxIdentity {
    /// A Yahoo account with a verified `@yahoo.com` address and a full profile.
    public static let yahooUser = SandboxIdentity(
        provider: .yahoo, subject: "QX7RJ2M4KZP5WNB3VDLC6TYHEA", email: "yvonne.sandbox@yahoo.com", emailVerified: true,
        displayName: "Yvonne Yodel", givenName: "Yvonne", familyName: "Yodel",
        photoURL: "https://s.yimg.com/ag/images/default_user_profile_pic_192sq.jpg", screenName: "Yvonne", locale: "en-US")
    /// A Yahoo account whose sign-in carries no email (the `email` scope not granted or no address on file).
    public static let yahooNoEmail = SandboxIdentity(
        provider: .yahoo, subject: "B3HN6FQ2TLW8XKCE4PZRUJ7M5D", displayName: "Yusuf Nomail", givenName: "Yusuf",
        familyName: "Nomail", screenName: "Yusuf", locale: "en-GB")
}

extension SandboxProviderDefinition {
    /// Yahoo: discovery, `openid/v1/certs` (P-256 keys, ES256), `openid/v1/userinfo`, the consent page
    /// `oauth2/request_auth` and `oauth2/get_token`.
    static let yahoo = SandboxProviderDefinition(
        id: "yahoo.com", pathPrefix: "yahoo", name: "Yahoo", accent: "#6001d2", keyIDStyle: .hex32, algorithm: .es256,
        routes: { [YahooRoutes(sandbox: $0)] },
        authorization: SandboxAuthorization(
            authorizePaths: ["oauth2/request_auth"], tokenPaths: ["oauth2/get_token"],
            clientSecret: { sandbox, _, clientID in sandbox.yahooSecret(clientID) },
            issue: { sandbox, grant, _ in
                let accessToken = try sandbox.yahooAccessToken(for: grant.identity, clientID: grant.clientID, scopes: grant.scopes)
                let idToken = try sandbox.yahooIDToken(
                    for: grant.identity, clientID: grant.clientID, nonce: grant.nonce.map(SandboxNonce.claim), accessToken: accessToken)
                return SandboxHTTP.json([
                    "access_token": .string(accessToken), "token_type": "bearer", "expires_in": 3600,
                    "refresh_token": .string(SandboxRandom.base64URL(bytes: 48)), "xoauth_yahoo_guid": .string(grant.identity.subject),
                    "id_token": .string(idToken),
                ])
            }),
        makeCredentials: {
            let app = SandboxCredentials.Yahoo.generate()
            let other = SandboxCredentials.Yahoo.generate()
            return SandboxCredentials.Yahoo(clientID: app.id, clientSecret: app.secret, otherClientID: other.id, otherClientSecret: other.secret)
        },
        endpoints: { sandbox, yahoo in
            let value = SandboxEndpoints.Yahoo(
                baseURL: yahoo, issuer: Sandbox.yahooIssuer, discoveryURL: "\(yahoo)/.well-known/openid-configuration",
                jwksURL: "\(yahoo)/openid/v1/certs", authorizationURL: "\(yahoo)/oauth2/request_auth", tokenURL: "\(yahoo)/oauth2/get_token",
                userInfoURL: "\(yahoo)/openid/v1/userinfo", credentials: sandbox.credentials.yahoo)
            return (
                value,
                [
                    "yahoo.baseURL": value.baseURL, "yahoo.issuer": value.issuer, "yahoo.discoveryURL": value.discoveryURL,
                    "yahoo.jwksURL": value.jwksURL, "yahoo.authorizationURL": value.authorizationURL, "yahoo.tokenURL": value.tokenURL,
                    "yahoo.userInfoURL": value.userInfoURL, "yahoo.clientID": value.credentials.clientID,
                    "yahoo.clientSecret": value.credentials.clientSecret,
                ]
            )
        },
        presets: [.yahooUser, .yahooNoEmail],
        nativeCredential: { sandbox, identity, rawNonce in
            .init(idToken: try sandbox.yahooIDToken(for: identity, nonce: rawNonce.map(SandboxNonce.raw)))
        })
}

extension YahooRoutes: SandboxRoutes {}
