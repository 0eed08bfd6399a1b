import Foundation
import HearthAdmin
import HearthTesting
import HearthWire
import Testing

/// HearthAdmin's `tenantManager` against a live server: the tenants themselves, and each tenant's users, tokens, custom
/// tokens, session cookies and action links through `auth(forTenant:)`.
@Suite("HearthAdmin: tenants")
struct TenantManagerTests {
    @Test("create, get, list in pages, update (updateMask), delete; the error codes")
    func tenants() async throws {
        try await withLiveHearth { live in
            let manager = try makeAdmin(live).tenantManager
            let acme = try await manager.createTenant(TenantSettings(displayName: "Acme", allowPasswordSignUp: true))
            #expect(acme.tenantID.hasPrefix("acme-") && acme.displayName == "Acme")
            #expect(acme.allowPasswordSignUp && !acme.enableEmailLinkSignIn && !acme.enableAnonymousUser && !acme.disableAuth)
            let globex = try await manager.createTenant(TenantSettings(displayName: "Globex", testPhoneNumbers: ["+15555550100": "123456"]))
            #expect(globex.testPhoneNumbers == ["+15555550100": "123456"] && !globex.allowPasswordSignUp)
            #expect(try await manager.tenant(id: acme.tenantID) == acme)

            var seen: [String] = []
            var token: String?
            repeat {
                let page = try await manager.listTenants(pageSize: 1, pageToken: token)
                #expect(page.tenants.count <= 1)
                seen += page.tenants.map(\.tenantID)
                token = page.nextPageToken
            } while token != nil
            #expect(Set(seen) == Set([acme.tenantID, globex.tenantID]) && seen.count == 2)

            let updated = try await manager.updateTenant(
                id: acme.tenantID, TenantSettings(displayName: "Acme-Two", enableEmailLinkSignIn: true, enableAnonymousUser: true))
            #expect(updated.displayName == "Acme-Two" && updated.enableEmailLinkSignIn && updated.enableAnonymousUser)
            #expect(updated.allowPasswordSignUp, "a field the update does not name is kept")

            #expect(await adminError { _ = try await manager.createTenant(TenantSettings(displayName: "1x")) } == .argumentError)
            #expect(await adminError { _ = try await manager.createTenant(TenantSettings(allowPasswordSignUp: true)) } == .argumentError)
            #expect(await adminError { _ = try await manager.updateTenant(id: acme.tenantID, TenantSettings()) } == .argumentError)
            #expect(await adminError { _ = try await manager.tenant(id: "nobody-12345") } == .tenantNotFound)
            #expect(await adminError { _ = try await manager.tenant(id: "bad_id!") } == .invalidTenantID)
            #expect(await adminError { _ = try manager.auth(forTenant: "") } == .invalidTenantID)
            #expect(await adminError { _ = try await manager.listTenants(pageSize: 0) } == .argumentError)

            try await manager.deleteTenant(id: globex.tenantID)
            #expect(await adminError { _ = try await manager.tenant(id: globex.tenantID) } == .tenantNotFound)
            #expect(await adminError { try await manager.deleteTenant(id: globex.tenantID) } == .tenantNotFound)
            #expect(try await manager.listTenants().tenants.map(\.tenantID) == [acme.tenantID])
        }
    }

    @Test("a tenant's users: created, read, updated, claimed, listed, imported, deleted apart from the project's and another tenant's")
    func users() async throws {
        try await withLiveHearth { live in
            let admin = try makeAdmin(live)
            let acme = try await admin.tenantManager.createTenant(TenantSettings(displayName: "Acme", allowPasswordSignUp: true))
            let globex = try await admin.tenantManager.createTenant(TenantSettings(displayName: "Globex", allowPasswordSignUp: true))
            let acmeAdmin = try admin.tenantManager.auth(forTenant: acme.tenantID)
            let globexAdmin = try admin.tenantManager.auth(forTenant: globex.tenantID)
            #expect(acmeAdmin.tenantID == acme.tenantID && admin.tenantID == nil)

            let projectAda = try await admin.createUser(NewUser(uid: "ada-1", email: "ada@example.com", displayName: "Ada"))
            #expect(projectAda.tenantID == nil)
            // The same uid and e-mail in a tenant: another account.
            let ada = try await acmeAdmin.createUser(NewUser(uid: "ada-1", email: "ada@example.com", password: "correct horse", displayName: "Grace"))
            #expect(ada.uid == "ada-1" && ada.displayName == "Grace" && ada.tenantID == acme.tenantID)
            #expect(try await acmeAdmin.user(email: "ada@example.com").displayName == "Grace")
            #expect(try await admin.user(uid: "ada-1").displayName == "Ada")
            #expect(await adminError { _ = try await globexAdmin.user(uid: "ada-1") } == .userNotFound)
            #expect(await adminError { try await acmeAdmin.createUser(NewUser(email: "ada@example.com")) } == .emailAlreadyExists)

            let renamed = try await acmeAdmin.updateUser(uid: "ada-1", UserUpdate(displayName: .set("Grace Hopper")))
            #expect(renamed.displayName == "Grace Hopper")
            try await acmeAdmin.setCustomUserClaims(uid: "ada-1", claims: ["role": "admiral"])
            #expect(try await acmeAdmin.user(uid: "ada-1").customClaims == ["role": "admiral"])
            #expect(try await admin.user(uid: "ada-1").customClaims.isEmpty)

            let imported = try await acmeAdmin.importUsers([ImportedUser(uid: "imp-1", email: "imp@example.com")])
            #expect(imported.successCount == 1)
            for index in 0..<3 { try await acmeAdmin.createUser(NewUser(uid: "acme-\(index)")) }
            var listed: [String] = []
            var token: String?
            repeat {
                let page = try await acmeAdmin.listUsers(pageSize: 2, pageToken: token)
                listed += page.users.map(\.uid)
                #expect(page.users.allSatisfy { $0.tenantID == acme.tenantID })
                token = page.nextPageToken
            } while token != nil
            #expect(listed == ["acme-0", "acme-1", "acme-2", "ada-1", "imp-1"])
            let exported = try await acmeAdmin.exportUsers()
            #expect(exported.users.map(\.localId) == listed)
            #expect(try await globexAdmin.listUsers().users.isEmpty)

            let reset = try await acmeAdmin.generatePasswordResetLink(email: "ada@example.com")
            #expect(URLComponents(string: reset)?.queryItems?.first { $0.name == "tenantId" }?.value == acme.tenantID)
            #expect(await adminError { _ = try await globexAdmin.generatePasswordResetLink(email: "ada@example.com") } == .userNotFound)

            try await acmeAdmin.deleteUser(uid: "ada-1")
            #expect(await adminError { _ = try await acmeAdmin.user(uid: "ada-1") } == .userNotFound)
            #expect(try await admin.user(uid: "ada-1").displayName == "Ada", "the project's ada-1 stays")
            #expect(try await acmeAdmin.deleteUsers(["acme-0", "acme-1"]).successCount == 2)
            #expect(try await acmeAdmin.listUsers().users.map(\.uid) == ["acme-2", "imp-1"])
        }
    }

    @Test("verification in a tenant requires the token's firebase.tenant; custom tokens and session cookies of a tenant")
    func tokens() async throws {
        try await withLiveHearth { live in
            let admin = try makeAdmin(live)
            let acme = try await admin.tenantManager.createTenant(TenantSettings(displayName: "Acme", allowPasswordSignUp: true))
            let globex = try await admin.tenantManager.createTenant(TenantSettings(displayName: "Globex", allowPasswordSignUp: true))
            let acmeAdmin = try admin.tenantManager.auth(forTenant: acme.tenantID)
            let globexAdmin = try admin.tenantManager.auth(forTenant: globex.tenantID)

            _ = try await acmeAdmin.createUser(NewUser(uid: "ada-1", email: "ada@example.com", password: "correct horse"))
            try await acmeAdmin.setCustomUserClaims(uid: "ada-1", claims: ["role": "admiral"])
            let signedIn = try await post(
                live, "/v1/accounts:signInWithPassword",
                [
                    "email": "ada@example.com", "password": "correct horse", "tenantId": .string(acme.tenantID), "returnSecureToken": true,
                ])
            let idToken = try #require(signedIn.json["idToken"]?.stringValue, "\(signedIn.json)")
            let verified = try await acmeAdmin.verifyIDToken(idToken, checkRevoked: true)
            #expect(verified.uid == "ada-1" && verified.tenantID == acme.tenantID && verified.customClaims["role"] == "admiral")
            #expect(await adminError { _ = try await globexAdmin.verifyIDToken(idToken) } == .mismatchingTenantID)
            // The project's instance takes every tenant's tokens, as firebase-admin's does.
            #expect(try await admin.verifyIDToken(idToken).tenantID == acme.tenantID)
            let projectUser = try await signUp(live, email: "bob@example.com")
            #expect(await adminError { _ = try await acmeAdmin.verifyIDToken(projectUser.idToken) } == .mismatchingTenantID)

            // Revocation is the tenant's user's.
            live.clock.advance(by: 2)
            try await acmeAdmin.revokeRefreshTokens(uid: "ada-1")
            #expect(await adminError { _ = try await acmeAdmin.verifyIDToken(idToken, checkRevoked: true) } == .idTokenRevoked)
            let again = try await post(
                live, "/v1/accounts:signInWithPassword",
                [
                    "email": "ada@example.com", "password": "correct horse", "tenantId": .string(acme.tenantID), "returnSecureToken": true,
                ])
            let fresh = try #require(again.json["idToken"]?.stringValue)

            let cookie = try await acmeAdmin.createSessionCookie(idToken: fresh, expiresIn: 3_600)
            #expect(try await acmeAdmin.verifySessionCookie(cookie, checkRevoked: true).tenantID == acme.tenantID)
            #expect(await adminError { _ = try await globexAdmin.verifySessionCookie(cookie) } == .mismatchingTenantID)
            #expect(await adminError { _ = try await globexAdmin.createSessionCookie(idToken: fresh, expiresIn: 3_600) } != nil)

            // A tenant's custom token names it and signs in there alone.
            let custom = try acmeAdmin.createCustomToken(uid: "wile", claims: ["premium": true])
            #expect(jwtParts(custom).payload["tenant_id"] == .string(acme.tenantID))
            let exchanged = try await post(
                live, "/v1/accounts:signInWithCustomToken", ["token": .string(custom), "tenantId": .string(acme.tenantID), "returnSecureToken": true])
            let customIDToken = try #require(exchanged.json["idToken"]?.stringValue, "\(exchanged.json)")
            let customVerified = try await acmeAdmin.verifyIDToken(customIDToken)
            #expect(customVerified.uid == "wile" && customVerified.customClaims["premium"] == true)
            let elsewhere = try await post(live, "/v1/accounts:signInWithCustomToken", ["token": .string(custom), "returnSecureToken": true])
            #expect(elsewhere.json["error"]?.objectValue?["message"]?.stringValue == "TENANT_ID_MISMATCH")
        }
    }
}
