import Foundation
import HTTPTypes
import HearthCore
import HearthSandbox
import HearthServer
import HearthTesting
import HearthWire
import Testing

/// The admin API for provider settings: who may call it, what it stores, what it never returns, and that
/// a change reaches federated sign-in.
@Suite("Admin API: defaultSupportedIdpConfigs and oauthIdpConfigs")
struct IdpConfigTests {
    static let owner: HTTPFields = [.authorization: "Bearer owner"]
    static let project = "demo-hearth"

    @Test("Without a bearer token the admin routes answer 401 UNAUTHENTICATED; Bearer owner only in development")
    func authentication() async throws {
        try await withHearth { _, client async throws in
            let missing = try await client.raw("/v2/projects/\(Self.project)/defaultSupportedIdpConfigs", method: .get)
            #expect(missing.status == .unauthorized)
            #expect(
                missing.errorMessage
                    == "Request is missing required authentication credential. Expected OAuth 2 access token, login cookie or other valid authentication credential. See https://developers.google.com/identity/sign-in/web/devconsole-project."
            )
            let owner = try await client.raw("/v2/projects/\(Self.project)/defaultSupportedIdpConfigs", method: .get, headers: Self.owner)
            #expect(owner.status == .ok)
        }
        let token = String(repeating: "a1b2c3d4", count: 5)
        try await withHearth({ configuration in
            configuration.mode = .production
            configuration.projectID = "hearth-prod"
            configuration.apiKeys = ["production-api-key-0001"]
            configuration.adminTokens = [token]
        }) { _, client async throws in
            var client = client
            client.apiKey = nil
            let path = "/v2/projects/hearth-prod/oauthIdpConfigs"
            let owner = try await client.raw(path, method: .get, headers: Self.owner)
            #expect(owner.status == .unauthorized)
            #expect(
                owner.errorMessage
                    == "Request had invalid authentication credentials. Expected OAuth 2 access token, login cookie or other valid authentication credential. See https://developers.google.com/identity/sign-in/web/devconsole-project."
            )
            #expect(owner.json["error"]?.jsonText.contains("UNAUTHENTICATED") == true)
            let wrong = try await client.raw(path, method: .get, headers: [.authorization: "Bearer \(token)x"])
            #expect(wrong.status == .unauthorized)
            // The real token followed by 256 more characters: the length difference once wrapped to 0 in a UInt8.
            for extra in [256, 512, 1] {
                let longer = try await client.raw(
                    path, method: .get, headers: [.authorization: "Bearer \(token)\(String(repeating: "a", count: extra))"])
                #expect(longer.status == .unauthorized, "\(extra) extra characters")
            }
            let prefix = try await client.raw(path, method: .get, headers: [.authorization: "Bearer \(token.dropLast())"])
            #expect(prefix.status == .unauthorized)
            let right = try await client.raw(path, method: .get, headers: [.authorization: "Bearer \(token)"])
            #expect(right.status == .ok, "\(right.text)")
            let otherProject = try await client.raw(
                "/v2/projects/someone-else/oauthIdpConfigs", method: .get, headers: [.authorization: "Bearer \(token)"])
            #expect(otherProject.status == .notFound)
            #expect(otherProject.errorMessage == "PROJECT_NOT_FOUND")
        }
    }

    @Test("Create, get, list, patch and delete; built-in providers' secrets are never returned, OIDC's clientSecret is; the documented errors")
    func lifecycle() async throws {
        try await withHearth { _, client async throws in
            let base = "/v2/projects/\(Self.project)/defaultSupportedIdpConfigs"
            let created = try await client.send(
                .post, base + "?idpId=facebook.com",
                #"{"enabled":true,"clientId":"1234567890","clientSecret":"the-app-secret-never-shown"}"#)
            #expect(created.status == .ok, "\(created.text)")
            #expect(created.string("name") == "projects/\(Self.project)/defaultSupportedIdpConfigs/facebook.com")
            #expect(created["enabled"] == .bool(true))
            #expect(!created.text.contains("the-app-secret-never-shown"))
            #expect(created["clientSecret"] == nil)

            let again = try await client.send(.post, base + "?idpId=facebook.com", #"{"enabled":true,"clientId":"1","clientSecret":"s"}"#)
            #expect(again.errorMessage == "CONFIGURATION_EXISTS")

            let unknown = try await client.send(.post, base + "?idpId=myspace.com", #"{"enabled":true,"clientId":"1"}"#)
            #expect(
                unknown.errorMessage
                    == "INVALID_PROVIDER_ID : expected one of apple.com, facebook.com, github.com, google.com, microsoft.com, twitter.com, yahoo.com")

            let noSecret = try await client.send(.post, base + "?idpId=twitter.com", #"{"enabled":true,"clientId":"key"}"#)
            #expect(noSecret.errorMessage == "INVALID_CONFIG : clientSecret is required")
            let noClient = try await client.send(.post, base + "?idpId=google.com", #"{"enabled":true}"#)
            #expect(noClient.errorMessage == "INVALID_OAUTH_CLIENT_ID : clientId is required")

            let apple = try await client.send(
                .post, base + "?idpId=apple.com",
                #"{"enabled":true,"clientId":"com.example.web","appleSignInConfig":{"bundleIds":["com.example.app"],"codeFlowConfig":{"teamId":"TEAM123456","keyId":"KEY1234567","privateKey":"-----BEGIN PRIVATE KEY-----\nsecret\n-----END PRIVATE KEY-----"}}}"#
            )
            #expect(apple.status == .ok, "\(apple.text)")
            #expect(!apple.text.contains("BEGIN PRIVATE KEY"))
            #expect(apple.json["appleSignInConfig"]?.jsonText.contains("TEAM123456") == true)

            let list = try await client.send(.get, base, nil)
            let listed = try list.decode(ListDefaultSupportedIdpConfigsResponse.self)
            #expect(
                listed.defaultSupportedIdpConfigs?.compactMap(\.name).map { $0.components(separatedBy: "/").last ?? "" } == [
                    "apple.com", "facebook.com",
                ])
            #expect(!list.text.contains("the-app-secret-never-shown"))

            let patched = try await client.send(.patch, base + "/facebook.com?updateMask=enabled", #"{"enabled":false,"clientId":"ignored"}"#)
            #expect(patched["enabled"] == .bool(false))
            #expect(patched.string("clientId") == "1234567890")

            let fetched = try await client.send(.get, base + "/facebook.com", nil)
            #expect(fetched["enabled"] == .bool(false))

            let deleted = try await client.send(.delete, base + "/facebook.com", nil)
            #expect(deleted.status == .ok)
            let gone = try await client.send(.get, base + "/facebook.com", nil)
            #expect(gone.status == .notFound)
            #expect(gone.errorMessage == "CONFIGURATION_NOT_FOUND")

            let oauth = "/v2/projects/\(Self.project)/oauthIdpConfigs"
            let badID = try await client.send(.post, oauth + "?oauthIdpConfigId=corp", #"{"clientId":"c","issuer":"https://idp.example.com"}"#)
            #expect(
                badID.errorMessage
                    == "INVALID_PROVIDER_ID : OIDC provider ids look like oidc.<name>, with lower-case letters, digits, '.', '_' and '-'")
            let badIssuer = try await client.send(.post, oauth + "?oauthIdpConfigId=oidc.corp", #"{"clientId":"c","issuer":"not a url"}"#)
            #expect(badIssuer.errorMessage == "INVALID_CONFIG : issuer must be an absolute http(s) URL")
            let oidc = try await client.send(
                .post, oauth + "?oauthIdpConfigId=oidc.corp",
                #"{"clientId":"c","issuer":"https://idp.example.com","displayName":"Corp","enabled":true,"clientSecret":"oidc-code-flow-secret","responseType":{"code":true,"idToken":false}}"#
            )
            #expect(oidc.status == .ok, "\(oidc.text)")
            #expect(oidc.string("name") == "projects/\(Self.project)/oauthIdpConfigs/oidc.corp")
            // Identity Platform returns an OIDC provider's client secret and response type (the Admin SDKs' OIDCAuthProviderConfig).
            let fetchedOIDC = try await client.send(.get, oauth + "/oidc.corp", nil)
            for answer in [oidc, fetchedOIDC] {
                #expect(answer.string("clientSecret") == "oidc-code-flow-secret")
                #expect(answer["responseType"] == .object(["code": .bool(true), "idToken": .bool(false)]))
            }
            let notJSON = try await client.send(.post, oauth + "?oauthIdpConfigId=oidc.other", "{")
            #expect(notJSON.status == .badRequest)

            // Listing in pages, as the Admin SDKs' list_oidc_provider_configs pages: a token only while more follow.
            for name in ["a", "b", "c", "d"] {
                let made = try await client.send(
                    .post, oauth + "?oauthIdpConfigId=oidc.\(name)", #"{"clientId":"c","issuer":"https://idp.example.com"}"#)
                #expect(made.status == .ok, "\(made.text)")
            }
            var names: [String] = []
            var token = ""
            var pages = 0
            repeat {
                let page = try await client.send(.get, oauth + "?pageSize=2&pageToken=\(token)", nil).decode(ListOAuthIdpConfigsResponse.self)
                names += (page.oauthIdpConfigs ?? []).compactMap { $0.name?.split(separator: "/").last.map(String.init) }
                token = page.nextPageToken ?? ""
                pages += 1
            } while !token.isEmpty && pages < 10
            #expect(names == ["oidc.a", "oidc.b", "oidc.c", "oidc.corp", "oidc.d"])
            #expect(pages == 3)
            #expect(try await client.send(.get, oauth + "?pageSize=101", nil).status == .badRequest)
        }
    }

    @Test("A stored setting takes effect on the next federated sign-in, also when another replica wrote it")
    func settingsReachSignIn() async throws {
        try await withFederated { live, client in
            let base = "/v2/projects/\(live.projectID)/defaultSupportedIdpConfigs"
            // Google with a client id the sandbox's tokens are not for: their audience no longer matches.
            let created = try await client.send(
                .post, base + "?idpId=google.com", #"{"enabled":true,"clientId":"another-app.apps.googleusercontent.com"}"#)
            #expect(created.status == .ok, "\(created.text)")
            let credential = try live.sandbox.signInCredential(for: .googleGmail)
            let audience = jwtClaims(try #require(credential.idToken))["aud"]?.jsonText.trimmingCharacters(in: CharacterSet(charactersIn: "\""))
            let refused = try await client.signInWithIdp(credential.postBody)
            #expect(
                refused.errorMessage
                    == "INVALID_IDP_RESPONSE : Invalid Google id_token: the audience in ID Token [\(audience ?? "")] does not match the expected audience.",
                "\(refused.text)")

            let clientID = live.sandbox.credentials.google.webClientID
            let fixed = try await client.send(.patch, base + "/google.com?updateMask=clientId", #"{"clientId":"\#(clientID)"}"#)
            #expect(fixed.status == .ok)
            let accepted = try await client.signInWithIdp(try live.sandbox.signInCredential(for: .googleGmail).postBody)
            #expect(accepted.status == .ok, "\(accepted.text)")

            // Another replica switches Twitter off by writing the shared table.
            var off = IdentityProviderSetting(providerID: "twitter.com", enabled: false)
            off.clientID = live.sandbox.credentials.twitter.consumerKey
            let text = String(decoding: try JSONEncoder().encode(off), as: UTF8.self)
            try await live.services.store.setSetting(IdentityProviderSetting.storageName(for: "twitter.com"), to: text)
            let twitter = try await client.signInWithIdp(try live.sandbox.signInCredential(for: .twitterUser).postBody)
            #expect(twitter.errorMessage == "OPERATION_NOT_ALLOWED")

            let deleted = try await client.send(.delete, base + "/twitter.com", nil)
            #expect(deleted.status == .ok)
            let back = try await client.signInWithIdp(try live.sandbox.signInCredential(for: .twitterUser).postBody)
            #expect(back.status == .ok, "\(back.text)")
        }
    }

    @Test(
        "Secrets and Apple's key stored through the admin API drive browser sign-in on a server whose configuration lacks them; GET never shows them",
        arguments: ["apple.com", "google.com", "microsoft.com", "yahoo.com", "oidc.sandbox"])
    func storedSecretsReachBrowserSignIn(providerID: String) async throws {
        try await withBrowser(providers: { providers in
            // The configuration knows the client ids but none of the secrets of the code flows.
            providers.apple.teamID = ""
            providers.apple.keyID = ""
            providers.apple.privateKey = ""
            providers.google.clientSecret = ""
            providers.microsoft.clientSecret = ""
            providers.yahoo.clientSecret = ""
            providers.oidc["sandbox"]?.clientSecret = ""
        }) { live, client, browser in
            let returnURL = BrowserSignInTests.returnURL
            let before = try await client.createAuthUri(providerID: providerID, continueUri: returnURL)
            #expect(before.status == .badRequest)
            #expect(before.errorMessage == "OPERATION_NOT_ALLOWED", "\(before.text)")

            let credentials = live.sandbox.credentials
            let secrets: [String]
            let stored: WireResult
            switch providerID {
            case "apple.com":
                let apple = credentials.apple
                secrets = [apple.privateKeyPEM, String(apple.privateKeyPEM.split(separator: "\n")[1])]
                let body = JSONValue.object([
                    "enabled": .bool(true), "clientId": .string(apple.servicesID),
                    "appleSignInConfig": .object([
                        "bundleIds": .array(apple.bundleIDs.map { .string($0) }),
                        "codeFlowConfig": .object([
                            "teamId": .string(apple.teamID), "keyId": .string(apple.keyID), "privateKey": .string(apple.privateKeyPEM),
                        ]),
                    ]),
                ])
                stored = try await client.send(.post, "/v2/projects/\(live.projectID)/defaultSupportedIdpConfigs?idpId=apple.com", body.jsonText)
            case "google.com", "microsoft.com", "yahoo.com":
                let (clientID, secret) =
                    switch providerID {
                    case "google.com": (credentials.google.webClientID, credentials.google.webClientSecret)
                    case "microsoft.com": (credentials.microsoft.clientID, credentials.microsoft.clientSecret)
                    default: (credentials.yahoo.clientID, credentials.yahoo.clientSecret)
                    }
                secrets = [secret]
                let body = JSONValue.object(["enabled": .bool(true), "clientId": .string(clientID), "clientSecret": .string(secret)])
                stored = try await client.send(.post, "/v2/projects/\(live.projectID)/defaultSupportedIdpConfigs?idpId=\(providerID)", body.jsonText)
            default:
                let oidc = try #require(live.sandbox.oidcClient("sandbox"))
                secrets = [oidc.clientSecret]
                let body = JSONValue.object([
                    "enabled": .bool(true), "clientId": .string(oidc.clientID), "clientSecret": .string(oidc.clientSecret),
                    "issuer": .string(live.sandbox.oidcIssuer("sandbox")), "displayName": .string("Sandbox OIDC"),
                ])
                stored = try await client.send(.post, "/v2/projects/\(live.projectID)/oauthIdpConfigs?oauthIdpConfigId=oidc.sandbox", body.jsonText)
            }
            #expect(stored.status == .ok, "\(stored.text)")

            // Nothing the admin API answers for a built-in provider shows a secret; an OIDC provider's client secret is
            // answered, as Identity Platform answers it.
            let collection = providerID.hasPrefix("oidc.") ? "oauthIdpConfigs" : "defaultSupportedIdpConfigs"
            let fetched = try await client.send(.get, "/v2/projects/\(live.projectID)/\(collection)/\(providerID)", nil)
            let listed = try await client.send(.get, "/v2/projects/\(live.projectID)/\(collection)", nil)
            #expect(fetched.status == .ok && listed.status == .ok)
            for answer in [stored, fetched, listed] where !providerID.hasPrefix("oidc.") {
                #expect(answer["clientSecret"] == nil)
                for secret in secrets { #expect(!answer.text.contains(secret)) }
                #expect(!answer.text.contains("PRIVATE KEY"))
            }
            if providerID.hasPrefix("oidc.") {
                #expect(fetched.string("clientSecret") == secrets.first)
            }
            if providerID == "apple.com" {
                #expect(fetched.json["appleSignInConfig"]?.jsonText.contains(credentials.apple.teamID) == true)
            }

            // The browser flow now runs: the sandbox's token endpoint checks the client secret (Apple: the
            // ES256 JWT Hearth signs with the stored team id, key id and key) before it hands out tokens.
            let subject =
                switch providerID {
                case "apple.com": SandboxIdentity.appleAlice.subject
                case "google.com": SandboxIdentity.googleGmail.subject
                case "microsoft.com": SandboxIdentity.microsoftWork.subject
                case "yahoo.com": SandboxIdentity.yahooUser.subject
                default: SandboxIdentity.oidcUser.subject
                }
            let started = try await client.createAuthUri(providerID: providerID, continueUri: returnURL, sessionId: "admin-\(providerID)")
            #expect(started.status == .ok, "\(started.text)")
            let app = try await browser.approve(try #require(started.string("authUri")), subject: subject)
            let link = try #require(app.queryValue("link"), "\(app)")
            let signedIn = try await client.completeBrowserSignIn(
                requestUri: link, sessionId: "admin-\(providerID)", providerID: providerID, returnIdpCredential: true)
            #expect(signedIn.status == .ok, "\(signedIn.text)")
            #expect(signedIn.string("providerId") == providerID)
            #expect(signedIn.string("oauthIdToken") != nil)
            #expect(try await live.services.store.countUsers() == 1)
        }
    }

    @Test("Microsoft's tenant rule set through the admin API (microsoftSignInConfig) is enforced on tokens and browser sign-in")
    func microsoftTenantThroughAdminAPI() async throws {
        let contoso = SandboxMicrosoftTenant.contoso
        let fabrikam = SandboxMicrosoftTenant.fabrikam
        let personalTenant = SandboxMicrosoftTenant.personalAccountsTenantID
        let contosoDomain = try #require(contoso.domain)
        try await withBrowser { live, client, _ in
            let base = "/v2/projects/\(live.projectID)/defaultSupportedIdpConfigs"
            let microsoft = live.sandbox.credentials.microsoft
            let created = try await client.send(
                .post, base + "?idpId=microsoft.com",
                #"{"enabled":true,"clientId":"\#(microsoft.clientID)","clientSecret":"\#(microsoft.clientSecret)","microsoftSignInConfig":{"tenant":"organizations"}}"#
            )
            #expect(created.status == .ok, "\(created.text)")
            #expect(created["microsoftSignInConfig"] == .object(["tenant": .string("organizations")]))
            func signIn(_ identity: SandboxIdentity) async throws -> WireResult {
                try await client.signInWithIdp(try live.sandbox.signInCredential(for: identity).postBody)
            }

            let personal = try await signIn(.microsoftPersonal)
            #expect(personal.status == .badRequest)
            #expect(
                personal.errorMessage == "INVALID_IDP_RESPONSE : Invalid Microsoft id_token: personal Microsoft accounts may not sign in to this app."
            )
            #expect(try await signIn(.microsoftWork).status == .ok)

            // One tenant, named by its domain (resolved through the tenant's discovery document).
            let domain = try await client.send(
                .patch, base + "/microsoft.com?updateMask=microsoftSignInConfig.tenant", #"{"microsoftSignInConfig":{"tenant":"\#(contosoDomain)"}}"#)
            #expect(domain.status == .ok, "\(domain.text)")
            let fetched = try await client.send(.get, base + "/microsoft.com", nil)
            #expect(fetched["microsoftSignInConfig"] == .object(["tenant": .string(contosoDomain)]))
            let otherTenant = try await signIn(.microsoftUnverifiedEmail)
            #expect(
                otherTenant.errorMessage
                    == "INVALID_IDP_RESPONSE : Invalid Microsoft id_token: accounts of tenant \(fabrikam.id) may not sign in to this app.")
            let personalAgain = try await signIn(.microsoftPersonal)
            #expect(
                personalAgain.errorMessage
                    == "INVALID_IDP_RESPONSE : Invalid Microsoft id_token: accounts of tenant \(personalTenant) may not sign in to this app.")
            #expect(try await signIn(.microsoftWork).status == .ok)

            // The allow-list on top of it: now no tenant is both contoso and fabrikam.
            let narrowed = try await client.send(
                .patch, base + "/microsoft.com?updateMask=microsoftSignInConfig.allowedTenantIds",
                #"{"microsoftSignInConfig":{"allowedTenantIds":["\#(fabrikam.id)"]}}"#)
            #expect(narrowed.status == .ok, "\(narrowed.text)")
            let work = try await signIn(.microsoftWork)
            #expect(
                work.errorMessage
                    == "INVALID_IDP_RESPONSE : Invalid Microsoft id_token: accounts of tenant \(contoso.id) may not sign in to this app.")

            // The browser flow checks the tenant the app asks for against the same rule.
            let browser = try await client.createAuthUri(
                providerID: "microsoft.com", continueUri: BrowserSignInTests.returnURL, customParameter: ["tenant": personalTenant])
            #expect(browser.errorMessage == "INVALID_PROVIDER_ID : The Microsoft tenant \(personalTenant) is not allowed for this app.")
            #expect(try await live.services.store.countUsers() == 1)

            // What the admin API refuses.
            let elsewhere = try await client.send(
                .post, base + "?idpId=google.com", #"{"enabled":true,"clientId":"c","microsoftSignInConfig":{"tenant":"common"}}"#)
            #expect(elsewhere.errorMessage == "INVALID_CONFIG : microsoftSignInConfig is only for microsoft.com")
            let badTenant = try await client.send(
                .patch, base + "/microsoft.com?updateMask=microsoftSignInConfig.tenant", #"{"microsoftSignInConfig":{"tenant":"not a tenant"}}"#)
            #expect(
                badTenant.errorMessage
                    == "INVALID_CONFIG : microsoftSignInConfig.tenant must be common, organizations, consumers, a tenant ID or a domain")
            let badList = try await client.send(
                .patch, base + "/microsoft.com?updateMask=microsoftSignInConfig.allowedTenantIds",
                #"{"microsoftSignInConfig":{"allowedTenantIds":["contoso"]}}"#)
            #expect(badList.errorMessage == "INVALID_CONFIG : microsoftSignInConfig.allowedTenantIds must be tenant IDs (GUIDs)")
        }
    }

    @Test(
        "whitelistedAudiences carries a provider's other client ids over the admin API: a token for one is refused before the PATCH and accepted after, on Google and Apple"
    )
    func whitelistedAudiencesReachSignIn() async throws {
        try await withFederated { live, client in
            let base = "/v2/projects/\(live.projectID)/defaultSupportedIdpConfigs"
            let google = live.sandbox.credentials.google
            let created = try await client.send(.post, base + "?idpId=google.com", #"{"enabled":true,"clientId":"\#(google.webClientID)"}"#)
            #expect(created.status == .ok, "\(created.text)")
            #expect(created["whitelistedAudiences"] == nil)
            func iOSSignIn() async throws -> WireResult {
                let token = try live.sandbox.googleIDToken(for: .googleGmail, audience: google.iosClientID)
                return try await client.signInWithIdp("providerId=google.com&id_token=\(token)")
            }
            let wrongAudience =
                "INVALID_IDP_RESPONSE : Invalid Google id_token: the audience in ID Token [\(google.iosClientID)] does not match the expected audience."
            #expect(try await iOSSignIn().errorMessage == wrongAudience)

            let patched = try await client.send(
                .patch, base + "/google.com?updateMask=whitelistedAudiences",
                #"{"whitelistedAudiences":["\#(google.iosClientID)","\#(google.androidClientID)"],"clientId":"ignored"}"#)
            #expect(patched.status == .ok, "\(patched.text)")
            let audiences = JSONValue.array([.string(google.iosClientID), .string(google.androidClientID)])
            #expect(patched["whitelistedAudiences"] == audiences)
            #expect(patched.string("clientId") == google.webClientID)
            let fetched = try await client.send(.get, base + "/google.com", nil)
            #expect(fetched["whitelistedAudiences"] == audiences)
            let listed = try await client.send(.get, base, nil)
            #expect(
                try listed.decode(ListDefaultSupportedIdpConfigsResponse.self).defaultSupportedIdpConfigs?.first?.whitelistedAudiences
                    == [google.iosClientID, google.androidClientID])
            let accepted = try await iOSSignIn()
            #expect(accepted.status == .ok, "\(accepted.text)")
            // The web client's tokens still count.
            #expect(try await client.signInWithIdp(try live.sandbox.signInCredential(for: .googleGmail).postBody).status == .ok)

            // Masked and absent: cleared, and the iOS client's tokens are refused again.
            let cleared = try await client.send(.patch, base + "/google.com?updateMask=whitelistedAudiences", "{}")
            #expect(cleared.status == .ok, "\(cleared.text)")
            #expect(cleared["whitelistedAudiences"] == nil)
            #expect(try await iOSSignIn().errorMessage == wrongAudience)

            // Apple: a second services ID.
            let apple = live.sandbox.credentials.apple
            let other = "com.example.second-services-id"
            let stored = try await client.send(
                .post, base + "?idpId=apple.com", #"{"enabled":true,"clientId":"\#(apple.servicesID)","whitelistedAudiences":["\#(other)"]}"#)
            #expect(stored.status == .ok, "\(stored.text)")
            #expect(stored["whitelistedAudiences"] == .array([.string(other)]))
            let appleToken = try live.sandbox.appleIDToken(for: .appleAlice, audience: other)
            let appleSignIn = try await client.signInWithIdp("providerId=apple.com&id_token=\(appleToken)")
            #expect(appleSignIn.status == .ok, "\(appleSignIn.text)")
            let narrowed = try await client.send(.patch, base + "/apple.com?updateMask=whitelistedAudiences", "{}")
            #expect(narrowed.status == .ok)
            let appleAgain = try await client.signInWithIdp(
                "providerId=apple.com&id_token=\(try live.sandbox.appleIDToken(for: .appleAlice, audience: other))")
            #expect(appleAgain.status == .badRequest, "\(appleAgain.text)")

            // What the admin API refuses, with Firebase's INVALID_CONFIG.
            let github = try await client.send(
                .post, base + "?idpId=github.com", #"{"enabled":true,"clientId":"gh","clientSecret":"s","whitelistedAudiences":["x"]}"#)
            #expect(
                github.errorMessage
                    == "INVALID_CONFIG : whitelistedAudiences is only for apple.com, google.com, microsoft.com, yahoo.com and oidc. providers")
            let malformed =
                "INVALID_CONFIG : whitelistedAudiences must be at most 50 client IDs of 1 to 256 characters, without spaces or control characters"
            let many = (0...50).map { "\"client-\($0)\"" }.joined(separator: ",")
            for body in [
                #"{"whitelistedAudiences":[" "]}"#, #"{"whitelistedAudiences":["a\u0000b"]}"#, #"{"whitelistedAudiences":["a\nb"]}"#,
                #"{"whitelistedAudiences":[""]}"#, #"{"whitelistedAudiences":["\#(String(repeating: "a", count: 257))"]}"#,
                #"{"whitelistedAudiences":[\#(many)]}"#,
            ] {
                let refused = try await client.send(.patch, base + "/google.com?updateMask=whitelistedAudiences", body)
                #expect(refused.errorMessage == malformed, "\(body.prefix(60))")
            }
            let notList = try await client.send(.patch, base + "/google.com?updateMask=whitelistedAudiences", #"{"whitelistedAudiences":"x"}"#)
            #expect(notList.status == .badRequest)
            _ = try await client.send(.patch, base + "/google.com?updateMask=whitelistedAudiences", #"{"whitelistedAudiences":["x"]}"#)
            let noClient = try await client.send(.patch, base + "/google.com?updateMask=clientId,enabled", #"{"enabled":false}"#)
            #expect(noClient.errorMessage == "INVALID_CONFIG : whitelistedAudiences needs a clientId")
            // Nothing refused was stored.
            let unchanged = try await client.send(.get, base + "/google.com", nil)
            #expect(unchanged["whitelistedAudiences"] == .array([.string("x")]))
            #expect(unchanged.string("clientId") == google.webClientID)

            // OpenID Connect providers take it too.
            let oidc = try await client.send(
                .post, "/v2/projects/\(live.projectID)/oauthIdpConfigs?oauthIdpConfigId=oidc.corp",
                #"{"clientId":"c","issuer":"https://idp.example.com","whitelistedAudiences":["c2"]}"#)
            #expect(oidc.status == .ok, "\(oidc.text)")
            #expect(oidc["whitelistedAudiences"] == .array([.string("c2")]))
        }
    }

    @Test("A row stored before whitelistedAudiences existed still decodes, is returned and drives sign-in")
    func formerRowsDecode() async throws {
        try await withFederated { live, client in
            let google = live.sandbox.credentials.google
            let row = #"{"providerID":"google.com","enabled":true,"clientID":"\#(google.webClientID)"}"#
            try await live.services.store.setSetting(IdentityProviderSetting.storageName(for: "google.com"), to: row)
            let fetched = try await client.send(.get, "/v2/projects/\(live.projectID)/defaultSupportedIdpConfigs/google.com", nil)
            #expect(fetched.status == .ok, "\(fetched.text)")
            #expect(fetched.string("clientId") == google.webClientID)
            #expect(fetched["whitelistedAudiences"] == nil)
            #expect(try await client.signInWithIdp(try live.sandbox.signInCredential(for: .googleGmail).postBody).status == .ok)
            let iOS = try live.sandbox.googleIDToken(for: .googleGmail, audience: google.iosClientID)
            #expect(try await client.signInWithIdp("providerId=google.com&id_token=\(iOS)").status == .badRequest)
        }
    }

    @Test("A stored Microsoft setting without a tenant rule keeps the configuration's rule")
    func microsoftTenantKeptFromConfiguration() async throws {
        try await withFederated(providers: { $0.microsoft.tenant = "consumers" }) { live, client in
            let clientID = live.sandbox.credentials.microsoft.clientID
            let created = try await client.send(
                .post, "/v2/projects/\(live.projectID)/defaultSupportedIdpConfigs?idpId=microsoft.com", #"{"enabled":true,"clientId":"\#(clientID)"}"#
            )
            #expect(created.status == .ok, "\(created.text)")
            #expect(created["microsoftSignInConfig"] == nil)
            let work = try await client.signInWithIdp(try live.sandbox.signInCredential(for: .microsoftWork).postBody)
            #expect(
                work.errorMessage == "INVALID_IDP_RESPONSE : Invalid Microsoft id_token: only personal Microsoft accounts may sign in to this app.")
            let personal = try await client.signInWithIdp(try live.sandbox.signInCredential(for: .microsoftPersonal).postBody)
            #expect(personal.status == .ok, "\(personal.text)")
        }
    }
}

extension FirebaseTestClient {
    /// An admin request with `Bearer owner`.
    func send(_ method: HTTPRequest.Method, _ path: String, _ json: String?) async throws -> WireResult {
        var headers = IdpConfigTests.owner
        if json != nil { headers[.contentType] = "application/json" }
        return try await raw(path, method: method, body: json.map { Data($0.utf8) }, headers: headers)
    }
}
