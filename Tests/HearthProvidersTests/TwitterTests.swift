import Foundation
import HearthCore
import Testing

@testable import HearthProviders

@Suite("twitter.com and the OAuth 1.0a signer")
struct TwitterTests {
    static let user: [String: JSONValue] = [
        "id": .number(6_253_282), "id_str": "6253282", "name": "Twitter API", "screen_name": "TwitterAPI",
        "email": "API@Twitter.com", "profile_image_url": "http://pbs.twimg.com/profile_images/1/normal.png",
        "profile_image_url_https": "https://pbs.twimg.com/profile_images/1/normal.png", "verified": true, "followers_count": 6_133_636,
    ]

    @Test("the signer reproduces X's worked example exactly")
    func testVector() throws {
        let url = try #require(URL(string: "https://api.twitter.com/1.1/statuses/update.json?include_entities=true"))
        let parameters: [(String, String)] = [
            ("include_entities", "true"),
            ("status", "Hello Ladies + Gentlemen, a signed OAuth request!"),
            ("oauth_consumer_key", "xvz1evFS4wEEPTGEFPHBog"),
            ("oauth_nonce", "kYjzVBB8Y0ZFabxSWbWovY3uYSQ2pTgmZeNu2VS4cg"),
            ("oauth_signature_method", "HMAC-SHA1"),
            ("oauth_timestamp", "1318622958"),
            ("oauth_token", "370773112-GmHxMAgYyLbNEtIKZeRNFsMKPR9EyMZeS9weJAEb"),
            ("oauth_version", "1.0"),
        ]
        let base = OAuth1Signer.signatureBaseString(method: "post", url: url, parameters: parameters)
        #expect(
            base
                == "POST&https%3A%2F%2Fapi.twitter.com%2F1.1%2Fstatuses%2Fupdate.json&include_entities%3Dtrue%26oauth_consumer_key%3Dxvz1evFS4wEEPTGEFPHBog%26oauth_nonce%3DkYjzVBB8Y0ZFabxSWbWovY3uYSQ2pTgmZeNu2VS4cg%26oauth_signature_method%3DHMAC-SHA1%26oauth_timestamp%3D1318622958%26oauth_token%3D370773112-GmHxMAgYyLbNEtIKZeRNFsMKPR9EyMZeS9weJAEb%26oauth_version%3D1.0%26status%3DHello%2520Ladies%2520%252B%2520Gentlemen%252C%2520a%2520signed%2520OAuth%2520request%2521"
        )
        let signature = OAuth1Signer.signature(
            baseString: base, consumerSecret: "kAcSOqF21Fu85e7zjz7ZN2U4ZRhfV3WpwPAoE3Z7kBw", tokenSecret: "LswwdoUaIvS8ltyTt5jkRh4J50vUPVVHtR2YPi5kE")
        #expect(signature == "hCtSmYh+iHYCEqBWrE7C7hYmtUk=")

        // The full header for the same request (the query parameter comes from the URL, the status from the form body).
        let signer = OAuth1Signer(consumerKey: "xvz1evFS4wEEPTGEFPHBog", consumerSecret: "kAcSOqF21Fu85e7zjz7ZN2U4ZRhfV3WpwPAoE3Z7kBw")
        let header = signer.authorizationHeader(
            method: "POST", url: url, formParameters: [("status", "Hello Ladies + Gentlemen, a signed OAuth request!")],
            token: "370773112-GmHxMAgYyLbNEtIKZeRNFsMKPR9EyMZeS9weJAEb", tokenSecret: "LswwdoUaIvS8ltyTt5jkRh4J50vUPVVHtR2YPi5kE",
            nonce: "kYjzVBB8Y0ZFabxSWbWovY3uYSQ2pTgmZeNu2VS4cg", timestamp: 1_318_622_958)
        #expect(header.contains(#"oauth_signature="hCtSmYh%2BiHYCEqBWrE7C7hYmtUk%3D""#))
        #expect(header.hasPrefix(#"OAuth oauth_consumer_key="xvz1evFS4wEEPTGEFPHBog", oauth_nonce="#))

        // The host is part of the base string.
        let x = try #require(URL(string: "https://api.x.com/1.1/statuses/update.json?include_entities=true"))
        let xBase = OAuth1Signer.signatureBaseString(method: "POST", url: x, parameters: parameters)
        #expect(
            OAuth1Signer.signature(
                baseString: xBase, consumerSecret: "kAcSOqF21Fu85e7zjz7ZN2U4ZRhfV3WpwPAoE3Z7kBw",
                tokenSecret: "LswwdoUaIvS8ltyTt5jkRh4J50vUPVVHtR2YPi5kE")
                == "Ls93hJiZbQ3akF3HF3x1Bz8/zU4=")
    }

    @Test("percent-encoding leaves only unreserved characters, upper-case hex, UTF-8")
    func percentEncoding() throws {
        #expect(OAuth1Signer.percentEncode("Ladies + Gentlemen") == "Ladies%20%2B%20Gentlemen")
        #expect(OAuth1Signer.percentEncode("!*'()") == "%21%2A%27%28%29")
        #expect(OAuth1Signer.percentEncode("-._~AZaz09") == "-._~AZaz09")
        #expect(OAuth1Signer.percentEncode("☃/é") == "%E2%98%83%2F%C3%A9")
        #expect(
            OAuth1Signer.baseURI(try #require(URL(string: "HTTPS://API.Twitter.com:443/1.1/x.json?a=b#f"))) == "https://api.twitter.com/1.1/x.json")
        #expect(OAuth1Signer.baseURI(try #require(URL(string: "http://127.0.0.1:8080/p"))) == "http://127.0.0.1:8080/p")
    }

    func setUp(_ environment: FakeEnvironment) {
        environment.state.update { $0.twitterAccounts["6253282-token"] = .init(secret: "user-secret+/=", user: Self.user) }
    }

    @Test("a signed verify_credentials call gives the profile")
    func happyPath() async throws {
        try await FakeEnvironment.run { environment in
            setUp(environment)
            let profile = try await environment.registry().verify(
                .init(providerID: "twitter.com", accessToken: "6253282-token", tokenSecret: "user-secret+/="))
            #expect(profile.rawID == "6253282")
            #expect(profile.screenName == "TwitterAPI")
            #expect(profile.displayName == "Twitter API")
            #expect(profile.photoURL == "https://pbs.twimg.com/profile_images/1/normal.png")
            #expect(profile.email == "api@twitter.com")
            #expect(!profile.emailVerified)
            #expect(profile.rawUserInfo["followers_count"] == .number(6_133_636))
            #expect(environment.state.values.twitterFailures.isEmpty)
        }
    }

    @Test("a tampered token, a wrong token secret or another app's consumer secret fails the signature")
    func tampered() async throws {
        try await FakeEnvironment.run { environment in
            setUp(environment)
            let registry = environment.registry()
            let wrongSecret = await rejection {
                try await registry.verify(.init(providerID: "twitter.com", accessToken: "6253282-token", tokenSecret: "user-secret"))
            }
            #expect(wrongSecret?.code == .invalidIDPResponse)
            #expect(wrongSecret?.detail == "Twitter did not accept the OAuth 1.0a token and secret for this app.")
            #expect(environment.state.values.twitterFailures.last == "signature mismatch")

            let wrongToken = await rejection {
                try await registry.verify(.init(providerID: "twitter.com", accessToken: "6253282-tokeN", tokenSecret: "user-secret+/="))
            }
            #expect(wrongToken?.code == .invalidIDPResponse)

            let otherApp = environment.registry { $0.twitter.consumerSecret = "another-apps-secret" }
            let otherError = await rejection {
                try await otherApp.verify(.init(providerID: "twitter.com", accessToken: "6253282-token", tokenSecret: "user-secret+/="))
            }
            #expect(otherError?.code == .invalidIDPResponse)
            #expect(environment.state.values.twitterFailures.last == "signature mismatch")
            // Secrets never reach error details or reasons.
            for error in [wrongSecret, wrongToken, otherError] {
                let text = "\(error?.detail ?? "") \(error?.reason ?? "") \(String(describing: error))"
                #expect(!text.contains("user-secret") && !text.contains("tw-consumer-secret") && !text.contains("6253282-token"))
            }
        }
    }

    @Test("a token without its secret is rejected without calling Twitter")
    func missingSecret() async throws {
        try await FakeEnvironment.run { environment in
            let error = await rejection { try await environment.registry().verify(.init(providerID: "twitter.com", accessToken: "t")) }
            #expect(error?.code == .invalidIDPResponse)
            #expect(environment.state.fetchCount("/twitter/1.1/account/verify_credentials.json") == 0)
        }
    }
}
