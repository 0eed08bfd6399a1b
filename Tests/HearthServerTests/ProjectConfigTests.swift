import Foundation
import HTTPTypes
import HearthCore
import HearthServer
import HearthWire
import Testing

/// `/v2/projects/{p}/config`: the sign-in settings an administrator changes at run time, stored so that a
/// server opened again on the same data (another replica, a restart) has them.
@Suite("Admin API: project config")
struct ProjectConfigTests {
    static let path = "/v2/projects/demo-hearth/config"

    @Test("mfa: GET shows the state and factors; PATCH turns SMS and TOTP factors on with adjacent intervals; bad values are refused")
    func multiFactor() async throws {
        try await withHearth { hearth, client async throws in
            var admin = client
            admin.apiKey = nil
            let headers: HTTPFields = [.authorization: "Bearer owner", .contentType: "application/json"]
            let initial = try await admin.raw(Self.path, method: .get, headers: headers).decode(ProjectConfig.self)
            #expect(initial.mfa?.state == "DISABLED" && initial.mfa?.enabledProviders == [])
            let body =
                #"{"mfa":{"state":"ENABLED","enabledProviders":["PHONE_SMS"],"providerConfigs":[{"state":"ENABLED","totpProviderConfig":{"adjacentIntervals":3}}]}}"#
            let patched = try await admin.raw(Self.path + "?updateMask=mfa", method: .patch, body: Data(body.utf8), headers: headers)
            #expect(patched.status == .ok, "\(patched.text)")
            let mfa = try #require(try patched.decode(ProjectConfig.self).mfa)
            #expect(mfa.state == "ENABLED" && mfa.enabledProviders == ["PHONE_SMS"])
            #expect(mfa.providerConfigs?.first?.state == "ENABLED" && mfa.providerConfigs?.first?.totpProviderConfig?.adjacentIntervals == 3)
            let settings = try await hearth.services.projectSettings.projectSettings().multiFactor
            #expect(settings == MultiFactorSettings(state: .enabled, phoneEnabled: true, totpEnabled: true, totpAdjacentIntervals: 3))

            for (bad, message) in [
                (#"{"mfa":{"state":"SOMETIMES"}}"#, "INVALID_CONFIG : mfa.state must be DISABLED, ENABLED or MANDATORY."),
                (#"{"mfa":{"enabledProviders":["EMAIL"]}}"#, "INVALID_CONFIG : mfa.enabledProviders takes PHONE_SMS."),
                (
                    #"{"mfa":{"providerConfigs":[{"state":"ENABLED","totpProviderConfig":{"adjacentIntervals":11}}]}}"#,
                    "INVALID_CONFIG : adjacentIntervals must be between 0 and 10."
                ),
            ] {
                let refused = try await admin.raw(Self.path + "?updateMask=mfa", method: .patch, body: Data(bad.utf8), headers: headers)
                #expect(refused.errorMessage == message)
            }
        }
    }

    @Test("GET shows the configuration's values; PATCH with updateMask changes sign-in, duplicates, privacy and clean-up")
    func getAndPatch() async throws {
        try await withHearth { hearth, client async throws in
            var admin = client
            admin.apiKey = nil
            let headers: HTTPFields = [.authorization: "Bearer owner", .contentType: "application/json"]
            let initial = try await admin.raw(Self.path, method: .get, headers: headers).decode(ProjectConfig.self)
            #expect(initial.name == "projects/demo-hearth/config")
            #expect(initial.signIn?.anonymous?.enabled == true && initial.signIn?.email?.enabled == true)
            #expect(initial.signIn?.allowDuplicateEmails == false && initial.autodeleteAnonymousUsers == false)
            #expect(initial.emailPrivacyConfig?.enableImprovedEmailPrivacy == false)

            // Anonymous sign-in off, through a mask naming a whole message.
            let patched = try await admin.raw(
                Self.path + "?updateMask=signIn.anonymous,emailPrivacyConfig.enableImprovedEmailPrivacy", method: .patch,
                body: Data(#"{"signIn":{"anonymous":{"enabled":false}},"emailPrivacyConfig":{"enableImprovedEmailPrivacy":true}}"#.utf8),
                headers: headers)
            #expect(patched.status == .ok, "\(patched.text)")
            #expect(try patched.decode(ProjectConfig.self).signIn?.anonymous?.enabled == false)
            #expect(try await client.post("/v1/accounts:signUp", ["returnSecureToken": .bool(true)]).errorMessage == "ADMIN_ONLY_OPERATION")
            _ = try await client.signUp(email: "ada@example.com", password: "analytical")
            let wrong = try await client.post(
                "/v1/accounts:signInWithPassword", ["email": .string("ada@example.com"), "password": .string("nope-nope")])
            #expect(wrong.errorMessage == "INVALID_LOGIN_CREDENTIALS")

            // Without a mask: the fields the body has. Password sign-in off.
            let noMask = try await admin.raw(Self.path, method: .patch, body: Data(#"{"signIn":{"email":{"enabled":false}}}"#.utf8), headers: headers)
            #expect(try noMask.decode(ProjectConfig.self).signIn?.email?.enabled == false)
            #expect(try noMask.decode(ProjectConfig.self).signIn?.anonymous?.enabled == false)
            let signIn = try await client.post(
                "/v1/accounts:signInWithPassword", ["email": .string("ada@example.com"), "password": .string("analytical")])
            #expect(signIn.errorMessage == "OPERATION_NOT_ALLOWED")

            // A field Hearth does not keep is refused, not dropped.
            let unkept = try await admin.raw(
                Self.path + "?updateMask=recaptchaConfig", method: .patch, body: Data(#"{"recaptchaConfig":{}}"#.utf8), headers: headers)
            #expect(unkept.errorMessage == "INVALID_CONFIG : Hearth does not keep recaptchaConfig.")
            let otherProject = try await admin.raw("/v2/projects/other/config", method: .get, headers: headers)
            #expect(otherProject.errorMessage == "PROJECT_NOT_FOUND")
            #expect(try await client.raw(Self.path, method: .get).status == .unauthorized)

            // Stored in the database, where every replica reads it (within five seconds).
            let stored = try #require(try await hearth.services.store.setting("project.config"))
            let overrides = try #require(JSONValue.object(fromJSON: stored))
            #expect(overrides["anonymousEnabled"] == .bool(false) && overrides["passwordEnabled"] == .bool(false))
            #expect(overrides["emailEnumerationProtection"] == .bool(true) && overrides["oneAccountPerEmail"] == nil)
        }
    }
}
