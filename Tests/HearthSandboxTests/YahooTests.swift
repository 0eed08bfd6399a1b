import AsyncHTTPClient
import Crypto
import Foundation
import HTTPTypes
import HearthSandbox
import Hummingbird
import HummingbirdTesting
import NIOCore
import Testing

@Suite("Yahoo")
struct YahooTests {
    static let redirectURI = "https://hearth.test/__/auth/handler"

    @Test("Discovery names the real issuer, ES256 and the sandbox's endpoints, as endpoints() does")
    func discovery() async throws {
        try await withSandbox { sandbox, client in
            let discovery = try await client.get("/yahoo/.well-known/openid-configuration")
            #expect(discovery.status == .ok)
            let yahoo = sandbox.endpoints().yahoo
            #expect(discovery["issuer"]?.string == "https://api.login.yahoo.com")
            #expect(yahoo.issuer == "https://api.login.yahoo.com")
            #expect(discovery["authorization_endpoint"]?.string == "http://sandbox.test/yahoo/oauth2/request_auth")
            #expect(discovery["token_endpoint"]?.string == "http://sandbox.test/yahoo/oauth2/get_token")
            #expect(discovery["jwks_uri"]?.string == "http://sandbox.test/yahoo/openid/v1/certs")
            #expect(discovery["userinfo_endpoint"]?.string == "http://sandbox.test/yahoo/openid/v1/userinfo")
            #expect(discovery["id_token_signing_alg_values_supported"] == .array([.string("ES256")]))
            #expect(discovery["token_endpoint_auth_methods_supported"] == .array([.string("client_secret_basic"), .string("client_secret_post")]))
            #expect(discovery["authorization_endpoint"]?.string == yahoo.authorizationURL)
            #expect(discovery["token_endpoint"]?.string == yahoo.tokenURL)
            #expect(discovery["jwks_uri"]?.string == yahoo.jwksURL)
            #expect(discovery["userinfo_endpoint"]?.string == yahoo.userInfoURL)
            #expect(yahoo.discoveryURL == "http://sandbox.test/yahoo/.well-known/openid-configuration")
            #expect(sandbox.discoveryFetchCount(.yahoo) == 1)

            let flat = sandbox.endpoints().flattened
            #expect(flat["yahoo.issuer"] == "https://api.login.yahoo.com")
            #expect(flat["yahoo.jwksURL"] == yahoo.jwksURL)
            #expect(flat["yahoo.tokenURL"] == yahoo.tokenURL)
            #expect(flat["yahoo.clientID"] == sandbox.credentials.yahoo.clientID)
            #expect(flat["yahoo.clientSecret"] == sandbox.credentials.yahoo.clientSecret)
            #expect(SandboxProvider.yahoo.firebaseProviderID == "yahoo.com")
            #expect(SandboxProvider(firebaseProviderID: "yahoo.com") == .yahoo)
            #expect(sandbox.credentials.yahoo.clientID.hasPrefix("dj0y"))
            #expect(sandbox.credentials.yahoo.clientSecret.count == 40)
            #expect(sandbox.credentials.yahoo.clientID != sandbox.credentials.yahoo.otherClientID)
        }
    }

    @Test("The JWKS holds EC P-256 keys only; rotation keeps the old one published")
    func jwks() async throws {
        try await withSandbox { sandbox, client in
            let answer = try await client.get("/yahoo/openid/v1/certs")
            #expect(answer.status == .ok)
            #expect(sandbox.jwksFetchCount(.yahoo) == 1)
            let keys = try #require(answer["keys"]?.array)
            #expect(keys.count == 1)
            let jwk = try #require(keys.first)
            #expect(Set(jwk.object?.keys.map { $0 } ?? []) == ["kty", "crv", "x", "y", "kid", "use", "alg"])
            #expect(jwk["kty"]?.string == "EC")
            #expect(jwk["crv"]?.string == "P-256")
            #expect(jwk["use"]?.string == "sig")
            #expect(jwk["alg"]?.string == "ES256")
            let kid = try #require(jwk["kid"]?.string)
            #expect(kid.count == 32 && kid.allSatisfy(\.isHexDigit))
            #expect(try sandbox.publishedKeyIDs(.yahoo) == [kid])
            let x = try #require(jwk["x"]?.string.flatMap(IndependentJWT.base64URL))
            let y = try #require(jwk["y"]?.string.flatMap(IndependentJWT.base64URL))
            #expect(x.count == 32 && y.count == 32)
            _ = try P256.Signing.PublicKey(rawRepresentation: x + y)

            let before = try sandbox.yahooIDToken(for: .yahooUser)
            let newKid = try sandbox.rotateKeys(.yahoo)
            #expect(try sandbox.publishedKeyIDs(.yahoo) == [newKid, kid])
            let rotated = try await client.get("/yahoo/openid/v1/certs").body
            let after = try IndependentJWT(try sandbox.yahooIDToken(for: .yahooUser))
            #expect(after.kid == newKid)
            #expect(try after.verifies(against: rotated))
            #expect(try IndependentJWT(before).verifies(against: rotated))
            try sandbox.rotateKeys(.yahoo, keepPrevious: false)
            #expect(try !IndependentJWT(before).verifies(against: try await client.get("/yahoo/openid/v1/certs").body))

            // Yahoo's key is not another provider's and vice versa.
            let google = try await client.get("/google/oauth2/v3/certs").body
            #expect(try !after.verifies(against: google))
        }
    }

    @Test("A minted ID token: ES256 header with the published kid, Yahoo's claims, a signature swift-crypto accepts")
    func idToken() async throws {
        try await withSandbox { sandbox, client in
            let jwks = try await client.get("/yahoo/openid/v1/certs").body
            let token = try IndependentJWT(try sandbox.yahooIDToken(for: .yahooUser, nonce: .claim("n-0S6_WzA2Mj")))
            #expect(
                token.header == .object(["alg": .string("ES256"), "kid": .string(try sandbox.publishedKeyIDs(.yahoo)[0]), "typ": .string("JWT")]))
            #expect(token.signature.count == 64, "ES256 is the raw r || s, not DER")
            #expect(try token.verifies(against: jwks))

            let now = Int(Date().timeIntervalSince1970)
            let identity = SandboxIdentity.yahooUser
            #expect(token["iss"]?.string == "https://api.login.yahoo.com")
            #expect(token["aud"]?.string == sandbox.credentials.yahoo.clientID)
            #expect(token["sub"]?.string == identity.subject)
            #expect(identity.subject.count == 26 && identity.subject.allSatisfy { $0.isUppercase || $0.isNumber })
            let iat = try #require(token["iat"]?.int)
            #expect(abs(iat - now) < 120)
            #expect(token["exp"]?.int == iat + 3600)
            #expect(token["auth_time"]?.int == iat)
            #expect(token["nonce"]?.string == "n-0S6_WzA2Mj")
            #expect(token["email"]?.string == "yvonne.sandbox@yahoo.com")
            #expect(token["email_verified"] == .bool(true))
            #expect(token["name"]?.string == identity.displayName)
            #expect(token["given_name"]?.string == identity.givenName)
            #expect(token["family_name"]?.string == identity.familyName)
            #expect(token["nickname"]?.string == identity.screenName)
            #expect(token["picture"]?.string == identity.photoURL)
            #expect(token["locale"]?.string == "en-US")

            // A raw nonce is hashed as for the other providers; no nonce, no claim.
            #expect(try IndependentJWT(try sandbox.yahooIDToken(for: .yahooUser, nonce: .raw("r")))["nonce"]?.string == IndependentJWT.sha256Hex("r"))
            let plain = try IndependentJWT(try sandbox.yahooIDToken(for: .yahooNoEmail, clientID: "someone-else", expiresIn: 60))
            #expect(plain["nonce"] == nil)
            #expect(plain["email"] == nil && plain["email_verified"] == nil)
            #expect(plain["aud"]?.string == "someone-else")
            #expect(plain["exp"]?.int == (plain["iat"]?.int ?? 0) + 60)
            #expect(try plain.verifies(against: jwks))

            let edited = try IndependentJWT(try sandbox.yahooIDToken(for: .yahooUser, extraClaims: ["amr": ["mfa"]], omittedClaims: ["email"]))
            #expect(edited["amr"] == .array([.string("mfa")]))
            #expect(edited["email"] == nil)

            #expect(throws: SandboxError.wrongProvider(expected: .yahoo, got: .google)) {
                try sandbox.yahooIDToken(for: .googleGmail)
            }
            #expect(throws: SandboxError.wrongProvider(expected: .yahoo, got: .google)) {
                try sandbox.yahooAccessToken(for: .googleGmail)
            }
        }
    }

    @Test("Every defect works on ES256 tokens", arguments: SandboxTokenDefect.allCases)
    func defect(_ defect: SandboxTokenDefect) async throws {
        try await withSandbox { sandbox, client in
            let jwks = try await client.get("/yahoo/openid/v1/certs").body
            let published = try sandbox.publishedKeyIDs(.yahoo)
            let now = Int(Date().timeIntervalSince1970)
            let raw = try sandbox.yahooIDToken(for: .yahooUser, nonce: .claim("right"), defect: defect)
            let token = try IndependentJWT(raw)
            switch defect {
            case .expired:
                #expect(try token.verifies(against: jwks))
                #expect(try #require(token["exp"]?.int) < now - 300)
            case .notYetValid:
                #expect(try token.verifies(against: jwks))
                #expect(try #require(token["iat"]?.int) > now + 300)
                #expect(try #require(token["auth_time"]?.int) > now + 300)
            case .wrongAudience:
                #expect(try token.verifies(against: jwks))
                #expect(token["aud"]?.string == Sandbox.wrongAudience)
            case .wrongIssuer, .issuerTenantMismatch:
                #expect(try token.verifies(against: jwks))
                #expect(token["iss"]?.string == Sandbox.wrongIssuer)
            case .wrongNonce:
                #expect(try token.verifies(against: jwks))
                #expect(token["nonce"]?.string != "right")
            case .unpublishedKey:
                #expect(token.alg == "ES256")
                #expect(token.kid == published.first)
                #expect(try token.p256Key(in: jwks) != nil)
                #expect(token.signature.count == 64)
                #expect(try !token.verifies(against: jwks))
            case .unknownKeyID:
                #expect(token.alg == "ES256")
                #expect(token.kid != nil && !published.contains(token.kid ?? ""))
                #expect(try token.p256Key(in: jwks) == nil)
                #expect(try !token.verifies(against: jwks))
            case .algNone:
                #expect(raw.hasSuffix("."))
                #expect(token.alg == "none")
                #expect(try !token.verifies(against: jwks))
            case .hs256WithPublicKey:
                // The HMAC key is the published EC key's PEM: what a verifier confused into HS256 would use.
                #expect(token.alg == "HS256")
                let pem = try #require(try token.p256Key(in: jwks)).pemRepresentation
                let mac = HMAC<SHA256>.authenticationCode(for: token.signingInput, using: SymmetricKey(data: Data(pem.utf8)))
                #expect(Data(mac) == token.signature)
                #expect(try !token.verifies(against: jwks))
            case .tamperedPayload:
                #expect(token.alg == "ES256")
                #expect(token["sub"]?.string == SandboxIdentity.yahooUser.subject + "-tampered")
                #expect(try !token.verifies(against: jwks))
            }
        }
    }

    @Test("userinfo answers the claims the access token's scopes allow, and 401 invalid_token otherwise")
    func userInfo() async throws {
        try await withSandbox { sandbox, client in
            func userInfo(_ token: String?) async throws -> TestAnswer {
                try await client.get("/yahoo/openid/v1/userinfo", headers: token.map { [.authorization: "Bearer \($0)"] } ?? [:])
            }
            let full = try await userInfo(try sandbox.yahooAccessToken(for: .yahooUser))
            #expect(full.status == .ok)
            #expect(
                full.json
                    == .object([
                        "sub": .string(SandboxIdentity.yahooUser.subject), "email": .string("yvonne.sandbox@yahoo.com"),
                        "email_verified": .bool(true),
                        "name": .string("Yvonne Yodel"), "given_name": .string("Yvonne"), "family_name": .string("Yodel"),
                        "nickname": .string("Yvonne"),
                        "picture": .string(SandboxIdentity.yahooUser.photoURL ?? ""), "locale": .string("en-US"),
                    ]))
            let openidOnly = try await userInfo(try sandbox.yahooAccessToken(for: .yahooUser, scopes: ["openid"]))
            #expect(openidOnly.json == .object(["sub": .string(SandboxIdentity.yahooUser.subject)]))
            let noEmail = try await userInfo(try sandbox.yahooAccessToken(for: .yahooNoEmail))
            #expect(noEmail["email"] == nil && noEmail["name"]?.string == "Yusuf Nomail")

            let expired = try sandbox.yahooAccessToken(for: .yahooUser, expiresIn: -1)
            let revoked = try sandbox.yahooAccessToken(for: .yahooUser)
            sandbox.revoke(token: revoked)
            let google = try sandbox.googleAccessToken(for: .googleGmail)
            for token in [nil, "", "not-a-token", expired, revoked, google, "x\u{0}y"] {
                let refused = try await userInfo(token)
                #expect(refused.status == .unauthorized, "\(String(describing: token))")
                #expect(refused["error"]?.string == "invalid_token")
                #expect(refused.headers[.wwwAuthenticate] == "Bearer error=\"invalid_token\"")
            }
        }
    }

    @Test("signInCredential and the console mint Yahoo ID tokens; the console lists the Yahoo accounts")
    func console() async throws {
        try await withSandbox { sandbox, client in
            let credential = try sandbox.signInCredential(for: .yahooUser, rawNonce: "raw-n")
            #expect(credential.providerId == "yahoo.com")
            let token = try IndependentJWT(try #require(credential.idToken))
            #expect(token["nonce"]?.string == IndependentJWT.sha256Hex("raw-n"))
            #expect(credential.postBody.hasPrefix("providerId=yahoo.com&id_token="))
            #expect(sandbox.identities(for: .yahoo) == [.yahooUser, .yahooNoEmail])

            let minted = try await client.get("/credentials/yahoo.com?subject=\(SandboxIdentity.yahooNoEmail.subject)")
            #expect(minted.status == .ok, "\(minted.text)")
            #expect(minted["providerId"]?.string == "yahoo.com")
            #expect(minted["subject"]?.string == SandboxIdentity.yahooNoEmail.subject)
            let index = try await client.get("/")
            #expect(index.text.contains("yvonne.sandbox@yahoo.com"))
        }
    }

    // MARK: The browser flow over real HTTP

    /// RFC 7636 appendix B: a verifier and its S256 challenge, computed independently of the sandbox.
    static let verifier = "dBjftJeZ4CVP-mB92K27uhbUJU1p1r_wW1gFWFOEjXk"
    static let challenge = "E9Melhoa2OwvFrEMTJguCHaoeK1t8URWbuGJSstw-cM"

    @Test("Consent page, code exchange (secret post and HTTP Basic, PKCE), ID token with the nonce, userinfo, over loopback HTTP")
    func browserFlow() async throws {
        try await withLiveSandbox(followsRedirects: false) { sandbox, http in
            try await Self.flow(http: http, sandbox: sandbox, yahoo: sandbox.endpoints().yahoo)
        }
    }

    private struct Answer {
        let status: UInt
        let headers: [(String, String)]
        let body: Data
        var json: TestJSON { TestJSON.parse(body) ?? .null }
        var text: String { String(decoding: body, as: UTF8.self) }
        func header(_ name: String) -> String? { headers.first { $0.0.lowercased() == name.lowercased() }?.1 }
    }

    private static func encode(_ fields: [(String, String)]) -> String {
        fields.map { "\(TestOAuth1Signer.encode($0.0))=\(TestOAuth1Signer.encode($0.1))" }.joined(separator: "&")
    }

    private static func flow(http: HTTPClient, sandbox: Sandbox, yahoo: SandboxEndpoints.Yahoo) async throws {
        func send(_ url: String, form: [(String, String)]? = nil, headers: [(String, String)] = []) async throws -> Answer {
            var request = HTTPClientRequest(url: url)
            for (name, value) in headers { request.headers.add(name: name, value: value) }
            if let form {
                request.method = .POST
                request.headers.add(name: "Content-Type", value: "application/x-www-form-urlencoded")
                request.body = .bytes(ByteBuffer(string: encode(form)))
            }
            let response = try await http.execute(request, timeout: .seconds(60))
            let body = try await response.body.collect(upTo: 1 << 20)
            return Answer(status: response.status.code, headers: response.headers.map { ($0.name, $0.value) }, body: Data(buffer: body))
        }

        // The relying party learns everything from discovery, as a Hearth configured with the real issuer would.
        let discovery = try await send(yahoo.discoveryURL)
        #expect(discovery.status == 200)
        let authorizationURL = try #require(discovery.json["authorization_endpoint"]?.string)
        let tokenURL = try #require(discovery.json["token_endpoint"]?.string)
        let jwks = try await send(try #require(discovery.json["jwks_uri"]?.string))
        #expect(jwks.status == 200)
        let credentials = sandbox.credentials.yahoo

        let request: [(String, String)] = [
            ("client_id", credentials.clientID), ("redirect_uri", redirectURI), ("response_type", "code"),
            ("scope", "openid email profile"), ("state", "st-1"), ("nonce", "yahoo-nonce-42"),
            ("code_challenge", challenge), ("code_challenge_method", "S256"),
        ]
        // The sign-in page lists Yahoo's accounts and carries the request back as hidden fields.
        let page = try await send("\(authorizationURL)?\(encode(request))")
        #expect(page.status == 200)
        #expect(page.header("Content-Type")?.hasPrefix("text/html") == true)
        #expect(page.text.contains("Sign in with Yahoo"))
        #expect(page.text.contains(SandboxIdentity.yahooUser.subject) && page.text.contains(SandboxIdentity.yahooNoEmail.subject))
        #expect(!page.text.contains(SandboxIdentity.googleGmail.subject))
        #expect(page.text.contains("name=\"nonce\" value=\"yahoo-nonce-42\""))
        #expect(sandbox.lastAuthorizationRequest(.yahoo)?["nonce"] == "yahoo-nonce-42")

        /// Approves on the page (a POST of the form, as the browser sends it) and returns the code.
        func approve(_ fields: [(String, String)], subject: String) async throws -> String {
            let answer = try await send(authorizationURL, form: fields + [("sandbox_subject", subject), ("sandbox_decision", "approve")])
            #expect(answer.status == 303, "\(answer.text)")
            let location = try #require(answer.header("Location"))
            #expect(location.hasPrefix(redirectURI + "?"))
            let items = URLComponents(string: location)?.queryItems ?? []
            #expect(items.first { $0.name == "state" }?.value == "st-1")
            return try #require(items.first { $0.name == "code" }?.value)
        }
        func exchange(
            _ code: String, verifier: String? = YahooTests.verifier, secret: String? = nil, basic: Bool = false,
            redirect: String = YahooTests.redirectURI
        ) async throws -> Answer {
            let secret = secret ?? credentials.clientSecret
            var form = [("grant_type", "authorization_code"), ("code", code), ("redirect_uri", redirect)]
            var headers: [(String, String)] = []
            if basic {
                headers.append(("Authorization", "Basic \(Data("\(credentials.clientID):\(secret)".utf8).base64EncodedString())"))
            } else {
                form += [("client_id", credentials.clientID), ("client_secret", secret)]
            }
            if let verifier { form.append(("code_verifier", verifier)) }
            return try await send(tokenURL, form: form, headers: headers)
        }

        // client_secret_post with the right verifier; refusals first, none of which uses the code up.
        let code = try await approve(request, subject: SandboxIdentity.yahooUser.subject)
        let wrongSecret = try await exchange(code, secret: credentials.otherClientSecret)
        #expect(wrongSecret.status == 401)
        #expect(wrongSecret.json == .object(["error": .string("invalid_client"), "error_description": .string("Client authentication failed.")]))
        let wrongBasic = try await exchange(code, secret: "0000", basic: true)
        #expect(wrongBasic.status == 401)
        #expect(wrongBasic.json["error"]?.string == "invalid_client")
        let missingVerifier = try await exchange(code, verifier: nil)
        #expect(missingVerifier.status == 400)
        #expect(
            missingVerifier.json == .object(["error": .string("invalid_grant"), "error_description": .string("code_verifier is missing (PKCE).")]))
        let wrongVerifier = try await exchange(code, verifier: verifier + "x")
        #expect(wrongVerifier.status == 400)
        #expect(
            wrongVerifier.json
                == .object([
                    "error": .string("invalid_grant"), "error_description": .string("code_verifier does not match the code_challenge (PKCE)."),
                ]))
        let wrongRedirect = try await exchange(code, redirect: redirectURI + "x")
        #expect(wrongRedirect.json["error"]?.string == "invalid_grant")

        let tokens = try await exchange(code)
        #expect(tokens.status == 200, "\(tokens.text)")
        #expect(tokens.header("Content-Type")?.hasPrefix("application/json") == true)
        #expect(tokens.json["token_type"]?.string == "bearer")
        #expect(tokens.json["expires_in"]?.int == 3600)
        #expect(tokens.json["refresh_token"]?.string?.isEmpty == false)
        #expect(tokens.json["xoauth_yahoo_guid"]?.string == SandboxIdentity.yahooUser.subject)
        let accessToken = try #require(tokens.json["access_token"]?.string)
        let idToken = try IndependentJWT(try #require(tokens.json["id_token"]?.string))
        #expect(idToken.alg == "ES256")
        #expect(try idToken.verifies(against: jwks.body))
        #expect(idToken["iss"]?.string == "https://api.login.yahoo.com")
        #expect(idToken["aud"]?.string == credentials.clientID)
        #expect(idToken["sub"]?.string == SandboxIdentity.yahooUser.subject)
        #expect(idToken["nonce"]?.string == "yahoo-nonce-42", "the authorization request's nonce, verbatim")
        #expect(idToken["email"]?.string == "yvonne.sandbox@yahoo.com")
        let again = try await exchange(code)
        #expect(again.status == 400)
        #expect(again.json == .object(["error": .string("invalid_grant"), "error_description": .string("The code has already been used.")]))

        let profile = try await send(try #require(discovery.json["userinfo_endpoint"]?.string), headers: [("Authorization", "Bearer \(accessToken)")])
        #expect(profile.status == 200)
        #expect(profile.json["sub"]?.string == SandboxIdentity.yahooUser.subject)
        #expect(profile.json["email"]?.string == "yvonne.sandbox@yahoo.com")

        // HTTP Basic client authentication, no PKCE, no nonce: the ID token has no nonce claim.
        let plainRequest = request.filter { !["nonce", "code_challenge", "code_challenge_method"].contains($0.0) }
        let second = try await approve(plainRequest, subject: SandboxIdentity.yahooNoEmail.subject)
        let basic = try await exchange(second, verifier: nil, basic: true)
        #expect(basic.status == 200, "\(basic.text)")
        let secondToken = try IndependentJWT(try #require(basic.json["id_token"]?.string))
        #expect(secondToken["sub"]?.string == SandboxIdentity.yahooNoEmail.subject)
        #expect(secondToken["nonce"] == nil && secondToken["email"] == nil)
        #expect(try secondToken.verifies(against: jwks.body))

        // A code is the app's it was issued to: another registered app with its own secret cannot redeem it.
        let third = try await approve(plainRequest, subject: SandboxIdentity.yahooUser.subject)
        let otherApp = try await send(
            tokenURL,
            form: [
                ("grant_type", "authorization_code"), ("code", third), ("redirect_uri", redirectURI),
                ("client_id", credentials.otherClientID), ("client_secret", credentials.otherClientSecret),
            ])
        #expect(otherApp.status == 400)
        #expect(otherApp.json["error"]?.string == "invalid_grant")

        // Cancel and an unknown client.
        let cancelled = try await send(authorizationURL, form: request + [("sandbox_decision", "cancel")])
        #expect(cancelled.status == 303)
        #expect(cancelled.header("Location")?.contains("error=access_denied") == true)
        let unknown = try await send(
            "\(authorizationURL)?\(encode([("client_id", "nobody"), ("redirect_uri", redirectURI), ("response_type", "code")]))")
        #expect(unknown.status == 400)
    }
}
