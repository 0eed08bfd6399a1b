import AsyncHTTPClient
import Foundation
import HearthSandbox
import Hummingbird
import HummingbirdTesting
import NIOCore
import Testing

@Suite("Over real HTTP on loopback")
struct LiveHTTPTests {
    @Test("JWKS, discovery and a signed Twitter call through AsyncHTTPClient, under a /sandbox mount")
    func live() async throws {
        try await withLiveSandbox { sandbox, http in
            let endpoints = sandbox.endpoints()
            func fetch(_ url: String, headers: [(String, String)] = []) async throws -> (UInt, Data) {
                var request = HTTPClientRequest(url: url)
                for (name, value) in headers { request.headers.add(name: name, value: value) }
                let response = try await http.execute(request, timeout: .seconds(60))
                let body = try await response.body.collect(upTo: 1 << 20)
                return (response.status.code, Data(buffer: body))
            }

            let token = try sandbox.microsoftIDToken(for: .microsoftWork)
            let discovery = try await fetch(endpoints.microsoft.discoveryURL)
            #expect(discovery.0 == 200)
            let jwksURL = try #require(TestJSON.parse(discovery.1)?["jwks_uri"]?.string)
            #expect(jwksURL == endpoints.microsoft.jwksURL)
            let jwks = try await fetch(jwksURL)
            #expect(try IndependentJWT(token).verifies(against: jwks.1))
            #expect(sandbox.jwksFetchCount(.microsoft) == 1)

            // The signature covers the URL actually called, host and port included.
            let twitter = try sandbox.twitterAccessToken(for: .twitterUser)
            let signer = TestOAuth1Signer(
                consumerKey: endpoints.twitter.credentials.consumerKey, consumerSecret: endpoints.twitter.credentials.consumerSecret,
                token: twitter.token, tokenSecret: twitter.secret)
            let header = signer.authorization(url: endpoints.twitter.verifyCredentialsURL, query: [("include_email", "true")])
            let verified = try await fetch("\(endpoints.twitter.verifyCredentialsURL)?include_email=true", headers: [("Authorization", header)])
            #expect(verified.0 == 200, "\(String(decoding: verified.1, as: UTF8.self))")
            #expect(TestJSON.parse(verified.1)?["email"]?.string == "jack@example.com")

            let localhost = signer.authorization(
                url: endpoints.twitter.verifyCredentialsURL.replacingOccurrences(of: "127.0.0.1", with: "localhost"), query: [])
            let wrongHost = try await fetch(endpoints.twitter.verifyCredentialsURL, headers: [("Authorization", localhost)])
            #expect(wrongHost.0 == 401)

            let github = try await fetch(
                "\(endpoints.github.apiBaseURL)/user",
                headers: [
                    ("Authorization", "Bearer \(try sandbox.githubAccessToken(for: .githubUser))"), ("User-Agent", "hearth-live-test"),
                ])
            #expect(github.0 == 200)
        }
    }
}
