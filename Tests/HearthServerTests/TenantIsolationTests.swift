import Foundation
import HTTPTypes
import HearthCore
import HearthServer
import HearthWire
import Testing

/// Every endpoint, tried across tenants: what one tenant's user holds (an ID token, a refresh token, an e-mail code, a
/// phone session, a pending second factor, a custom token, a uid known to an administrator) is refused, or finds
/// nothing, in another tenant. Run on SQLite and again on PostgreSQL by `.ci/run`.
@Suite("Tenants: isolation over every endpoint")
struct TenantIsolationTests {
    static let admin: HTTPFields = [.authorization: "Bearer owner", .contentType: "application/json"]
    static let testNumber = "+16505551234"

    /// One request and the answer it must get.
    struct Attempt {
        let name: String
        let path: String
        let body: String
        let expected: String
    }

    @Test("an ID token, refresh token, e-mail code, phone session, pending second factor, custom token or uid of tenant A is nothing in B")
    func everyEndpoint() async throws {
        try await withHearth({ $0.signIn.phoneEnabled = true }) { hearth, client async throws in
            var admin = client
            admin.apiKey = nil
            func tenant(_ name: String) async throws -> String {
                let body = """
                    {"displayName":"\(name)","allowPasswordSignup":true,"enableEmailLinkSignin":true,"enableAnonymousUser":true,
                     "testPhoneNumbers":{"\(Self.testNumber)":"123456"},
                     "mfaConfig":{"state":"ENABLED","enabledProviders":["PHONE_SMS"]}}
                    """
                let made = try await admin.raw("/v2/projects/demo-hearth/tenants", method: .post, body: Data(body.utf8), headers: Self.admin)
                #expect(made.status == .ok, "\(made.text)")
                return try #require(try made.decode(TenantResource.self).tenantId)
            }
            let a = try await tenant("Alpha")
            let b = try await tenant("Bravo")

            // Tenant A's user and everything it holds.
            let signedUp = try await client.post(
                "/v1/accounts:signUp",
                ["email": .string("ada@example.com"), "password": .string("correct horse"), "tenantId": .string(a), "returnSecureToken": .bool(true)]
            ).decode(SignUpResponse.self)
            let uid = signedUp.localId
            let idToken = try #require(signedUp.idToken)
            let refreshToken = try #require(signedUp.refreshToken)
            func oobCode(_ requestType: String, extra: String = "") async throws -> String {
                let sent = try await admin.raw(
                    "/v1/projects/demo-hearth/tenants/\(a)/accounts:sendOobCode", method: .post,
                    body: Data(#"{"requestType":"\#(requestType)","email":"ada@example.com","returnOobLink":true\#(extra)}"#.utf8),
                    headers: Self.admin)
                #expect(sent.status == .ok, "\(sent.text)")
                let link = try #require(sent.string("oobLink"))
                #expect(link.contains("tenantId=\(a)"))
                return try #require(URLComponents(string: link)?.queryItems?.first { $0.name == "oobCode" }?.value)
            }
            let resetCode = try await oobCode("PASSWORD_RESET")
            let verifyCode = try await oobCode("VERIFY_EMAIL")
            let linkCode = try await oobCode("EMAIL_SIGNIN", extra: #","continueUrl":"http://localhost/done""#)
            let sessionInfo = try #require(
                try await client.post(
                    "/v1/accounts:sendVerificationCode", ["phoneNumber": .string(Self.testNumber), "tenantId": .string(a)]
                ).string("sessionInfo"))
            // A second user of A with a phone factor: its password sign-in stops at a pending credential.
            let factorUser = try await admin.raw(
                "/v1/projects/demo-hearth/tenants/\(a)/accounts", method: .post,
                body: Data(
                    #"{"email":"mfa@example.com","emailVerified":true,"password":"correct horse","mfaInfo":[{"phoneInfo":"\#(Self.testNumber)"}]}"#
                        .utf8), headers: Self.admin)
            #expect(factorUser.status == .ok, "\(factorUser.text)")
            let pending = try #require(
                try await client.post(
                    "/v1/accounts:signInWithPassword",
                    ["email": .string("mfa@example.com"), "password": .string("correct horse"), "tenantId": .string(a)]
                ).string("mfaPendingCredential"))
            let customToken = #"{"uid":"\#(uid)","tenant_id":"\#(a)"}"#

            let attempts: [Attempt] = [
                .init(
                    name: "lookup", path: "/v1/accounts:lookup", body: #"{"idToken":"\#(idToken)","tenantId":"\#(b)"}"#,
                    expected: "TENANT_ID_MISMATCH"),
                .init(
                    name: "update", path: "/v1/accounts:update", body: #"{"idToken":"\#(idToken)","tenantId":"\#(b)","displayName":"x"}"#,
                    expected: "TENANT_ID_MISMATCH"),
                .init(
                    name: "delete", path: "/v1/accounts:delete", body: #"{"idToken":"\#(idToken)","tenantId":"\#(b)"}"#,
                    expected: "TENANT_ID_MISMATCH"),
                .init(
                    name: "password", path: "/v1/accounts:signInWithPassword",
                    body: #"{"email":"ada@example.com","password":"correct horse","tenantId":"\#(b)"}"#, expected: "EMAIL_NOT_FOUND"),
                .init(
                    name: "reset mail", path: "/v1/accounts:sendOobCode",
                    body: #"{"requestType":"PASSWORD_RESET","email":"ada@example.com","tenantId":"\#(b)"}"#, expected: "EMAIL_NOT_FOUND"),
                .init(
                    name: "reset code", path: "/v1/accounts:resetPassword",
                    body: #"{"oobCode":"\#(resetCode)","newPassword":"another horse","tenantId":"\#(b)"}"#, expected: "INVALID_OOB_CODE"),
                .init(
                    name: "verify code", path: "/v1/accounts:update", body: #"{"oobCode":"\#(verifyCode)","tenantId":"\#(b)"}"#,
                    expected: "INVALID_OOB_CODE"),
                .init(
                    name: "e-mail link", path: "/v1/accounts:signInWithEmailLink",
                    body: #"{"oobCode":"\#(linkCode)","email":"ada@example.com","tenantId":"\#(b)"}"#, expected: "INVALID_OOB_CODE"),
                .init(
                    name: "phone session", path: "/v1/accounts:signInWithPhoneNumber",
                    body: #"{"sessionInfo":"\#(sessionInfo)","code":"123456","tenantId":"\#(b)"}"#, expected: "INVALID_SESSION_INFO"),
                .init(
                    name: "pending second factor", path: "/v2/accounts/mfaSignIn:start",
                    body: #"{"mfaPendingCredential":"\#(pending)","mfaEnrollmentId":"x","phoneSignInInfo":{},"tenantId":"\#(b)"}"#,
                    expected: "INVALID_MFA_PENDING_CREDENTIAL"),
                .init(
                    name: "enrol a factor", path: "/v2/accounts/mfaEnrollment:start",
                    body: #"{"idToken":"\#(idToken)","tenantId":"\#(b)","phoneEnrollmentInfo":{"phoneNumber":"+16505550000"}}"#,
                    expected: "TENANT_ID_MISMATCH"),
                .init(
                    name: "custom token", path: "/v1/accounts:signInWithCustomToken",
                    body: #"{"token":\#(JSONValue.string(customToken).jsonText),"tenantId":"\#(b)"}"#, expected: "TENANT_ID_MISMATCH"),
                .init(
                    name: "custom token without tenant", path: "/v1/accounts:signInWithCustomToken",
                    body: #"{"token":\#(JSONValue.string(customToken).jsonText)}"#, expected: "TENANT_ID_MISMATCH"),
            ]
            for attempt in attempts {
                let answer = try await client.post(attempt.path, json: attempt.body)
                #expect(answer.errorMessage == attempt.expected, "\(attempt.name): \(answer.text)")
            }
            let moved = String(refreshToken.dropLast(a.count)) + b
            #expect(try await client.refresh(moved).errorMessage == "INVALID_REFRESH_TOKEN")

            // An administrator in B's paths finds none of A's users.
            let tenantB = "/v1/projects/demo-hearth/tenants/\(b)"
            let adminAttempts: [Attempt] = [
                .init(
                    name: "admin update", path: "\(tenantB)/accounts:update", body: #"{"localId":"\#(uid)","disableUser":true}"#,
                    expected: "USER_NOT_FOUND"),
                .init(name: "admin delete", path: "\(tenantB)/accounts:delete", body: #"{"localId":"\#(uid)"}"#, expected: "USER_NOT_FOUND"),
                .init(
                    name: "admin reset mail", path: "\(tenantB)/accounts:sendOobCode",
                    body: #"{"requestType":"PASSWORD_RESET","email":"ada@example.com","returnOobLink":true}"#, expected: "EMAIL_NOT_FOUND"),
                .init(
                    name: "session cookie", path: "\(tenantB):createSessionCookie", body: #"{"idToken":"\#(idToken)"}"#,
                    expected: "TENANT_ID_MISMATCH"),
                .init(
                    name: "body names A, path names B", path: "\(tenantB)/accounts:lookup", body: #"{"localId":["\#(uid)"],"tenantId":"\#(a)"}"#,
                    expected: "TENANT_ID_MISMATCH"),
            ]
            for attempt in adminAttempts {
                let answer = try await admin.raw(attempt.path, method: .post, body: Data(attempt.body.utf8), headers: Self.admin)
                #expect(answer.errorMessage == attempt.expected, "\(attempt.name): \(answer.text)")
            }
            let lookup = try await admin.raw(
                "\(tenantB)/accounts:lookup", method: .post, body: Data(#"{"localId":["\#(uid)"],"email":["ada@example.com"]}"#.utf8),
                headers: Self.admin)
            #expect(try lookup.status == .ok && lookup.decode(LookupResponse.self).users == nil, "\(lookup.text)")
            let batchGet = try await admin.raw("\(tenantB)/accounts:batchGet?maxResults=100", method: .get, headers: Self.admin)
            #expect(batchGet.status == .ok && !batchGet.text.contains(uid), "\(batchGet.text)")
            let query = try await admin.raw("\(tenantB)/accounts:query", method: .post, body: Data("{}".utf8), headers: Self.admin)
            #expect(query.status == .ok && !query.text.contains(uid), "\(query.text)")
            let batchDelete = try await admin.raw(
                "\(tenantB)/accounts:batchDelete", method: .post, body: Data(#"{"localIds":["\#(uid)"],"force":true}"#.utf8),
                headers: Self.admin)
            #expect(batchDelete.status == .ok, "\(batchDelete.text)")
            let events = try await admin.raw("\(tenantB)/auditEvents", method: .get, headers: Self.admin)
            #expect(events.status == .ok && !events.text.contains(uid), "\(events.text)")
            let providers = try await admin.raw(
                "/v2/projects/demo-hearth/tenants/\(a)/oauthIdpConfigs?oauthIdpConfigId=oidc.alpha", method: .post,
                body: Data(#"{"clientId":"alpha-client","issuer":"https://idp.example.com","enabled":true}"#.utf8), headers: Self.admin)
            #expect(providers.status == .ok, "\(providers.text)")
            let listedInB = try await admin.raw("/v2/projects/demo-hearth/tenants/\(b)/oauthIdpConfigs", method: .get, headers: Self.admin)
            #expect(listedInB.status == .ok && !listedInB.text.contains("oidc.alpha"), "\(listedInB.text)")
            let listedInProject = try await admin.raw("/v2/projects/demo-hearth/oauthIdpConfigs", method: .get, headers: Self.admin)
            #expect(!listedInProject.text.contains("oidc.alpha"))

            // The action page with A's code and B's tenant: the code is unknown there.
            let page = try await client.raw("/__/auth/action?mode=resetPassword&oobCode=\(resetCode)&tenantId=\(b)", method: .get)
            #expect(page.text.contains("This link is not valid"), "\(page.text)")
            let pageInA = try await client.raw("/__/auth/action?mode=resetPassword&oobCode=\(resetCode)&tenantId=\(a)", method: .get)
            #expect(!pageInA.text.contains("This link is not valid"), "\(pageInA.text)")

            // And A's user is whole: every code above still works in A.
            #expect(try await client.lookup(idToken).status == .ok)
            #expect(try await client.refresh(refreshToken).status == .ok)
            let reset = try await client.post(
                "/v1/accounts:resetPassword",
                ["oobCode": .string(resetCode), "newPassword": .string("another horse"), "tenantId": .string(a)])
            #expect(reset.status == .ok, "\(reset.text)")
        }
    }
}
