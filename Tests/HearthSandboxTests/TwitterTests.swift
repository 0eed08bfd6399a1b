import Foundation
import HTTPTypes
import Testing

@testable import HearthSandbox

@Suite("Twitter")
struct TwitterTests {
    // X's worked example (providers.md §4.2).
    static let vectorParameters: [(String, String)] = [
        ("include_entities", "true"), ("status", "Hello Ladies + Gentlemen, a signed OAuth request!"),
        ("oauth_consumer_key", "xvz1evFS4wEEPTGEFPHBog"), ("oauth_nonce", "kYjzVBB8Y0ZFabxSWbWovY3uYSQ2pTgmZeNu2VS4cg"),
        ("oauth_signature_method", "HMAC-SHA1"), ("oauth_timestamp", "1318622958"),
        ("oauth_token", "370773112-GmHxMAgYyLbNEtIKZeRNFsMKPR9EyMZeS9weJAEb"), ("oauth_version", "1.0"),
    ]
    static let vectorBaseString =
        "POST&https%3A%2F%2Fapi.twitter.com%2F1.1%2Fstatuses%2Fupdate.json&include_entities%3Dtrue%26oauth_consumer_key%3Dxvz1evFS4wEEPTGEFPHBog%26oauth_nonce%3DkYjzVBB8Y0ZFabxSWbWovY3uYSQ2pTgmZeNu2VS4cg%26oauth_signature_method%3DHMAC-SHA1%26oauth_timestamp%3D1318622958%26oauth_token%3D370773112-GmHxMAgYyLbNEtIKZeRNFsMKPR9EyMZeS9weJAEb%26oauth_version%3D1.0%26status%3DHello%2520Ladies%2520%252B%2520Gentlemen%252C%2520a%2520signed%2520OAuth%2520request%2521"
    static let consumerSecret = "kAcSOqF21Fu85e7zjz7ZN2U4ZRhfV3WpwPAoE3Z7kBw"
    static let tokenSecret = "LswwdoUaIvS8ltyTt5jkRh4J50vUPVVHtR2YPi5kE"

    @Test("The test's own signer reproduces X's documented example")
    func testSignerMatchesVector() {
        let base = TestOAuth1Signer.baseString(
            method: "POST", url: "https://api.twitter.com/1.1/statuses/update.json", parameters: Self.vectorParameters)
        #expect(base == Self.vectorBaseString)
        #expect(TestOAuth1Signer.sign(base, consumerSecret: Self.consumerSecret, tokenSecret: Self.tokenSecret) == "hCtSmYh+iHYCEqBWrE7C7hYmtUk=")
        let x = TestOAuth1Signer.baseString(method: "POST", url: "https://api.x.com/1.1/statuses/update.json", parameters: Self.vectorParameters)
        #expect(TestOAuth1Signer.sign(x, consumerSecret: Self.consumerSecret, tokenSecret: Self.tokenSecret) == "Ls93hJiZbQ3akF3HF3x1Bz8/zU4=")
    }

    @Test("The sandbox's verifier computes the same base string and signature")
    func sandboxSignerMatchesVector() {
        let base = OAuth1Signature.baseString(
            method: "post", baseURI: OAuth1Signature.baseURI(scheme: "HTTPS", authority: "API.twitter.com:443", path: "/1.1/statuses/update.json"),
            parameters: Self.vectorParameters.map { (name: $0.0, value: $0.1) })
        #expect(base == Self.vectorBaseString)
        #expect(
            OAuth1Signature.signature(baseString: base, consumerSecret: Self.consumerSecret, tokenSecret: Self.tokenSecret)
                == "hCtSmYh+iHYCEqBWrE7C7hYmtUk=")
        #expect(OAuth1Signature.baseURI(scheme: "http", authority: "[::1]:80", path: "/a") == "http://[::1]/a")
        #expect(OAuth1Signature.baseURI(scheme: "http", authority: "127.0.0.1:8080", path: "/a") == "http://127.0.0.1:8080/a")
    }

    /// In `.router` tests the request's authority is `localhost`.
    static let url = "http://localhost/twitter/1.1/account/verify_credentials.json"
    static let path = "/twitter/1.1/account/verify_credentials.json"

    static func signer(_ sandbox: Sandbox, _ token: SandboxOAuth1Token) -> TestOAuth1Signer {
        TestOAuth1Signer(
            consumerKey: sandbox.credentials.twitter.consumerKey, consumerSecret: sandbox.credentials.twitter.consumerSecret,
            token: token.token, tokenSecret: token.secret)
    }

    @Test("verify_credentials accepts a correctly signed request and returns the user")
    func accepted() async throws {
        try await withSandbox { sandbox, client in
            let token = try sandbox.twitterAccessToken(for: .twitterUser)
            #expect(token.token.hasPrefix("1457823950123456789-"))
            let query = [("include_email", "true"), ("skip_status", "true")]
            let header = Self.signer(sandbox, token).authorization(url: Self.url, query: query)
            let answer = try await client.get("\(Self.path)?include_email=true&skip_status=true", headers: [.authorization: header])
            #expect(answer.status == .ok, "\(answer.text)")
            #expect(answer["id_str"]?.string == "1457823950123456789")
            #expect(answer["screen_name"]?.string == "sandbox_jack")
            #expect(answer["email"]?.string == "jack@example.com")
            #expect(answer["profile_image_url_https"]?.string?.hasSuffix("_normal.png") == true)
            // The integer id is above 2^53: a Double cannot hold it, which is why `id_str` exists.
            #expect(answer.text.contains("\"id\":1457823950123456789"))

            let quiet = try sandbox.twitterAccessToken(for: .twitterNoEmail)
            let noEmail = try await client.get(
                "\(Self.path)?include_email=true",
                headers: [.authorization: Self.signer(sandbox, quiet).authorization(url: Self.url, query: [("include_email", "true")])])
            #expect(noEmail.status == .ok)
            #expect(noEmail["email"] == .null)
            let withoutFlag = try await client.get(
                Self.path, headers: [.authorization: Self.signer(sandbox, token).authorization(url: Self.url, query: [])])
            #expect(withoutFlag.status == .ok)
            #expect(withoutFlag["email"] == nil)
        }
    }

    @Test("verify_credentials rejects tampered, foreign, stale and replayed requests with Twitter's errors")
    func rejected() async throws {
        try await withSandbox { sandbox, client in
            let token = try sandbox.twitterAccessToken(for: .twitterUser)
            let signer = Self.signer(sandbox, token)
            func call(_ query: String, _ header: String?) async throws -> TestAnswer {
                var headers: HTTPFields = [:]
                if let header { headers[.authorization] = header }
                return try await client.get(Self.path + query, headers: headers)
            }
            func code(_ answer: TestAnswer) -> Int? { answer["errors"]?[0]?["code"]?.int }

            // Signed for include_email=false, sent with include_email=true.
            let tampered = try await call("?include_email=true", signer.authorization(url: Self.url, query: [("include_email", "false")]))
            #expect(tampered.status == .unauthorized)
            #expect(code(tampered) == 32)
            #expect(tampered["errors"]?[0]?["message"]?.string == "Could not authenticate you.")

            // Signed for another host.
            let otherHost = try await call("", signer.authorization(url: "https://api.twitter.com/1.1/account/verify_credentials.json", query: []))
            #expect(code(otherHost) == 32)

            // Wrong token secret.
            var wrongSecret = signer
            wrongSecret.tokenSecret = "not-the-secret"
            #expect(code(try await call("", wrongSecret.authorization(url: Self.url, query: []))) == 32)

            // Wrong consumer secret.
            var wrongConsumer = signer
            wrongConsumer.consumerSecret = "not-the-consumer-secret"
            #expect(code(try await call("", wrongConsumer.authorization(url: Self.url, query: []))) == 32)

            // Unknown token.
            var unknown = signer
            unknown.token = "12345-unknown"
            let unknownAnswer = try await call("", unknown.authorization(url: Self.url, query: []))
            #expect(unknownAnswer.status == .unauthorized)
            #expect(code(unknownAnswer) == 89)

            // A token issued to another app.
            let foreign = try sandbox.twitterAccessToken(for: .twitterUser, consumerKey: sandbox.credentials.twitter.otherConsumerKey)
            #expect(code(try await call("", Self.signer(sandbox, foreign).authorization(url: Self.url, query: []))) == 89)

            // Stale timestamp.
            let stale = try await call("", signer.authorization(url: Self.url, query: [], timestamp: Int(Date().timeIntervalSince1970) - 3600))
            #expect(stale.status == .unauthorized)
            #expect(code(stale) == 135)

            // Replayed nonce.
            let header = signer.authorization(url: Self.url, query: [], nonce: "once-only-nonce")
            #expect(try await call("", header).status == .ok)
            let replay = try await call("", header)
            #expect(replay.status == .unauthorized)
            #expect(code(replay) == 32)

            // No or malformed header.
            let missing = try await call("", nil)
            #expect(missing.status == .badRequest)
            #expect(code(missing) == 215)
            #expect(code(try await call("", "Bearer abc")) == 215)
            #expect(code(try await call("", "OAuth oauth_consumer_key=unquoted")) == 215)

            // After revocation the token is unknown.
            sandbox.revoke(token: token.token)
            #expect(code(try await call("", signer.authorization(url: Self.url, query: []))) == 89)
        }
    }
}
