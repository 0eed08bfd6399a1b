import Crypto
import Foundation

/// The relying-party credentials the sandbox expects: what a developer would copy from each provider's console.
///
/// ``generate()`` makes fresh random secrets; ids that look like reverse-DNS names are fixed so logs read well.
/// Each provider also has an "other" app, registered with the sandbox but not meant to be configured in Hearth,
/// so that tests can present credentials issued to someone else's app.
public struct SandboxCredentials: Sendable {
    /// The generic OIDC issuer every sandbox has (Firebase provider id `oidc.sandbox`).
    public static let defaultOIDCIssuerName = "sandbox"

    /// Sign in with Apple: Services ID, bundle ids, and the `.p8` key that signs the ES256 client secret.
    public struct Apple: Sendable {
        /// 10-character Team ID (`iss` of the client secret).
        public var teamID: String
        /// Services ID: the web `client_id`.
        public var servicesID: String
        /// App bundle ids: the native `client_id`s (token `aud`).
        public var bundleIDs: [String]
        /// 10-character Key ID of the `.p8` key (`kid` of the client secret).
        public var keyID: String
        /// The `.p8` private key: PKCS#8 PEM of a P-256 key.
        public var privateKeyPEM: String

        /// Every client id Apple accepts for this team: the Services ID and the bundle ids.
        public var clientIDs: [String] { [servicesID] + bundleIDs }
    }

    /// Microsoft identity platform app registration.
    public struct Microsoft: Sendable {
        /// Application (client) id GUID: the ID token `aud`.
        public var clientID: String
        public var clientSecret: String
        /// Another registration's client id, for wrong-audience tests.
        public var otherClientID: String
    }

    /// Google OAuth clients of one project, plus one client of another project.
    public struct Google: Sendable {
        /// Web client id (Firebase's default `aud`).
        public var webClientID: String
        public var webClientSecret: String
        /// iOS and Android client ids of the same project (tokens from those clients have `azp` ≠ `aud`).
        public var iosClientID: String
        public var androidClientID: String
        /// A client id of an unrelated project: tokens for it must be refused.
        public var otherProjectClientID: String

        /// The client ids of this project.
        public var clientIDs: [String] { [webClientID, iosClientID, androidClientID] }
    }

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

    /// A GitHub OAuth app.
    public struct GitHub: Sendable {
        public var clientID: String
        public var clientSecret: String
        public var otherClientID: String
        public var otherClientSecret: String
    }

    /// A Twitter (X) app's API key and secret (OAuth 1.0a consumer).
    public struct Twitter: Sendable {
        public var consumerKey: String
        public var consumerSecret: String
        public var otherConsumerKey: String
        public var otherConsumerSecret: String
    }

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

    /// A relying party registered at a generic OIDC issuer.
    public struct OIDCClient: Sendable, Hashable {
        public var clientID: String
        public var clientSecret: String

        public init(clientID: String, clientSecret: String) {
            self.clientID = clientID
            self.clientSecret = clientSecret
        }

        /// A fresh random client.
        public static func generate() -> OIDCClient {
            OIDCClient(clientID: "hearth-\(SandboxRandom.alphanumeric(12).lowercased())", clientSecret: SandboxRandom.base64URL(bytes: 32))
        }
    }

    public var apple: Apple
    public var microsoft: Microsoft
    public var google: Google
    public var facebook: Facebook
    public var github: GitHub
    public var twitter: Twitter
    public var yahoo: Yahoo
    /// Generic OIDC issuers by name, with the client registered at each.
    public var oidc: [String: OIDCClient]

    public init(
        apple: Apple, microsoft: Microsoft, google: Google, facebook: Facebook, github: GitHub, twitter: Twitter,
        yahoo: Yahoo, oidc: [String: OIDCClient]
    ) {
        self.apple = apple
        self.microsoft = microsoft
        self.google = google
        self.facebook = facebook
        self.github = github
        self.twitter = twitter
        self.yahoo = yahoo
        self.oidc = oidc
    }

    /// Fresh credentials with random secrets and keys.
    public static func generate() -> SandboxCredentials {
        let upper = "ABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789"
        let lower = "abcdefghijklmnopqrstuvwxyz0123456789"
        let project = SandboxRandom.digits(12)
        func googleClient(_ number: String) -> String {
            "\(number)-\(SandboxRandom.string(32, from: lower)).apps.googleusercontent.com"
        }
        let yahoo = Yahoo.generate()
        let otherYahoo = Yahoo.generate()
        return SandboxCredentials(
            apple: Apple(
                teamID: SandboxRandom.string(10, from: upper), servicesID: "com.example.hearth.signin",
                bundleIDs: ["com.example.hearth"], keyID: SandboxRandom.string(10, from: upper),
                privateKeyPEM: P256.Signing.PrivateKey().pemRepresentation),
            microsoft: Microsoft(
                clientID: SandboxRandom.uuid(), clientSecret: "\(SandboxRandom.alphanumeric(3))8Q~\(SandboxRandom.alphanumeric(36))",
                otherClientID: SandboxRandom.uuid()),
            google: Google(
                webClientID: googleClient(project), webClientSecret: "GOCSPX-\(SandboxRandom.base64URL(bytes: 21))",
                iosClientID: googleClient(project), androidClientID: googleClient(project),
                otherProjectClientID: googleClient(SandboxRandom.digits(12))),
            facebook: Facebook(
                appID: SandboxRandom.digits(16), appSecret: SandboxRandom.hex(bytes: 16), appName: "Hearth Sandbox",
                otherAppID: SandboxRandom.digits(16), otherAppSecret: SandboxRandom.hex(bytes: 16)),
            github: GitHub(
                clientID: "Ov23li\(SandboxRandom.alphanumeric(14))", clientSecret: SandboxRandom.hex(bytes: 20),
                otherClientID: "Ov23li\(SandboxRandom.alphanumeric(14))", otherClientSecret: SandboxRandom.hex(bytes: 20)),
            twitter: Twitter(
                consumerKey: SandboxRandom.alphanumeric(25), consumerSecret: SandboxRandom.alphanumeric(50),
                otherConsumerKey: SandboxRandom.alphanumeric(25), otherConsumerSecret: SandboxRandom.alphanumeric(50)),
            yahoo: Yahoo(
                clientID: yahoo.id, clientSecret: yahoo.secret, otherClientID: otherYahoo.id, otherClientSecret: otherYahoo.secret),
            oidc: [defaultOIDCIssuerName: .generate()])
    }
}
