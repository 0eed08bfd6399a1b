import Foundation
import HTTPTypes
import HearthCore
import HearthSandbox
import HearthServer
import HearthTesting
import HearthWire
import Hummingbird
import HummingbirdTesting
import Testing

/// Bad credentials over HTTP against the sandbox, each with its full Firebase error string: defective ID
/// tokens of every ID-token provider, tampered OAuth 1.0a tokens, slow providers, unknown and disabled
/// providers. None of them creates anything.
@Suite("Federated sign-in: rejections over HTTP")
struct FederatedRejectionTests {
    /// The ID-token providers besides Google (FederatedSignInTests covers Google).
    enum TokenProvider: String, CaseIterable, CustomTestStringConvertible, Sendable {
        case apple, microsoft, facebookLimitedLogin, oidc, google, yahoo

        var providerID: String {
            switch self {
            case .apple: "apple.com"
            case .microsoft: "microsoft.com"
            case .facebookLimitedLogin: "facebook.com"
            case .oidc: "oidc.sandbox"
            case .google: "google.com"
            case .yahoo: "yahoo.com"
            }
        }

        /// The name in Hearth's `Invalid <name> id_token: …` messages.
        var name: String {
            switch self {
            case .apple: "Apple"
            case .microsoft: "Microsoft"
            case .facebookLimitedLogin: "Facebook"
            case .oidc: "oidc.sandbox"
            case .google: "Google"
            case .yahoo: "yahoo.com"
            }
        }

        var testDescription: String { rawValue }

        func token(_ sandbox: Sandbox, nonce: String, defect: SandboxTokenDefect?) throws -> String {
            switch self {
            case .apple: try sandbox.appleIDToken(for: .appleAlice, nonce: .raw(nonce), defect: defect)
            case .microsoft: try sandbox.microsoftIDToken(for: .microsoftWork, nonce: .raw(nonce), defect: defect)
            case .facebookLimitedLogin: try sandbox.facebookLimitedLoginToken(for: .facebookUser, nonce: .raw(nonce), defect: defect)
            case .oidc: try sandbox.oidcIDToken(for: .oidcUser, nonce: .raw(nonce), defect: defect)
            case .google: try sandbox.googleIDToken(for: .googleGmail, nonce: .raw(nonce), defect: defect)
            case .yahoo: try sandbox.yahooIDToken(for: .yahooUser, nonce: .raw(nonce), defect: defect)
            }
        }
    }

    static let defects: [SandboxTokenDefect] = [
        .unpublishedKey, .tamperedPayload, .expired, .wrongAudience, .wrongIssuer, .algNone, .hs256WithPublicKey, .wrongNonce,
    ]

    /// The exact error of `defect` in `token`.
    static func expectedError(_ provider: TokenProvider, _ defect: SandboxTokenDefect, token: String, rawNonce: String = "") -> String {
        let invalid = "INVALID_IDP_RESPONSE : Invalid \(provider.name) id_token: "
        let claims = jwtClaims(token)
        switch defect {
        case .unpublishedKey, .tamperedPayload:
            return invalid + "the signature does not verify."
        case .unknownKeyID:
            return invalid + "it is signed with an unknown key."
        case .notYetValid:
            guard case .number(let iat)? = claims["iat"] else { return "no iat" }
            if case .number(let nbf)? = claims["nbf"] {
                return invalid + "it is not valid before \(Date(timeIntervalSince1970: nbf).formatted(.iso8601))."
            }
            return invalid + "it was issued in the future (\(Date(timeIntervalSince1970: iat).formatted(.iso8601)))."
        case .expired:
            guard case .number(let exp)? = claims["exp"] else { return "no exp" }
            return invalid + "it expired at \(Date(timeIntervalSince1970: exp).formatted(.iso8601))."
        case .wrongAudience:
            return invalid + "the audience in ID Token [\(Sandbox.wrongAudience)] does not match the expected audience."
        case .wrongIssuer where provider == .microsoft:
            return invalid + "the issuer \"\(Sandbox.wrongIssuer)\" does not match its tenant \(SandboxMicrosoftTenant.contoso.id)."
        case .wrongIssuer:
            return invalid + "the issuer \"\(Sandbox.wrongIssuer)\" is not accepted."
        case .algNone:
            return invalid + "the signing algorithm \"none\" is not accepted."
        case .hs256WithPublicKey:
            return invalid + "the signing algorithm \"HS256\" is not accepted."
        case .wrongNonce:
            guard case .string(let claim)? = claims["nonce"] else { return "no nonce" }
            return
                "MISSING_OR_INVALID_NONCE : The nonce in ID Token \"\(claim)\" does not match the SHA256 hash of the raw nonce \"\(rawNonce)\" in the request."
        default:
            return "not expected in this test"
        }
    }

    @Test(
        "Defective ID tokens of Apple, Microsoft, Facebook Limited Login, Yahoo and OIDC are refused with their exact errors and create nothing",
        arguments: [TokenProvider.apple, .microsoft, .facebookLimitedLogin, .yahoo, .oidc], defects)
    func defectiveIDTokens(provider: TokenProvider, defect: SandboxTokenDefect) async throws {
        try await withFederated { live, client in
            let rawNonce = "raw-nonce-\(provider.rawValue)"
            let token = try provider.token(live.sandbox, nonce: rawNonce, defect: defect)
            let result = try await client.signInWithIdp("providerId=\(provider.providerID)&id_token=\(token)&nonce=\(rawNonce)")
            #expect(result.status == .badRequest)
            #expect(result.errorMessage == Self.expectedError(provider, defect, token: token, rawNonce: rawNonce), "\(result.text)")
            #expect(result.text.contains(token) == false)
            #expect(try await live.services.store.countUsers() == 0)

            // The same provider accepts a good token: the refusal was the defect's.
            let good = try provider.token(live.sandbox, nonce: rawNonce, defect: nil)
            let accepted = try await client.signInWithIdp("providerId=\(provider.providerID)&id_token=\(good)&nonce=\(rawNonce)")
            #expect(accepted.status == .ok, "\(accepted.text)")
        }
    }

    @Test("A Microsoft token whose issuer names another tenant than its tid is refused")
    func microsoftIssuerTenantMismatch() async throws {
        try await withFederated { live, client in
            let token = try live.sandbox.microsoftIDToken(for: .microsoftWork, defect: .issuerTenantMismatch)
            let result = try await client.signInWithIdp("providerId=microsoft.com&id_token=\(token)")
            let fabrikam = SandboxMicrosoftTenant.fabrikam.id
            let contoso = SandboxMicrosoftTenant.contoso.id
            #expect(
                result.errorMessage
                    == "INVALID_IDP_RESPONSE : Invalid Microsoft id_token: the issuer \"https://login.microsoftonline.com/\(fabrikam)/v2.0\" does not match its tenant \(contoso)."
            )
        }
    }

    @Test("Facebook Limited Login needs the raw nonce, and a missing one is MISSING_OR_INVALID_NONCE")
    func facebookLimitedLoginWithoutNonce() async throws {
        try await withFederated { live, client in
            let token = try live.sandbox.facebookLimitedLoginToken(for: .facebookUser, nonce: .raw("n"))
            let result = try await client.signInWithIdp("providerId=facebook.com&id_token=\(token)")
            #expect(result.errorMessage == "MISSING_OR_INVALID_NONCE : Nonce is missing in the request.")
            #expect(try await live.services.store.countUsers() == 0)
        }
    }

    @Test("Twitter: a tampered OAuth 1.0a access token (with its genuine secret) is refused by Twitter, so by Hearth")
    func twitterTamperedToken() async throws {
        try await withFederated { live, client in
            let token = try live.sandbox.twitterAccessToken(for: .twitterUser)
            let last = token.token.last == "a" ? "b" : "a"
            let tampered = String(token.token.dropLast()) + last
            let result = try await client.signInWithIdp(
                "providerId=twitter.com&access_token=\(formEncoded(tampered))&oauth_token_secret=\(formEncoded(token.secret))")
            #expect(result.status == .badRequest)
            #expect(result.errorMessage == "INVALID_IDP_RESPONSE : Twitter did not accept the OAuth 1.0a token and secret for this app.")
            let noSecret = try await client.signInWithIdp("providerId=twitter.com&access_token=\(formEncoded(token.token))")
            #expect(noSecret.errorMessage == "INVALID_IDP_RESPONSE : The Twitter credential needs both oauth_token and oauth_token_secret.")
            #expect(try await live.services.store.countUsers() == 0)

            let genuine = try await client.signInWithIdp(
                "providerId=twitter.com&access_token=\(formEncoded(token.token))&oauth_token_secret=\(formEncoded(token.secret))")
            #expect(genuine.status == .ok, "\(genuine.text)")
        }
    }

    @Test(
        "A provider that accepts the connection and never answers yields the documented error after the timeout",
        arguments: ["github.com", "apple.com"])
    func slowProvider(providerID: String) async throws {
        // A server that takes every request and sits on it, well past Hearth's one-second provider timeout.
        let router = Router()
        for method in [HTTPRequest.Method.get, .post] {
            router.on("/**", method: method) { _, _ -> String in
                try await Task.sleep(for: .seconds(6))
                return "{}"
            }
        }
        try await Application(router: router).test(.live) { stalling in
            let base = "http://127.0.0.1:\(try #require(stalling.port))"
            try await withFederated(providers: { providers in
                providers.network.requestTimeout = 1
                providers.gitHub.apiBaseURL = URL(string: base)!
                providers.apple.jwksURL = URL(string: base + "/auth/keys")!
            }) { live, client in
                let identity: SandboxIdentity = providerID == "apple.com" ? .appleAlice : .githubUser
                let started = ContinuousClock.now
                let result = try await client.signInWithIdp(try live.sandbox.signInCredential(for: identity, rawNonce: "slow").postBody)
                #expect(result.status == .badRequest)
                #expect(result.errorMessage == "INVALID_IDP_RESPONSE : The identity provider did not answer in time.", "\(result.text)")
                // A hang guard only: the answer comes after the 1 s timeout, not after the provider's 6 s.
                #expect(ContinuousClock.now - started < .seconds(30))
                #expect(try await live.services.store.countUsers() == 0)
            }
        }
    }

    @Test(
        "Unknown providers are INVALID_CREDENTIAL_OR_PROVIDER_ID",
        arguments: ["myspace.com", "password", "phone"])
    func unknownProvider(providerID: String) async throws {
        try await withFederated { _, client in
            let result = try await client.signInWithIdp("providerId=\(providerID)&access_token=x")
            #expect(result.status == .badRequest)
            #expect(result.errorMessage == "INVALID_CREDENTIAL_OR_PROVIDER_ID : Invalid IdP response/credential: http://localhost")
        }
    }

    @Test(
        "A provider switched off through the admin API is OPERATION_NOT_ALLOWED and creates nothing; an OIDC provider nobody configured too",
        arguments: ["apple.com", "microsoft.com", "twitter.com", "google.com", "facebook.com", "github.com", "oidc.sandbox"])
    func disabledProvider(providerID: String) async throws {
        try await withFederated { live, client in
            let credentials = live.sandbox.credentials
            let path: String
            let body: String
            if providerID == "oidc.sandbox" {
                let oidc = try #require(live.sandbox.oidcClient("sandbox"))
                path = "/v2/projects/\(live.projectID)/oauthIdpConfigs?oauthIdpConfigId=oidc.sandbox"
                body =
                    JSONValue.object([
                        "enabled": .bool(false), "clientId": .string(oidc.clientID), "issuer": .string(live.sandbox.oidcIssuer("sandbox")),
                    ]).jsonText
            } else {
                path = "/v2/projects/\(live.projectID)/defaultSupportedIdpConfigs?idpId=\(providerID)"
                body = JSONValue.object(["enabled": .bool(false), "clientId": .string(credentials.google.webClientID)]).jsonText
            }
            let stored = try await client.send(.post, path, body)
            #expect(stored.status == .ok, "\(stored.text)")
            let identity = try #require(SandboxIdentity.presets.first { $0.provider.firebaseProviderID == providerID })
            let result = try await client.signInWithIdp(try live.sandbox.signInCredential(for: identity, rawNonce: "off").postBody)
            #expect(result.status == .badRequest)
            #expect(result.errorMessage == "OPERATION_NOT_ALLOWED")
            let browser = try await client.createAuthUri(providerID: providerID, continueUri: BrowserSignInTests.returnURL)
            #expect(browser.errorMessage == "OPERATION_NOT_ALLOWED")

            let unconfigured = try await client.signInWithIdp("providerId=oidc.nobody&id_token=\(try live.sandbox.oidcIDToken(for: .oidcUser))")
            #expect(unconfigured.errorMessage == "OPERATION_NOT_ALLOWED")
            #expect(try await live.services.store.countUsers() == 0)
        }
    }
}
