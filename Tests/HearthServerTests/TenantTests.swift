import Foundation
import HTTPTypes
import HearthCore
import HearthSandbox
import HearthServer
import HearthTesting
import HearthWire
import Testing

/// Identity Platform's tenants: the admin API that manages them, and the isolation of their users: an e-mail, a uid, a
/// token, a refresh token or a code of one tenant is nothing in another.
@Suite("Tenants")
struct TenantTests {
    static let tenants = "/v2/projects/demo-hearth/tenants"
    static let admin: HTTPFields = [.authorization: "Bearer owner", .contentType: "application/json"]

    /// Makes a tenant with password and anonymous sign-in on; returns its id.
    static func makeTenant(_ client: FirebaseTestClient, name: String = "Acme") async throws -> String {
        let body = #"{"displayName":"\#(name)","allowPasswordSignup":true,"enableAnonymousUser":true}"#
        let created = try await client.raw(tenants, method: .post, body: Data(body.utf8), headers: admin)
        #expect(created.status == .ok, "\(created.errorMessage ?? "")")
        let tenant = try created.decode(TenantResource.self)
        return try #require(tenant.tenantId)
    }

    static func signUp(_ client: FirebaseTestClient, email: String, tenant: String?) async throws -> WireResult {
        var body: [String: JSONValue] = ["email": .string(email), "password": .string("correct horse"), "returnSecureToken": .bool(true)]
        if let tenant { body["tenantId"] = .string(tenant) }
        return try await client.post("/v1/accounts:signUp", body)
    }

    @Test("create, get, list in pages, patch with updateMask and delete; bad names and ids are refused with Firebase's strings")
    func crud() async throws {
        try await withHearth { _, client async throws in
            var admin = client
            admin.apiKey = nil
            let first = try await Self.makeTenant(admin, name: "Acme")
            #expect(first.hasPrefix("acme-") && first.count == 10)
            let second = try await Self.makeTenant(admin, name: "Globex")
            let shown = try await admin.raw("\(Self.tenants)/\(first)", method: .get, headers: Self.admin).decode(TenantResource.self)
            #expect(shown.name == "projects/demo-hearth/tenants/\(first)" && shown.displayName == "Acme")
            #expect(shown.allowPasswordSignup == true && shown.enableEmailLinkSignin == false && shown.disableAuth == false)

            let page = try await admin.raw(Self.tenants + "?pageSize=1", method: .get, headers: Self.admin).decode(ListTenantsResponse.self)
            #expect(page.tenants?.count == 1 && page.nextPageToken != nil)
            let rest = try await admin.raw(Self.tenants + "?pageSize=1&pageToken=\(page.nextPageToken ?? "")", method: .get, headers: Self.admin)
                .decode(ListTenantsResponse.self)
            #expect(Set([page.tenants?.first?.tenantId, rest.tenants?.first?.tenantId]) == Set([first, second]) && rest.nextPageToken == nil)

            let patched = try await admin.raw(
                "\(Self.tenants)/\(first)?updateMask=enableEmailLinkSignin,displayName", method: .patch,
                body: Data(#"{"displayName":"Acme-Two","enableEmailLinkSignin":true,"allowPasswordSignup":false}"#.utf8), headers: Self.admin
            ).decode(TenantResource.self)
            #expect(patched.displayName == "Acme-Two" && patched.enableEmailLinkSignin == true && patched.allowPasswordSignup == true)

            for (body, message) in [
                (
                    #"{"displayName":"no"}"#,
                    "Invalid JSON payload received. displayName must be 4 to 20 characters: a letter first, then letters, digits and hyphens."
                ),
                (
                    #"{"displayName":"1abc"}"#,
                    "Invalid JSON payload received. displayName must be 4 to 20 characters: a letter first, then letters, digits and hyphens."
                ),
            ] {
                let refused = try await admin.raw(Self.tenants, method: .post, body: Data(body.utf8), headers: Self.admin)
                #expect(refused.errorMessage == message)
            }
            #expect(try await admin.raw("\(Self.tenants)/nobody-12345", method: .get, headers: Self.admin).errorMessage == "TENANT_NOT_FOUND")
            #expect(try await admin.raw("\(Self.tenants)/bad_id!", method: .get, headers: Self.admin).errorMessage == "INVALID_TENANT_ID")
            let deleted = try await admin.raw("\(Self.tenants)/\(second)", method: .delete, headers: Self.admin)
            #expect(deleted.status == .ok)
            #expect(try await admin.raw("\(Self.tenants)/\(second)", method: .get, headers: Self.admin).errorMessage == "TENANT_NOT_FOUND")
            // Without an administrator's credential: nothing.
            #expect(try await client.raw(Self.tenants, method: .get).status == .unauthorized)
        }
    }

    @Test("one e-mail in the project and two tenants: three accounts; tokens carry firebase.tenant and work only in their tenant")
    func isolation() async throws {
        try await withHearth { _, client async throws in
            var admin = client
            admin.apiKey = nil
            let acme = try await Self.makeTenant(admin, name: "Acme")
            let globex = try await Self.makeTenant(admin, name: "Globex")
            let inProject = try await Self.signUp(client, email: "ada@example.com", tenant: nil).decode(SignUpResponse.self)
            let inAcme = try await Self.signUp(client, email: "ada@example.com", tenant: acme).decode(SignUpResponse.self)
            let inGlobex = try await Self.signUp(client, email: "ada@example.com", tenant: globex).decode(SignUpResponse.self)
            #expect(Set([inProject.localId, inAcme.localId, inGlobex.localId]).count == 3)
            let acmeToken = try #require(inAcme.idToken)
            #expect(jwtClaims(acmeToken)["firebase"]?.objectValue?["tenant"] == .string(acme))
            #expect(jwtClaims(try #require(inProject.idToken))["firebase"]?.objectValue?["tenant"] == nil)
            // A second sign-up with the same e-mail in the same tenant is refused.
            #expect(try await Self.signUp(client, email: "ada@example.com", tenant: acme).errorMessage == "EMAIL_EXISTS")

            // The ID token finds its own tenant's account (with or without the body naming it), never another's.
            let lookup = try await client.post("/v1/accounts:lookup", ["idToken": .string(acmeToken)])
            #expect(try lookup.status == .ok && lookup.decode(LookupResponse.self).users?.first?.localId == inAcme.localId)
            let mismatch = try await client.post("/v1/accounts:lookup", ["idToken": .string(acmeToken), "tenantId": .string(globex)])
            #expect(mismatch.errorMessage == "TENANT_ID_MISMATCH")

            // A password sign-in in the other tenant sees another account; a wrong tenant id is refused.
            let wrongPassword = try await client.post(
                "/v1/accounts:signInWithPassword",
                [
                    "email": .string("ada@example.com"), "password": .string("wrong horse"), "tenantId": .string(globex),
                    "returnSecureToken": .bool(true),
                ])
            #expect(wrongPassword.errorMessage == "INVALID_PASSWORD")
            let signedIn = try await client.post(
                "/v1/accounts:signInWithPassword",
                [
                    "email": .string("ada@example.com"), "password": .string("correct horse"), "tenantId": .string(globex),
                    "returnSecureToken": .bool(true),
                ])
            #expect(signedIn.string("localId") == inGlobex.localId)
            #expect(
                try await client.post("/v1/accounts:signUp", ["tenantId": .string("nobody-12345"), "returnSecureToken": .bool(true)]).errorMessage
                    == "TENANT_NOT_FOUND")
            #expect(
                try await client.post("/v1/accounts:signUp", ["tenantId": .string("bad/id"), "returnSecureToken": .bool(true)]).errorMessage
                    == "INVALID_TENANT_ID")

            // The refresh token names its tenant; changed, it is worthless.
            let refreshToken = try #require(inAcme.refreshToken)
            #expect(refreshToken.hasSuffix(".\(acme)"))
            let refreshed = try await client.refresh(refreshToken)
            #expect(refreshed.status == .ok)
            #expect(jwtClaims(try #require(refreshed.string("id_token")))["firebase"]?.objectValue?["tenant"] == .string(acme))
            let moved = String(refreshToken.dropLast(acme.count)) + globex
            #expect(try await client.refresh(moved).errorMessage == "INVALID_REFRESH_TOKEN")
            #expect(try await client.refresh(String(refreshToken.dropLast(acme.count + 1))).errorMessage == "INVALID_REFRESH_TOKEN")
            #expect(try await client.refresh(refreshToken + "x").errorMessage == "INVALID_REFRESH_TOKEN")

            // The administrator's tenant paths see the tenant's users alone.
            let tenantLookup = try await admin.raw(
                "/v1/projects/demo-hearth/tenants/\(acme)/accounts:lookup", method: .post,
                body: Data(#"{"localId":["\#(inAcme.localId)","\#(inGlobex.localId)","\#(inProject.localId)"]}"#.utf8), headers: Self.admin
            ).decode(LookupResponse.self)
            #expect(tenantLookup.users?.map(\.localId) == [inAcme.localId])
            // A tenant's user names its tenant (`tenantId`, which firebase-admin's UserRecord.tenant_id reads); the project's none.
            #expect(tenantLookup.users?.first?.tenantId == acme)
            #expect(try lookup.decode(LookupResponse.self).users?.first?.tenantId == acme)
            #expect(try await client.lookup(try #require(inProject.idToken)).decode(LookupResponse.self).users?.first?.tenantId == nil)
            let crossed = try await admin.raw(
                "/v1/projects/demo-hearth/tenants/\(acme)/accounts:lookup", method: .post,
                body: Data(#"{"localId":["\#(inAcme.localId)"],"tenantId":"\#(globex)"}"#.utf8), headers: Self.admin)
            #expect(crossed.errorMessage == "TENANT_ID_MISMATCH")
            // One uid in two tenants is two accounts.
            for tenant in [acme, globex] {
                let made = try await admin.raw(
                    "/v1/projects/demo-hearth/tenants/\(tenant)/accounts", method: .post,
                    body: Data(#"{"localId":"shared-uid","email":"shared@example.com"}"#.utf8), headers: Self.admin)
                #expect(made.status == .ok, "\(made.errorMessage ?? "")")
            }

            // Deleting a tenant deletes its users, and only its own.
            #expect(try await admin.raw("\(Self.tenants)/\(acme)", method: .delete, headers: Self.admin).status == .ok)
            #expect(try await client.refresh(refreshToken).errorMessage == "INVALID_REFRESH_TOKEN")
            let globexUsers = try await admin.raw(
                "/v1/projects/demo-hearth/tenants/\(globex)/accounts:lookup", method: .post,
                body: Data(#"{"localId":["shared-uid","\#(inGlobex.localId)"]}"#.utf8), headers: Self.admin
            ).decode(LookupResponse.self)
            #expect(globexUsers.users?.count == 2)
            #expect(try await client.lookup(try #require(inProject.idToken)).status == .ok)
        }
    }

    @Test("a tenant's own settings: sign-ins off until turned on, disableAuth stops every client call but an administrator's")
    func settings() async throws {
        try await withHearth { _, client async throws in
            var admin = client
            admin.apiKey = nil
            let created = try await admin.raw(Self.tenants, method: .post, body: Data(#"{"displayName":"Initech"}"#.utf8), headers: Self.admin)
            let tenant = try #require(try created.decode(TenantResource.self).tenantId)
            #expect(try await Self.signUp(client, email: "bob@example.com", tenant: tenant).errorMessage == "OPERATION_NOT_ALLOWED")
            #expect(
                try await client.post("/v1/accounts:signUp", ["tenantId": .string(tenant), "returnSecureToken": .bool(true)]).errorMessage
                    == "ADMIN_ONLY_OPERATION")
            _ = try await admin.raw(
                "\(Self.tenants)/\(tenant)", method: .patch, body: Data(#"{"allowPasswordSignup":true,"disableAuth":true}"#.utf8),
                headers: Self.admin)
            #expect(try await Self.signUp(client, email: "bob@example.com", tenant: tenant).errorMessage == "PROJECT_DISABLED")
            let made = try await admin.raw(
                "/v1/projects/demo-hearth/tenants/\(tenant)/accounts", method: .post, body: Data(#"{"email":"bob@example.com"}"#.utf8),
                headers: Self.admin)
            #expect(made.status == .ok, "\(made.errorMessage ?? "")")
        }
    }

    @Test("a tenant's providers are off until its own settings turn them on; one Google account is two accounts in two pools")
    func federated() async throws {
        try await withFederated { live, client in
            var admin = client
            admin.apiKey = nil
            let tenant = try await Self.makeTenant(admin, name: "Acme")
            let credential = try live.sandbox.signInCredential(for: .googleGmail)
            func signIn(_ tenant: String?) async throws -> WireResult {
                var body: [String: JSONValue] = [
                    "requestUri": .string("http://localhost"), "returnSecureToken": .bool(true), "postBody": .string(credential.postBody),
                ]
                if let tenant { body["tenantId"] = .string(tenant) }
                return try await client.post("/v1/accounts:signInWithIdp", body)
            }
            #expect(try await signIn(tenant).errorMessage == "OPERATION_NOT_ALLOWED")
            // The tenant's administrator turns Google on with the tenant's client id.
            let enabled = try await admin.raw(
                "/v2/projects/\(live.projectID)/tenants/\(tenant)/defaultSupportedIdpConfigs?idpId=google.com", method: .post,
                body: Data(#"{"enabled":true,"clientId":"\#(live.sandbox.credentials.google.webClientID)","clientSecret":"s"}"#.utf8),
                headers: Self.admin)
            #expect(enabled.status == .ok, "\(enabled.text)")
            let inTenant = try await signIn(tenant)
            #expect(inTenant.status == .ok, "\(inTenant.text)")
            let inProject = try await signIn(nil)
            #expect(inProject.status == .ok, "\(inProject.text)")
            #expect(inTenant.string("localId") != inProject.string("localId"))
            #expect(jwtClaims(try #require(inTenant.string("idToken")))["firebase"]?.objectValue?["tenant"] == .string(tenant))
            // The project's provider settings stay the project's.
            let listed = try await admin.raw("/v2/projects/\(live.projectID)/defaultSupportedIdpConfigs", method: .get, headers: Self.admin)
            #expect(!listed.text.contains("\"clientSecret\" : \"s\"") && !listed.text.contains("\"clientSecret\":\"s\""))
        }
    }
}
