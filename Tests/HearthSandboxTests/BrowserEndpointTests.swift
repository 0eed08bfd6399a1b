import Foundation
import HTTPTypes
import Testing

@testable import HearthSandbox

/// The sandbox's browser endpoints check what a relying party sends as the real providers do: the PKCE
/// verifier, the client secret at each token endpoint, and the OAuth 1.0a signatures at Twitter's
/// request-token and access-token endpoints.
@Suite("Browser endpoints: PKCE, client secrets, OAuth 1.0a")
struct BrowserEndpointTests {
    static let redirectURI = "https://hearth.test/__/auth/handler"

    /// RFC 7636 appendix B: the verifier and its S256 challenge, independent of the code under test.
    static let verifier = "dBjftJeZ4CVP-mB92K27uhbUJU1p1r_wW1gFWFOEjXk"
    static let challenge = "E9Melhoa2OwvFrEMTJguCHaoeK1t8URWbuGJSstw-cM"

    /// Approves `subject` at `authorizePath` with `query` and returns the code from the redirect.
    static func code(_ client: SandboxTestClient, _ authorizePath: String, _ query: [(String, String)], subject: String) async throws -> String {
        let all = query + [("sandbox_subject", subject), ("sandbox_decision", "approve")]
        let answer = try await client.get(
            authorizePath + "?" + all.map { "\(TestOAuth1Signer.encode($0.0))=\(TestOAuth1Signer.encode($0.1))" }.joined(separator: "&"))
        #expect(answer.status == .seeOther, "\(answer.text)")
        let location = try #require(answer.headers[.location])
        #expect(location.hasPrefix(redirectURI + "?"))
        let items = URLComponents(string: location)?.queryItems ?? []
        return try #require(items.first { $0.name == "code" }?.value)
    }

    // MARK: PKCE

    @Test("Google's token endpoint refuses a missing or wrong PKCE verifier and accepts the right one once")
    func pkce() async throws {
        try await withSandbox { sandbox, client in
            let google = sandbox.credentials.google
            let code = try await Self.code(
                client, "/google/o/oauth2/v2/auth",
                [
                    ("client_id", google.webClientID), ("redirect_uri", Self.redirectURI), ("response_type", "code"), ("scope", "openid email"),
                    ("state", "st"), ("code_challenge", Self.challenge), ("code_challenge_method", "S256"),
                ], subject: SandboxIdentity.googleGmail.subject)
            func exchange(_ verifier: String?) async throws -> TestAnswer {
                var form = [
                    ("grant_type", "authorization_code"), ("code", code), ("redirect_uri", Self.redirectURI), ("client_id", google.webClientID),
                    ("client_secret", google.webClientSecret),
                ]
                if let verifier { form.append(("code_verifier", verifier)) }
                return try await client.postForm("/google/token", form)
            }

            let missing = try await exchange(nil)
            #expect(missing.status == .badRequest)
            #expect(missing.json == .object(["error": .string("invalid_grant"), "error_description": .string("code_verifier is missing (PKCE).")]))
            let wrong = try await exchange(Self.verifier + "x")
            #expect(wrong.status == .badRequest)
            #expect(
                wrong.json
                    == .object([
                        "error": .string("invalid_grant"), "error_description": .string("code_verifier does not match the code_challenge (PKCE)."),
                    ]))
            // The challenge itself as the verifier (a client that forgot to hash under S256 on the other side).
            let challengeAsVerifier = try await exchange(Self.challenge)
            #expect(challengeAsVerifier["error_description"]?.string == "code_verifier does not match the code_challenge (PKCE).")

            let right = try await exchange(Self.verifier)
            #expect(right.status == .ok, "\(right.text)")
            #expect(right["id_token"]?.string != nil && right["access_token"]?.string != nil)
            let again = try await exchange(Self.verifier)
            #expect(again.json == .object(["error": .string("invalid_grant"), "error_description": .string("The code has already been used.")]))
        }
    }

    // MARK: Client secrets

    /// One provider's authorization-code endpoints and what its token endpoint says to a wrong secret.
    struct Provider: Sendable, CustomTestStringConvertible {
        let name: String
        let authorizePath: String
        let tokenPath: String
        let subject: String
        let client: @Sendable (SandboxCredentials) -> (id: String, secret: String, otherSecret: String)
        let wrongSecretStatus: HTTPResponse.Status
        let check: @Sendable (TestAnswer) -> Void

        var testDescription: String { name }
    }

    static let providers: [Provider] = [
        Provider(
            name: "Google", authorizePath: "/google/o/oauth2/v2/auth", tokenPath: "/google/token", subject: SandboxIdentity.googleGmail.subject,
            client: { ($0.google.webClientID, $0.google.webClientSecret, "GOCSPX-not-the-secret") }, wrongSecretStatus: .unauthorized,
            check: {
                #expect($0.json == .object(["error": .string("invalid_client"), "error_description": .string("Client authentication failed.")]))
            }),
        Provider(
            name: "Microsoft", authorizePath: "/microsoft/common/oauth2/v2.0/authorize", tokenPath: "/microsoft/common/oauth2/v2.0/token",
            subject: SandboxIdentity.microsoftWork.subject,
            client: { ($0.microsoft.clientID, $0.microsoft.clientSecret, "not~the~secret") }, wrongSecretStatus: .unauthorized,
            check: {
                #expect(
                    $0.json
                        == .object([
                            "error": .string("invalid_client"),
                            "error_description": .string("AADSTS7000215: Invalid client secret provided. Client authentication failed."),
                        ]))
            }),
        Provider(
            name: "GitHub", authorizePath: "/github/login/oauth/authorize", tokenPath: "/github/login/oauth/access_token",
            subject: SandboxIdentity.githubUser.subject,
            client: { ($0.github.clientID, $0.github.clientSecret, $0.github.otherClientSecret) }, wrongSecretStatus: .ok,
            check: {
                // GitHub answers HTTP 200 with the error in the body.
                #expect($0["error"]?.string == "incorrect_client_credentials")
                #expect($0["error_description"]?.string == "Client authentication failed.")
                #expect($0["access_token"] == nil)
            }),
        Provider(
            name: "Facebook", authorizePath: "/facebook/v24.0/dialog/oauth", tokenPath: "/facebook/v24.0/oauth/access_token",
            subject: SandboxIdentity.facebookUser.subject,
            client: { ($0.facebook.appID, $0.facebook.appSecret, $0.facebook.otherAppSecret) }, wrongSecretStatus: .badRequest,
            check: {
                #expect($0["error"]?["message"]?.string == "Client authentication failed.")
                #expect($0["error"]?["type"]?.string == "OAuthException")
                #expect($0["error"]?["code"]?.int == 1)
                #expect($0["access_token"] == nil)
            }),
    ]

    @Test(
        "Each token endpoint refuses a wrong client secret (another app's) with the provider's error, and the code still works with the right one",
        arguments: providers)
    func wrongClientSecret(provider: Provider) async throws {
        try await withSandbox { sandbox, client in
            let registered = provider.client(sandbox.credentials)
            let code = try await Self.code(
                client, provider.authorizePath,
                [
                    ("client_id", registered.id), ("redirect_uri", Self.redirectURI), ("response_type", "code"), ("scope", "openid email"),
                    ("state", "st"),
                ], subject: provider.subject)
            func exchange(secret: String) async throws -> TestAnswer {
                try await client.postForm(
                    provider.tokenPath,
                    [
                        ("grant_type", "authorization_code"), ("code", code), ("redirect_uri", Self.redirectURI), ("client_id", registered.id),
                        ("client_secret", secret),
                    ], headers: [.accept: "application/json"])
            }
            let wrong = try await exchange(secret: registered.otherSecret)
            #expect(wrong.status == provider.wrongSecretStatus, "\(wrong.text)")
            provider.check(wrong)
            let empty = try await exchange(secret: "")
            #expect(empty.status == provider.wrongSecretStatus)
            provider.check(empty)

            let right = try await exchange(secret: registered.secret)
            #expect(right.status == .ok, "\(right.text)")
            #expect(right["access_token"]?.string != nil)
        }
    }

    // MARK: Twitter OAuth 1.0a

    /// An `Authorization: OAuth …` header over `method url` with the extra `oauth_*` parameters, signed with
    /// `consumerSecret&tokenSecret` (the token secret is empty for the request token).
    static func oauthHeader(
        method: String = "POST", url: String, consumerKey: String, consumerSecret: String, token: String? = nil, tokenSecret: String = "",
        extra: [(String, String)] = [], signedExtra: [(String, String)]? = nil
    ) -> String {
        var oauth: [(String, String)] = [
            ("oauth_consumer_key", consumerKey), ("oauth_nonce", UUID().uuidString.replacingOccurrences(of: "-", with: "")),
            ("oauth_signature_method", "HMAC-SHA1"), ("oauth_timestamp", String(Int(Date().timeIntervalSince1970))), ("oauth_version", "1.0"),
        ]
        if let token { oauth.append(("oauth_token", token)) }
        let signature = TestOAuth1Signer.sign(
            TestOAuth1Signer.baseString(method: method, url: url, parameters: oauth + (signedExtra ?? extra)),
            consumerSecret: consumerSecret, tokenSecret: tokenSecret)
        return "OAuth "
            + (oauth + extra + [("oauth_signature", signature)]).map { "\(TestOAuth1Signer.encode($0.0))=\"\(TestOAuth1Signer.encode($0.1))\"" }
            .joined(separator: ", ")
    }

    static func form(_ answer: TestAnswer) -> [String: String] {
        var fields: [String: String] = [:]
        for item in URLComponents(string: "?" + answer.text)?.queryItems ?? [] { fields[item.name] = item.value ?? "" }
        return fields
    }

    static func twitterError(_ answer: TestAnswer) -> (code: Int?, message: String?) {
        (answer["errors"]?[0]?["code"]?.int, answer["errors"]?[0]?["message"]?.string)
    }

    @Test("Twitter's request_token checks the consumer's signature (over the callback too) and access_token the request token's")
    func twitterSignatures() async throws {
        try await withSandbox { sandbox, client in
            let twitter = sandbox.credentials.twitter
            let requestTokenURL = "http://localhost/twitter/oauth/request_token"
            let accessTokenURL = "http://localhost/twitter/oauth/access_token"
            let callback = [("oauth_callback", Self.redirectURI)]
            func requestToken(_ header: String) async throws -> TestAnswer {
                try await client.send("/twitter/oauth/request_token", method: .post, headers: [.authorization: header])
            }

            // request_token: the wrong consumer secret; a callback changed after signing.
            let wrongSecret = try await requestToken(
                Self.oauthHeader(
                    url: requestTokenURL, consumerKey: twitter.consumerKey, consumerSecret: twitter.otherConsumerSecret, extra: callback))
            #expect(wrongSecret.status == .unauthorized)
            #expect(Self.twitterError(wrongSecret) == (32, "Could not authenticate you."))
            let swappedCallback = try await requestToken(
                Self.oauthHeader(
                    url: requestTokenURL, consumerKey: twitter.consumerKey, consumerSecret: twitter.consumerSecret,
                    extra: [("oauth_callback", "https://evil.example/steal")], signedExtra: callback))
            #expect(swappedCallback.status == .unauthorized)
            #expect(Self.twitterError(swappedCallback) == (32, "Could not authenticate you."))

            let issued = try await requestToken(
                Self.oauthHeader(
                    url: requestTokenURL, consumerKey: twitter.consumerKey, consumerSecret: twitter.consumerSecret, extra: callback))
            #expect(issued.status == .ok, "\(issued.text)")
            let request = Self.form(issued)
            #expect(request["oauth_callback_confirmed"] == "true")
            let token = try #require(request["oauth_token"])
            let tokenSecret = try #require(request["oauth_token_secret"])

            let approved = try await client.get(
                "/twitter/oauth/authenticate?oauth_token=\(token)&sandbox_subject=\(SandboxIdentity.twitterUser.subject)&sandbox_decision=approve")
            #expect(approved.status == .seeOther)
            let location = try #require(approved.headers[.location])
            let verifier = try #require(URLComponents(string: location)?.queryItems?.first { $0.name == "oauth_verifier" }?.value)

            func accessToken(consumerSecret: String, tokenSecret: String) async throws -> TestAnswer {
                try await client.send(
                    "/twitter/oauth/access_token", method: .post,
                    headers: [
                        .authorization: Self.oauthHeader(
                            url: accessTokenURL, consumerKey: twitter.consumerKey, consumerSecret: consumerSecret, token: token,
                            tokenSecret: tokenSecret, extra: [("oauth_verifier", verifier)])
                    ])
            }
            // access_token: signed without the request token's secret, or with the wrong consumer secret.
            let noTokenSecret = try await accessToken(consumerSecret: twitter.consumerSecret, tokenSecret: "")
            #expect(noTokenSecret.status == .unauthorized)
            #expect(Self.twitterError(noTokenSecret) == (32, "Could not authenticate you."))
            let wrongConsumer = try await accessToken(consumerSecret: twitter.otherConsumerSecret, tokenSecret: tokenSecret)
            #expect(Self.twitterError(wrongConsumer) == (32, "Could not authenticate you."))

            let granted = try await accessToken(consumerSecret: twitter.consumerSecret, tokenSecret: tokenSecret)
            #expect(granted.status == .ok, "\(granted.text)")
            let access = Self.form(granted)
            #expect(access["user_id"] == SandboxIdentity.twitterUser.subject)
            #expect(access["screen_name"] == SandboxIdentity.twitterUser.screenName)
            #expect(access["oauth_token"]?.isEmpty == false && access["oauth_token_secret"]?.isEmpty == false)

            // The request token is spent.
            let reused = try await accessToken(consumerSecret: twitter.consumerSecret, tokenSecret: tokenSecret)
            #expect(reused.status == .unauthorized)
        }
    }
}
