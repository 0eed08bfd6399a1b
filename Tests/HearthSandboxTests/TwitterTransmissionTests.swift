import AsyncHTTPClient
import Foundation
import NIOCore
import NIOHTTP1
import Testing

@testable import HearthSandbox

/// RFC 5849 §3.5 over real HTTP: a request's `oauth_*` parameters come one way — the `Authorization` header, the
/// form body or the query — never two; none may repeat; and the signature covers every parameter wherever it was
/// sent. The sandbox answers like Twitter: 400 `{"errors":[{"code":215,"message":"Bad Authentication data."}]}`
/// for a malformed request, 401 with code 32 for a bad signature.
@Suite("Twitter: one transmission method for the OAuth parameters")
struct TwitterTransmissionTests {
    static let callback = "https://hearth.test/__/auth/handler?state=abc"

    /// Where a protocol parameter travels.
    enum Place { case header, form, query }

    /// A request signed with `consumerSecret&tokenSecret` over the URL, `query`, `form` and every protocol
    /// parameter in `oauth` (repeats included); each protocol parameter, `oauth_signature` too, is sent where
    /// `places` says (the header unless named).
    struct SignedRequest {
        var method = "POST"
        var url: String
        var oauth: [(String, String)]
        var query: [(String, String)] = []
        var form: [(String, String)] = []
        var consumerSecret: String
        var tokenSecret = ""
        var places: [String: Place] = [:]
        /// Replaces the computed signature (a forged or stale one).
        var signatureOverride: String?

        static func encoded(_ pairs: [(String, String)]) -> String {
            pairs.map { "\(TestOAuth1Signer.encode($0.0))=\(TestOAuth1Signer.encode($0.1))" }.joined(separator: "&")
        }

        /// The `Authorization` header, query and form as sent.
        func prepared() -> (header: String?, query: [(String, String)], form: [(String, String)]) {
            let base = TestOAuth1Signer.baseString(method: method, url: url, parameters: oauth + query + form)
            let signature = signatureOverride ?? TestOAuth1Signer.sign(base, consumerSecret: consumerSecret, tokenSecret: tokenSecret)
            var header: [(String, String)] = []
            var form = self.form
            var query = self.query
            for parameter in oauth + [("oauth_signature", signature)] {
                switch places[parameter.0] ?? .header {
                case .header: header.append(parameter)
                case .form: form.append(parameter)
                case .query: query.append(parameter)
                }
            }
            let fields = header.map { "\(TestOAuth1Signer.encode($0.0))=\"\(TestOAuth1Signer.encode($0.1))\"" }
            return (header.isEmpty ? nil : "OAuth " + fields.joined(separator: ", "), query, form)
        }

        func send(_ http: HTTPClient) async throws -> (status: UInt, text: String) {
            let (header, query, form) = prepared()
            var request = HTTPClientRequest(url: query.isEmpty ? url : url + "?" + Self.encoded(query))
            request.method = method == "POST" ? .POST : .GET
            if let header { request.headers.add(name: "Authorization", value: header) }
            if !form.isEmpty {
                request.headers.add(name: "Content-Type", value: "application/x-www-form-urlencoded")
                request.body = .bytes(ByteBuffer(string: Self.encoded(form)))
            }
            let response = try await http.execute(request, timeout: .seconds(60))
            let body = try await response.body.collect(upTo: 1 << 20)
            return (response.status.code, String(buffer: body))
        }
    }

    static func protocolParameters(consumerKey: String, token: String? = nil, extra: [(String, String)] = []) -> [(String, String)] {
        var oauth: [(String, String)] = [
            ("oauth_consumer_key", consumerKey), ("oauth_nonce", UUID().uuidString.replacingOccurrences(of: "-", with: "")),
            ("oauth_signature_method", "HMAC-SHA1"), ("oauth_timestamp", String(Int(Date().timeIntervalSince1970))), ("oauth_version", "1.0"),
        ]
        if let token { oauth.append(("oauth_token", token)) }
        return oauth + extra
    }

    static let badAuthenticationData = #"{"errors":[{"code":215,"message":"Bad Authentication data."}]}"#
    static let couldNotAuthenticate = #"{"errors":[{"code":32,"message":"Could not authenticate you."}]}"#

    /// A request-token call for the sandbox's app with `oauth_callback`.
    static func requestToken(_ sandbox: Sandbox, places: [String: Place] = [:]) -> SignedRequest {
        let twitter = sandbox.endpoints().twitter
        return SignedRequest(
            url: twitter.apiBaseURL + "/oauth/request_token",
            oauth: protocolParameters(consumerKey: twitter.credentials.consumerKey, extra: [("oauth_callback", callback)]),
            consumerSecret: twitter.credentials.consumerSecret, places: places)
    }

    static func form(_ text: String) -> [String: String] {
        var fields: [String: String] = [:]
        for item in URLComponents(string: "?" + text)?.queryItems ?? [] { fields[item.name] = item.value ?? "" }
        return fields
    }

    @Test("request_token refuses oauth_callback in the body or the query beside a header, even correctly signed")
    func requestTokenMixed() async throws {
        try await withLiveSandbox { sandbox, http in
            for place in [Place.form, .query] {
                let mixed = try await Self.requestToken(sandbox, places: ["oauth_callback": place]).send(http)
                #expect(mixed.status == 400, "\(place)")
                #expect(mixed.text == Self.badAuthenticationData, "\(place)")
            }
            // The signature alone in the body, or the token-less call's nonce in the query.
            let signatureInBody = try await Self.requestToken(sandbox, places: ["oauth_signature": .form]).send(http)
            #expect(signatureInBody.status == 400)
            #expect(signatureInBody.text == Self.badAuthenticationData)
            let nonceInQuery = try await Self.requestToken(sandbox, places: ["oauth_nonce": .query]).send(http)
            #expect(nonceInQuery.status == 400)
            #expect(nonceInQuery.text == Self.badAuthenticationData)
            // Nothing was issued.
            #expect(sandbox.withState { $0.twitterRequestTokens.isEmpty })
        }
    }

    @Test("request_token accepts every protocol parameter in the header, or every one in the body, or every one in the query")
    func requestTokenOneWay() async throws {
        try await withLiveSandbox { sandbox, http in
            let names = ["oauth_consumer_key", "oauth_nonce", "oauth_signature_method", "oauth_timestamp", "oauth_version", "oauth_callback"]
            for place in [Place.header, .form, .query] {
                let places = Dictionary(uniqueKeysWithValues: (names + ["oauth_signature"]).map { ($0, place) })
                let answer = try await Self.requestToken(sandbox, places: places).send(http)
                #expect(answer.status == 200, "\(place): \(answer.text)")
                #expect(Self.form(answer.text)["oauth_callback_confirmed"] == "true", "\(place)")
            }
            // A non-OAuth form parameter beside a header is fine, and signed.
            var withForm = Self.requestToken(sandbox)
            withForm.form = [("x_auth_access_type", "read")]
            let accepted = try await withForm.send(http)
            #expect(accepted.status == 200, "\(accepted.text)")
        }
    }

    @Test("A repeated oauth_ parameter, or a malformed or oversized body, is refused, in the header, the body or the query")
    func repeated() async throws {
        try await withLiveSandbox { sandbox, http in
            let names = ["oauth_consumer_key", "oauth_nonce", "oauth_signature_method", "oauth_timestamp", "oauth_version", "oauth_callback"]
            for place in [Place.header, .form, .query] {
                var request = Self.requestToken(sandbox, places: Dictionary(uniqueKeysWithValues: (names + ["oauth_signature"]).map { ($0, place) }))
                request.oauth.append(("oauth_callback", "https://evil.example/steal"))
                let answer = try await request.send(http)
                #expect(answer.status == 400, "\(place): \(answer.text)")
                #expect(answer.text == Self.badAuthenticationData, "\(place)")
            }
            // A header-signed call whose form body does not parse, or is larger than the sandbox reads.
            // (A body that parses but was not signed, NUL bytes and all, fails the signature instead.)
            let bodies: [(String, UInt, String)] = [
                ("oauth_callback=%zz", 400, Self.badAuthenticationData),
                ("x=" + String(repeating: "a", count: 70 * 1024), 400, Self.badAuthenticationData),
                ("x=%00\u{1}", 401, Self.couldNotAuthenticate),
            ]
            for (body, status, error) in bodies {
                let twitter = Self.requestToken(sandbox)
                var request = HTTPClientRequest(url: twitter.url)
                request.method = .POST
                request.headers.add(name: "Authorization", value: try #require(twitter.prepared().header))
                request.headers.add(name: "Content-Type", value: "application/x-www-form-urlencoded")
                request.body = .bytes(ByteBuffer(string: body))
                let response = try await http.execute(request, timeout: .seconds(60))
                let text = String(buffer: try await response.body.collect(upTo: 1 << 20))
                #expect(response.status.code == status, "\(body.prefix(20)): \(text)")
                #expect(text == error, "\(body.prefix(20))")
            }
            #expect(sandbox.withState { $0.twitterRequestTokens.isEmpty })
        }
    }

    @Test("Bad signatures are refused with code 32: forged, over another callback, or leaving out a body parameter")
    func badSignatures() async throws {
        try await withLiveSandbox { sandbox, http in
            var forged = Self.requestToken(sandbox)
            forged.signatureOverride = "hCtSmYh+iHYCEqBWrE7C7hYmtUk="
            let forgedAnswer = try await forged.send(http)
            #expect(forgedAnswer.status == 401)
            #expect(forgedAnswer.text == Self.couldNotAuthenticate)

            // Signed over one callback; another one sent.
            var swapped = Self.requestToken(sandbox)
            let signature = TestOAuth1Signer.sign(
                TestOAuth1Signer.baseString(method: "POST", url: swapped.url, parameters: swapped.oauth), consumerSecret: swapped.consumerSecret,
                tokenSecret: "")
            swapped.oauth = swapped.oauth.map { $0.0 == "oauth_callback" ? ($0.0, "https://evil.example/steal") : $0 }
            swapped.signatureOverride = signature
            let swappedAnswer = try await swapped.send(http)
            #expect(swappedAnswer.status == 401)
            #expect(swappedAnswer.text == Self.couldNotAuthenticate)

            // The body's non-OAuth parameters are part of the base string.
            var unsignedForm = Self.requestToken(sandbox)
            unsignedForm.signatureOverride = TestOAuth1Signer.sign(
                TestOAuth1Signer.baseString(method: "POST", url: unsignedForm.url, parameters: unsignedForm.oauth),
                consumerSecret: unsignedForm.consumerSecret, tokenSecret: "")
            unsignedForm.form = [("x_auth_access_type", "write")]
            let unsignedAnswer = try await unsignedForm.send(http)
            #expect(unsignedAnswer.status == 401)
            #expect(unsignedAnswer.text == Self.couldNotAuthenticate)
            #expect(sandbox.withState { $0.twitterRequestTokens.isEmpty })
        }
    }

    @Test("access_token refuses oauth_verifier beside a header, then issues the token when everything is in the header")
    func accessToken() async throws {
        try await withLiveSandbox(followsRedirects: false) { sandbox, http in
            let twitter = sandbox.endpoints().twitter
            let issued = try await Self.requestToken(sandbox).send(http)
            let fields = Self.form(issued.text)
            let token = try #require(fields["oauth_token"])
            let tokenSecret = try #require(fields["oauth_token_secret"])
            let approval = try await http.execute(
                HTTPClientRequest(
                    url: twitter.apiBaseURL
                        + "/oauth/authenticate?oauth_token=\(token)&sandbox_subject=\(SandboxIdentity.twitterUser.subject)&sandbox_decision=approve"),
                timeout: .seconds(60))
            #expect(approval.status.code == 303)
            let location = try #require(approval.headers.first(name: "Location"))
            let verifier = try #require(URLComponents(string: location)?.queryItems?.first { $0.name == "oauth_verifier" }?.value)

            func accessToken(verifierIn place: Place) -> SignedRequest {
                SignedRequest(
                    url: twitter.apiBaseURL + "/oauth/access_token",
                    oauth: Self.protocolParameters(consumerKey: twitter.credentials.consumerKey, token: token, extra: [("oauth_verifier", verifier)]),
                    consumerSecret: twitter.credentials.consumerSecret, tokenSecret: tokenSecret, places: ["oauth_verifier": place])
            }
            for place in [Place.form, .query] {
                let mixed = try await accessToken(verifierIn: place).send(http)
                #expect(mixed.status == 400, "\(place)")
                #expect(mixed.text == Self.badAuthenticationData, "\(place)")
            }
            let granted = try await accessToken(verifierIn: .header).send(http)
            #expect(granted.status == 200, "\(granted.text)")
            let access = Self.form(granted.text)
            #expect(access["user_id"] == SandboxIdentity.twitterUser.subject)
            #expect(access["oauth_token_secret"]?.isEmpty == false)
        }
    }

    @Test("verify_credentials refuses oauth_token in the query beside a header, and accepts the header alone")
    func verifyCredentials() async throws {
        try await withLiveSandbox { sandbox, http in
            let twitter = sandbox.endpoints().twitter
            let issued = try sandbox.twitterAccessToken(for: .twitterUser)
            func call(tokenIn place: Place) -> SignedRequest {
                SignedRequest(
                    method: "GET", url: twitter.verifyCredentialsURL,
                    oauth: Self.protocolParameters(consumerKey: twitter.credentials.consumerKey, token: issued.token),
                    query: [("include_email", "true")], consumerSecret: twitter.credentials.consumerSecret, tokenSecret: issued.secret,
                    places: ["oauth_token": place])
            }
            let mixed = try await call(tokenIn: .query).send(http)
            #expect(mixed.status == 400)
            #expect(mixed.text == Self.badAuthenticationData)
            let accepted = try await call(tokenIn: .header).send(http)
            #expect(accepted.status == 200, "\(accepted.text)")
            #expect(TestJSON.parse(Data(accepted.text.utf8))?["email"]?.string == "jack@example.com")
        }
    }
}
