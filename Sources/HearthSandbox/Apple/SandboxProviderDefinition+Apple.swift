import Crypto
import Foundation
import Hummingbird

extension SandboxProvider {
    /// Sign in with Apple.
    public static let apple = SandboxProvider(id: "apple.com")
}

extension SandboxCredentials {
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

    /// The app registered with Apple.
    public var apple: Apple {
        get { app(.apple, as: Apple.self) }
        set { apps[SandboxProvider.apple.firebaseProviderID] = newValue }
    }
}

extension SandboxEndpoints {
    public struct Apple: Sendable {
        /// Stand-in for `https://appleid.apple.com`.
        public var baseURL: String
        /// `https://appleid.apple.com` (tokens carry the real issuer).
        public var issuer: String
        public var jwksURL: String
        public var tokenURL: String
        public var revokeURL: String
        public var discoveryURL: String
        public var credentials: SandboxCredentials.Apple
    }

    public var apple: Apple { value(.apple, as: Apple.self) }
}

extension SandboxIdentity {
    /// An Apple account sharing its real address (`is_private_email` "false"), native sign-in (`real_user_status` 2).
    public static let appleAlice = SandboxIdentity(
        provider: .apple, subject: "001928.a1b2c3d4e5f60718293a4b5c6d7e8f90.1207", email: "alice@example.com",
        emailVerified: true, displayName: "Alice Appleseed", givenName: "Alice", familyName: "Appleseed",
        isPrivateEmail: false, realUserStatus: 2)
    /// An Apple account hiding its address behind a private relay.
    public static let appleRelay = SandboxIdentity(
        provider: .apple, subject: "001928.0f1e2d3c4b5a69788796a5b4c3d2e1f0.0415",
        email: "x7k2mq9p4d@privaterelay.appleid.com", emailVerified: true, displayName: "Bob Relay",
        givenName: "Bob", familyName: "Relay", isPrivateEmail: true)
    /// A managed Apple Account (e.g. a student) whose token has no email at all.
    public static let appleNoEmail = SandboxIdentity(
        provider: .apple, subject: "001928.99aa88bb77cc66dd55ee44ff33001122.2231")
}

extension SandboxProviderDefinition {
    /// Sign in with Apple: `/auth/keys`, `/auth/token`, `/auth/revoke`, the consent page `auth/authorize`
    /// (`form_post`, the `user` JSON the first time an account approves an app).
    static let apple = SandboxProviderDefinition(
        id: "apple.com", pathPrefix: "apple", name: "Apple", accent: "#1d1d1f", keyIDStyle: .short,
        routes: { [AppleRoutes(sandbox: $0)] },
        authorization: SandboxAuthorization(
            authorizePaths: ["auth/authorize"],
            clientSecret: { sandbox, _, clientID in sandbox.credentials.apple.clientIDs.contains(clientID) ? "" : nil },
            check: { _, scopes, formPost in
                guard !formPost, scopes.contains(where: { $0 == "name" || $0 == "email" }) else { return nil }
                return ("invalid_request", "response_mode must be form_post when name or email scope is requested.")
            },
            cancelFields: [("error", "user_cancelled_authorize")],
            approve: { sandbox, approval in sandbox.approveApple(approval) }),
        makeCredentials: {
            let upper = "ABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789"
            return SandboxCredentials.Apple(
                teamID: SandboxRandom.string(10, from: upper), servicesID: "com.example.hearth.signin", bundleIDs: ["com.example.hearth"],
                keyID: SandboxRandom.string(10, from: upper), privateKeyPEM: P256.Signing.PrivateKey().pemRepresentation)
        },
        endpoints: { sandbox, apple in
            let value = SandboxEndpoints.Apple(
                baseURL: apple, issuer: Sandbox.appleIssuer, jwksURL: "\(apple)/auth/keys", tokenURL: "\(apple)/auth/token",
                revokeURL: "\(apple)/auth/revoke", discoveryURL: "\(apple)/.well-known/openid-configuration",
                credentials: sandbox.credentials.apple)
            let credentials = value.credentials
            return (
                value,
                [
                    "apple.baseURL": value.baseURL, "apple.issuer": value.issuer, "apple.jwksURL": value.jwksURL, "apple.tokenURL": value.tokenURL,
                    "apple.revokeURL": value.revokeURL, "apple.discoveryURL": value.discoveryURL, "apple.teamID": credentials.teamID,
                    "apple.servicesID": credentials.servicesID, "apple.bundleIDs": credentials.bundleIDs.joined(separator: ","),
                    "apple.keyID": credentials.keyID, "apple.privateKeyPEM": credentials.privateKeyPEM,
                ]
            )
        },
        presets: [.appleAlice, .appleRelay, .appleNoEmail],
        nativeCredential: { sandbox, identity, rawNonce in
            // Apple's token always carries a nonce (Firebase requires one).
            let raw = rawNonce ?? SandboxRandom.alphanumeric(32)
            return .init(idToken: try sandbox.appleIDToken(for: identity, nonce: .raw(raw)), rawNonce: raw)
        })
}

extension Sandbox {
    /// Apple's approval: its own code (redeemed at `/auth/token`), and the name and e-mail as the `user` JSON
    /// the first time an account approves an app.
    func approveApple(_ approval: SandboxAuthorization.Approval) -> [(String, String)] {
        let identity = approval.identity
        let scopes = approval.scopes
        let nonce = approval.parameters["nonce"].flatMap { $0.isEmpty ? nil : $0 }
        let code =
            "c\(SandboxRandom.hex(bytes: 16)).0.\(SandboxRandom.string(4, from: "abcdefghijklmnopqrstuvwxyz")).\(SandboxRandom.base64URL(bytes: 16))"
        let grant = AppleGrant(
            identity: identity, clientID: approval.clientID, redirectURI: approval.redirectURI, nonce: nonce.map(SandboxNonce.claim), issuedAt: now)
        // Apple sends the name (and e-mail) only the first time an account approves an app.
        let firstTime = withState { state -> Bool in
            state.appleCodes[code] = grant
            return state.appleConsents.insert("\(approval.clientID)|\(identity.subject)").inserted
        }
        var fields: [(String, String)] = [("code", code)]
        if firstTime, scopes.contains("name") || scopes.contains("email") {
            var user: [String: SandboxJSON] = [:]
            if scopes.contains("name") {
                var name: [String: SandboxJSON] = [:]
                if let first = identity.givenName { name["firstName"] = .string(first) }
                if let last = identity.familyName { name["lastName"] = .string(last) }
                user["name"] = .object(name)
            }
            if scopes.contains("email"), let email = identity.email { user["email"] = .string(email) }
            fields.append(("user", String(decoding: SandboxJSON.object(user).jsonData, as: UTF8.self)))
        }
        return fields
    }
}

extension AppleRoutes: SandboxRoutes {}
