import Foundation
import Hummingbird

extension SandboxProvider {
    /// Google.
    public static let google = SandboxProvider(id: "google.com")
}

extension SandboxCredentials {
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

    /// The app registered with Google.
    public var google: Google {
        get { app(.google, as: Google.self) }
        set { apps[SandboxProvider.google.firebaseProviderID] = newValue }
    }
}

extension SandboxEndpoints {
    public struct Google: Sendable {
        /// Stand-in for Google's API hosts (www.googleapis.com, oauth2.googleapis.com, openidconnect.googleapis.com).
        public var baseURL: String
        /// `https://accounts.google.com` and `accounts.google.com`.
        public var issuers: [String]
        public var jwksURL: String
        public var tokenInfoURL: String
        public var userInfoURL: String
        public var discoveryURL: String
        public var credentials: SandboxCredentials.Google
    }

    public var google: Google { value(.google, as: Google.self) }
}

extension SandboxIdentity {
    /// A Gmail account with profile scope granted.
    public static let googleGmail = SandboxIdentity(
        provider: .google, subject: "109876543210987654321", email: "grace.hopper.sandbox@gmail.com",
        emailVerified: true, displayName: "Grace Hopper", givenName: "Grace", familyName: "Hopper",
        photoURL: "https://lh3.googleusercontent.com/a/ACg8ocSandboxGrace=s96-c", locale: "en")
    /// A Google Workspace account (`hd` claim).
    public static let googleWorkspace = SandboxIdentity(
        provider: .google, subject: "104455667788990011223", email: "ada@example.com", emailVerified: true,
        displayName: "Ada Lovelace", givenName: "Ada", familyName: "Lovelace",
        photoURL: "https://lh3.googleusercontent.com/a/ACg8ocSandboxAda=s96-c", hostedDomain: "example.com",
        locale: "en-GB")
    /// A Google account whose (non-Gmail) address is not verified.
    public static let googleUnverified = SandboxIdentity(
        provider: .google, subject: "117788990011223344556", email: "linus@example.org", emailVerified: false,
        displayName: "Linus Unverified", givenName: "Linus", familyName: "Unverified")
}

extension SandboxProviderDefinition {
    /// Google: keys, tokeninfo and userinfo, the consent page `o/oauth2/v2/auth` and `token`.
    static let google = SandboxProviderDefinition(
        id: "google.com", pathPrefix: "google", name: "Google", accent: "#1a73e8", keyIDStyle: .hex40,
        routes: { [GoogleRoutes(sandbox: $0)] },
        authorization: SandboxAuthorization(
            authorizePaths: ["o/oauth2/v2/auth"], tokenPaths: ["token"],
            clientSecret: { sandbox, _, clientID in
                sandbox.credentials.google.clientIDs.contains(clientID) ? sandbox.credentials.google.webClientSecret : nil
            },
            issue: { sandbox, grant, _ in
                let scopes = grant.scopes.map {
                    $0 == "email"
                        ? "https://www.googleapis.com/auth/userinfo.email" : $0 == "profile" ? "https://www.googleapis.com/auth/userinfo.profile" : $0
                }
                let accessToken = try sandbox.googleAccessToken(for: grant.identity, clientID: grant.clientID, scopes: scopes)
                let idToken = try sandbox.googleIDToken(
                    for: grant.identity, audience: grant.clientID, nonce: grant.nonce.map(SandboxNonce.claim),
                    includeProfile: grant.scopes.contains("profile"), accessToken: accessToken)
                return SandboxHTTP.json([
                    "access_token": .string(accessToken), "expires_in": 3599, "scope": .string(scopes.joined(separator: " ")),
                    "token_type": "Bearer", "id_token": .string(idToken),
                ])
            }),
        makeCredentials: {
            let lower = "abcdefghijklmnopqrstuvwxyz0123456789"
            let project = SandboxRandom.digits(12)
            func client(_ number: String) -> String { "\(number)-\(SandboxRandom.string(32, from: lower)).apps.googleusercontent.com" }
            return SandboxCredentials.Google(
                webClientID: client(project), webClientSecret: "GOCSPX-\(SandboxRandom.base64URL(bytes: 21))", iosClientID: client(project),
                androidClientID: client(project), otherProjectClientID: client(SandboxRandom.digits(12)))
        },
        endpoints: { sandbox, google in
            let value = SandboxEndpoints.Google(
                baseURL: google, issuers: [Sandbox.googleIssuer, Sandbox.googleLegacyIssuer], jwksURL: "\(google)/oauth2/v3/certs",
                tokenInfoURL: "\(google)/tokeninfo", userInfoURL: "\(google)/oauth2/v3/userinfo",
                discoveryURL: "\(google)/.well-known/openid-configuration", credentials: sandbox.credentials.google)
            return (
                value,
                [
                    "google.baseURL": value.baseURL, "google.issuers": value.issuers.joined(separator: ","), "google.jwksURL": value.jwksURL,
                    "google.tokenInfoURL": value.tokenInfoURL, "google.userInfoURL": value.userInfoURL, "google.discoveryURL": value.discoveryURL,
                    "google.clientIDs": value.credentials.clientIDs.joined(separator: ","), "google.webClientID": value.credentials.webClientID,
                    "google.webClientSecret": value.credentials.webClientSecret,
                ]
            )
        },
        presets: [.googleGmail, .googleWorkspace, .googleUnverified],
        nativeCredential: { sandbox, identity, rawNonce in
            .init(idToken: try sandbox.googleIDToken(for: identity, nonce: rawNonce.map(SandboxNonce.raw)))
        })
}

extension GoogleRoutes: SandboxRoutes {}
