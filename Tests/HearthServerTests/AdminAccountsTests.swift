import Foundation
import HTTPTypes
import HearthCore
import HearthServer
import HearthWire
import Testing

/// The admin side of `accounts:*` as the Admin SDKs call it: project-scoped paths with `Bearer owner` (no
/// API key) in development mode, every field, paging, and Identity Toolkit's exact error strings.
@Suite("Admin API: accounts")
struct AdminAccountsTests {
    static let project = "/v1/projects/demo-hearth"
    static let owner: HTTPFields = [.authorization: "Bearer owner", .contentType: "application/json"]

    @Test("create with a chosen uid and every field; lookup by uid, e-mail, phone and provider identity; the create errors")
    func createAndLookup() async throws {
        try await withHearth { _, client async throws in
            let admin = AdminClient(client)
            let created = try await admin.post(
                "/accounts",
                #"{"localId":"ada-1","email":"Ada@Example.com","password":"analytical","phoneNumber":"+15555550100","displayName":"Ada","photoUrl":"https://example.com/ada.png","emailVerified":true,"disabled":false}"#
            )
            #expect(created.status == .ok, "\(created.text)")
            #expect(created.string("localId") == "ada-1")
            #expect(created["idToken"] == nil)

            let found = try await admin.post(
                "/accounts:lookup",
                #"{"localId":["ada-1","nobody"],"email":["ada@example.com"],"phoneNumber":["+15555550100"],"federatedUserId":[{"providerId":"password","rawId":"ada@example.com"}]}"#
            )
            let users = try found.decode(LookupResponse.self).users ?? []
            #expect(users.map(\.localId) == ["ada-1"])
            let ada = try #require(users.first)
            #expect(ada.email == "ada@example.com" && ada.emailVerified == true && ada.phoneNumber == "+15555550100")
            #expect(ada.displayName == "Ada" && ada.photoUrl == "https://example.com/ada.png" && ada.disabled == false)
            #expect(ada.passwordHash == "UkVEQUNURUQ=")

            // Nothing matched: `users` is absent, not empty.
            let none = try await admin.post("/accounts:lookup", #"{"localId":["nobody"]}"#)
            #expect(none.status == .ok && none["users"] == nil)

            // The password works.
            let signedIn = try await client.post(
                "/v1/accounts:signInWithPassword", ["email": .string("ada@example.com"), "password": .string("analytical")])
            #expect(signedIn.string("localId") == "ada-1")

            #expect(try await admin.post("/accounts", #"{"localId":"ada-1"}"#).errorMessage == "DUPLICATE_LOCAL_ID")
            #expect(try await admin.post("/accounts", #"{"email":"ADA@example.com"}"#).errorMessage == "EMAIL_EXISTS")
            #expect(try await admin.post("/accounts", #"{"phoneNumber":"+15555550100"}"#).errorMessage == "PHONE_NUMBER_EXISTS")
            #expect(try await admin.post("/accounts", #"{"phoneNumber":"555-0100"}"#).errorMessage == "INVALID_PHONE_NUMBER : Invalid format.")
            #expect(try await admin.post("/accounts", #"{"email":"not-an-email"}"#).errorMessage == "INVALID_EMAIL")
            #expect(
                try await admin.post("/accounts", #"{"password":"short"}"#).errorMessage == "WEAK_PASSWORD : Password should be at least 6 characters"
            )
            let nul = try await admin.post("/accounts", #"{"localId":"evil\u0000id"}"#)
            #expect(nul.status == .badRequest)
            #expect(nul.json["error"]?.jsonText.contains("INVALID_ARGUMENT") == true)

            // accounts:signUp on the same scope creates too; an empty create makes a user with a random uid.
            let empty = try await admin.post("/accounts:signUp", "{}")
            #expect(empty.string("localId")?.count == 28)
        }
    }

    @Test("who may call: Bearer owner without an API key in development; a wrong bearer, another project, an app")
    func callers() async throws {
        try await withHearth { _, client async throws in
            var keyless = client
            keyless.apiKey = nil
            // The unscoped path with the emulator's bearer and no key: the administrator's lookup.
            _ = try await AdminClient(client).post("/accounts", #"{"localId":"u1"}"#)
            let unscoped = try await keyless.raw(
                "/identitytoolkit.googleapis.com/v1/accounts:lookup", method: .post, body: Data(#"{"localId":["u1"]}"#.utf8),
                headers: Self.owner)
            #expect(try unscoped.decode(LookupResponse.self).users?.first?.localId == "u1", "\(unscoped.text)")

            let wrong = try await keyless.raw(
                "/v1/accounts:lookup", method: .post, body: Data(#"{"localId":["u1"]}"#.utf8),
                headers: [.authorization: "Bearer not-a-credential", .contentType: "application/json"])
            #expect(wrong.status == .unauthorized)

            let noBearer = try await keyless.raw("\(Self.project)/accounts:lookup", method: .post, body: Data("{}".utf8))
            #expect(noBearer.status == .unauthorized)

            let otherProject = try await keyless.raw(
                "/v1/projects/someone-else/accounts:lookup", method: .post, body: Data("{}".utf8), headers: Self.owner)
            #expect(otherProject.errorMessage == "PROJECT_NOT_FOUND")

            // An app (API key, no bearer): admin-only routes want a credential; admin fields are refused.
            let list = try await client.raw("/v1/accounts:batchGet", method: .get)
            #expect(list.status == .unauthorized)
            let target = try await client.post(
                "/v1/accounts:lookup", ["targetProjectId": .string("demo-hearth"), "localId": .array([.string("u1")])])
            #expect(target.errorMessage == "INSUFFICIENT_PERMISSION : Only authenticated requests can specify target_project_id.")
            let user = try await client.signUpAnonymously()
            let claims = try await client.post(
                "/v1/accounts:update", ["idToken": .string(user.idToken!), "customAttributes": .string(#"{"admin":true}"#)])
            #expect(claims.errorMessage == "INSUFFICIENT_PERMISSION")
        }
        // Outside development mode `Bearer owner` is refused.
        try await withHearth({ configuration in
            configuration.mode = .production
            configuration.apiKeys = ["production-api-key-0001"]
        }) { _, client async throws in
            var keyless = client
            keyless.apiKey = nil
            let owner = try await keyless.raw(
                "\(Self.project)/accounts:lookup", method: .post, body: Data("{}".utf8), headers: Self.owner)
            #expect(owner.status == .unauthorized)
        }
    }

    @Test("disable: every sign-in, refresh and ID-token call answers USER_DISABLED; the administrator still reads and changes the user")
    func disabledUsers() async throws {
        try await withHearth { _, client async throws in
            let admin = AdminClient(client)
            let ada = try await client.signUp(email: "ada@example.com", password: "analytical")
            #expect(try await admin.post("/accounts:update", #"{"localId":"\#(ada.localId)","disableUser":true}"#).status == .ok)

            let signIn = try await client.post(
                "/v1/accounts:signInWithPassword", ["email": .string("ada@example.com"), "password": .string("analytical")])
            #expect(signIn.errorMessage == "USER_DISABLED")
            #expect(try await client.refresh(ada.refreshToken!).errorMessage == "USER_DISABLED")
            #expect(try await client.lookup(ada.idToken!).errorMessage == "USER_DISABLED")
            let looked = try await admin.post("/accounts:lookup", #"{"localId":["\#(ada.localId)"]}"#)
            #expect(try looked.decode(LookupResponse.self).users?.first?.disabled == true)

            #expect(try await admin.post("/accounts:update", #"{"localId":"\#(ada.localId)","disableUser":false}"#).status == .ok)
            #expect(try await client.refresh(ada.refreshToken!).status == .ok)
        }
    }

    @Test("custom claims: stored, copied to the next ID token, and INVALID_CLAIMS, CLAIMS_TOO_LARGE, FORBIDDEN_CLAIM")
    func customClaims() async throws {
        try await withHearth { _, client async throws in
            let admin = AdminClient(client)
            let ada = try await client.signUp(email: "ada@example.com")
            func set(_ claims: String) async throws -> WireResult {
                try await admin.post(
                    "/accounts:update", JSONValue.object(["localId": .string(ada.localId), "customAttributes": .string(claims)]).jsonText)
            }
            #expect(try await set(#"{"admin":true,"tier":"gold"}"#).status == .ok)
            let token = try #require(try await client.refresh(ada.refreshToken!).string("id_token"))
            #expect(jwtClaims(token)["admin"] == .bool(true))
            #expect(jwtClaims(token)["tier"] == .string("gold"))

            #expect(try await set("[1,2]").errorMessage == "INVALID_CLAIMS")
            #expect(try await set("not json").errorMessage == "INVALID_CLAIMS")
            #expect(try await set(#"{"sub":"x","admin":true}"#).errorMessage == "FORBIDDEN_CLAIM : sub")
            #expect(try await set(#"{"firebase":{}}"#).errorMessage == "FORBIDDEN_CLAIM : firebase")
            let large = #"{"blob":""# + String(repeating: "x", count: 1_000) + #""}"#
            #expect(try await set(large).errorMessage == "CLAIMS_TOO_LARGE")

            // An empty object removes them.
            #expect(try await set("{}").status == .ok)
            let cleared = try #require(try await client.refresh(ada.refreshToken!).string("id_token"))
            #expect(jwtClaims(cleared)["admin"] == nil)
        }
    }

    @Test("revocation: validSince as a bare number ends refresh tokens and ID tokens (TOKEN_EXPIRED); lookup shows it")
    func revocation() async throws {
        try await withHearth { hearth, client async throws in
            let admin = AdminClient(client)
            let ada = try await client.signUp(email: "ada@example.com")
            hearth.clock.advance(by: 5)
            let now = Int64(hearth.clock.now.timeIntervalSince1970)
            // The Node Admin SDK sends a number, the Python one a number too; proto3 also takes a string.
            #expect(try await admin.post("/accounts:update", #"{"localId":"\#(ada.localId)","validSince":\#(now)}"#).status == .ok)
            #expect(try await client.refresh(ada.refreshToken!).errorMessage == "TOKEN_EXPIRED")
            #expect(try await client.lookup(ada.idToken!).errorMessage == "TOKEN_EXPIRED")
            let info = try await admin.post("/accounts:lookup", #"{"localId":["\#(ada.localId)"]}"#).decode(LookupResponse.self)
            #expect(info.users?.first?.validSince == WireInt64(now))
            #expect(try await admin.post("/accounts:update", #"{"localId":"\#(ada.localId)","validSince":"\#(now)"}"#).status == .ok)
            let bad = try await admin.post("/accounts:update", #"{"localId":"\#(ada.localId)","validSince":"soon"}"#)
            #expect(bad.errorMessage == "Invalid JSON payload received. /validSince must be number")
            // A new sign-in after the revocation works.
            hearth.clock.advance(by: 1)
            let again = try await client.post(
                "/v1/accounts:signInWithPassword", ["email": .string("ada@example.com"), "password": .string("correct horse")])
            #expect(again.status == .ok)
        }
    }

    @Test("update: every field, enums by name or number, providers linked and removed; MISSING_LOCAL_ID, USER_NOT_FOUND and the link errors")
    func updateFields() async throws {
        try await withHearth { _, client async throws in
            let admin = AdminClient(client)
            _ = try await admin.post(
                "/accounts", #"{"localId":"u1","email":"one@example.com","displayName":"One","photoUrl":"https://example.com/1.png"}"#)
            _ = try await admin.post("/accounts", #"{"localId":"u2","email":"two@example.com","phoneNumber":"+15555550102"}"#)

            let changed = try await admin.post(
                "/accounts:update",
                #"{"localId":"u1","email":"uno@example.com","emailVerified":true,"phoneNumber":"+15555550101","password":"secret-1","deleteAttribute":[2,"PHOTO_URL"],"linkProviderUserInfo":{"providerId":"google.com","rawId":"g-1","email":"uno@gmail.com"},"createdAt":"1600000000000","lastLoginAt":1600000001000}"#
            )
            #expect(changed.status == .ok, "\(changed.text)")
            let user = try #require(try await admin.post("/accounts:lookup", #"{"localId":["u1"]}"#).decode(LookupResponse.self).users?.first)
            #expect(user.email == "uno@example.com" && user.emailVerified == true && user.phoneNumber == "+15555550101")
            #expect(user.displayName == nil && user.photoUrl == nil)
            #expect(user.createdAt == 1_600_000_000_000 && user.lastLoginAt == 1_600_000_001_000)
            #expect(user.providerUserInfo?.map(\.providerId).sorted() == ["google.com", "password", "phone"])
            let byIdentity = try await admin.post("/accounts:lookup", #"{"federatedUserId":[{"providerId":"google.com","rawId":"g-1"}]}"#)
            #expect(try byIdentity.decode(LookupResponse.self).users?.first?.localId == "u1")

            // Removing providers, the last one included: an administrator may.
            #expect(try await admin.post("/accounts:update", #"{"localId":"u1","deleteProvider":["google.com","phone","password"]}"#).status == .ok)
            let bare = try #require(try await admin.post("/accounts:lookup", #"{"localId":["u1"]}"#).decode(LookupResponse.self).users?.first)
            #expect(bare.providerUserInfo == [] && bare.phoneNumber == nil && bare.email == nil)

            #expect(try await admin.post("/accounts:update", #"{"displayName":"x"}"#).errorMessage == "MISSING_LOCAL_ID")
            #expect(try await admin.post("/accounts:update", #"{"localId":"nobody","displayName":"x"}"#).errorMessage == "USER_NOT_FOUND")
            #expect(try await admin.post("/accounts:update", #"{"localId":"u1","email":"two@example.com"}"#).errorMessage == "EMAIL_EXISTS")
            #expect(try await admin.post("/accounts:update", #"{"localId":"u1","phoneNumber":"+15555550102"}"#).errorMessage == "PHONE_NUMBER_EXISTS")
            #expect(
                try await admin.post("/accounts:update", #"{"localId":"u1","linkProviderUserInfo":{"providerId":""}}"#).errorMessage
                    == "MISSING_PROVIDER_ID")
            #expect(
                try await admin.post("/accounts:update", #"{"localId":"u1","linkProviderUserInfo":{"providerId":"google.com"}}"#).errorMessage
                    == "MISSING_RAW_ID")
            let unknownEnum = try await admin.post("/accounts:update", #"{"localId":"u1","deleteAttribute":["EVERYTHING"]}"#)
            #expect(unknownEnum.errorMessage == "Invalid JSON payload received. /deleteAttribute/0 is invalid")
            #expect(try await admin.post("/accounts:update", #"{"localId":"u1","deleteAttribute":[99]}"#).status == .badRequest)
            #expect(try await admin.post("/accounts:delete", #"{"localId":"u2"}"#).status == .ok)
            #expect(try await admin.post("/accounts:delete", #"{"localId":"u2"}"#).errorMessage == "USER_NOT_FOUND")
            #expect(try await admin.post("/accounts:delete", "{}").errorMessage == "MISSING_LOCAL_ID")
        }
    }

    @Test("batchGet pages in uid order; a full page always names the next; query counts, filters and sorts")
    func listing() async throws {
        try await withHearth { _, client async throws in
            let admin = AdminClient(client)
            let uids = (0..<45).map { String(format: "user-%02d", $0) }
            for uid in uids.shuffled() {
                #expect(try await admin.post("/accounts", #"{"localId":"\#(uid)","email":"\#(uid)@example.com"}"#).status == .ok)
            }
            var listed: [String] = []
            var token: String?
            var pages = 0
            repeat {
                let query = "maxResults=20" + (token.map { "&nextPageToken=\($0)" } ?? "")
                let page = try await admin.get("/accounts:batchGet?\(query)").decode(BatchGetResponse.self)
                listed += (page.users ?? []).map(\.localId)
                token = page.nextPageToken
                pages += 1
            } while token != nil && pages < 10
            #expect(listed == uids)
            #expect(pages == 3)
            // All 45 in one page of 45: it is full, so it names a next page, which is empty.
            let full = try await admin.get("/accounts:batchGet?maxResults=45").decode(BatchGetResponse.self)
            #expect(full.nextPageToken == "user-44")
            let after = try await admin.get("/accounts:batchGet?maxResults=45&nextPageToken=user-44").decode(BatchGetResponse.self)
            #expect(after.users == nil && after.nextPageToken == nil)

            let count = try await admin.post("/accounts:query", #"{"returnUserInfo":false}"#).decode(QueryResponse.self)
            #expect(count.recordsCount == 45 && count.userInfo == nil)
            let some = try await admin.post(
                "/accounts:query", #"{"expression":[{"email":"USER-07@example.com"},{"userId":"user-03"},{"userId":"nobody"}]}"#)
            // Only the first expression counts (Firebase's `SqlExpression`), its e-mail without regard to case.
            #expect(try some.decode(QueryResponse.self).userInfo?.map(\.localId) == ["user-07"])
            let sorted = try await admin.post("/accounts:query", #"{"sortBy":"USER_ID","order":"DESC","limit":"2","offset":1}"#)
            #expect(try sorted.decode(QueryResponse.self).userInfo?.map(\.localId) == ["user-43", "user-42"])
            let paged = try await admin.post("/accounts:query", #"{"limit":3,"offset":"10"}"#).decode(QueryResponse.self)
            // With users, `recordsCount` is how many came back.
            #expect(paged.userInfo?.map(\.localId) == ["user-10", "user-11", "user-12"] && paged.recordsCount == 3)
        }
    }

    @Test("batchDelete: 1 to 1000 uids, NOT_DISABLED for enabled users without force, unknown uids skipped")
    func batchDelete() async throws {
        try await withHearth { _, client async throws in
            let admin = AdminClient(client)
            _ = try await admin.post("/accounts", #"{"localId":"on"}"#)
            _ = try await admin.post("/accounts", #"{"localId":"off","disabled":true}"#)
            #expect(try await admin.post("/accounts:batchDelete", #"{"localIds":[]}"#).errorMessage == "LOCAL_ID_LIST_EXCEEDS_LIMIT")
            let many = JSONValue.object(["localIds": .array((0...1000).map { .string("u\($0)") })]).jsonText
            #expect(try await admin.post("/accounts:batchDelete", many).errorMessage == "LOCAL_ID_LIST_EXCEEDS_LIMIT")

            let careful = try await admin.post("/accounts:batchDelete", #"{"localIds":["on","off","ghost"]}"#).decode(BatchDeleteResponse.self)
            #expect(
                careful.errors == [BatchDeleteError(index: 0, localId: "on", message: "NOT_DISABLED : Disable the account before batch deletion.")])
            #expect(
                try await admin.post("/accounts:lookup", #"{"localId":["on","off"]}"#).decode(LookupResponse.self).users?.map(\.localId) == ["on"])
            let forced = try await admin.post("/accounts:batchDelete", #"{"localIds":["on"],"force":true}"#)
            #expect(forced.status == .ok && forced["errors"] == nil)
            #expect(try await admin.post("/accounts:lookup", #"{"localId":["on"]}"#)["users"] == nil)
        }
    }

    @Test("batchCreate: links, claims, flags and times imported; per-user errors by index, the rest imported; whole-batch errors")
    func batchCreate() async throws {
        try await withHearth { _, client async throws in
            let admin = AdminClient(client)
            _ = try await admin.post("/accounts", #"{"localId":"taken","email":"taken@example.com"}"#)
            #expect(try await admin.post("/accounts:batchCreate", #"{"users":[]}"#).errorMessage == "MISSING_USER_ACCOUNT")
            #expect(
                try await admin.post("/accounts:batchCreate", #"{"users":[{"localId":"a"},{"localId":"a"}]}"#).errorMessage
                    == "DUPLICATE_LOCAL_ID : a")
            #expect(
                try await admin.post(
                    "/accounts:batchCreate",
                    #"{"sanityCheck":true,"users":[{"localId":"a","email":"x@example.com"},{"localId":"b","email":"X@example.com"}]}"#
                ).errorMessage == "DUPLICATE_EMAIL : x@example.com")

            let result = try await admin.post(
                "/accounts:batchCreate",
                #"""
                {"users":[
                  {"localId":"imp-1","email":"Imp@Example.com","emailVerified":true,"displayName":"Imp","disabled":true,
                   "customAttributes":"{\"role\":\"editor\"}","createdAt":"1500000000000","lastLoginAt":1500000001000,
                   "providerUserInfo":[{"providerId":"github.com","rawId":"gh-9","email":"imp@github.example"},{"providerId":"password","rawId":"imp@example.com"}]},
                  {"localId":"imp-2","email":"bad email"},
                  {"localId":"imp-3","customAttributes":"{\"iss\":\"me\"}"},
                  {"localId":"taken"},
                  {"localId":"imp-5","email":"taken@example.com"},
                  {"localId":"imp-6","providerUserInfo":[{"providerId":"github.com"}]},
                  {"localId":"imp-7","phoneNumber":"+15555550107"}
                ]}
                """#)
            #expect(result.status == .ok, "\(result.text)")
            let errors = try result.decode(BatchCreateResponse.self).error ?? []
            #expect(
                errors == [
                    BatchCreateError(index: 1, message: "email is invalid"),
                    BatchCreateError(index: 2, message: "Custom claims provided include a reserved claim."),
                    BatchCreateError(index: 3, message: "localId belongs to an existing account - can not overwrite."),
                    BatchCreateError(index: 4, message: "email exists in other account in database"),
                    BatchCreateError(index: 5, message: "federatedId or (providerId & rawId) is required"),
                ])
            let imported = try await admin.post("/accounts:lookup", #"{"localId":["imp-1","imp-7"]}"#).decode(LookupResponse.self).users ?? []
            #expect(imported.map(\.localId) == ["imp-1", "imp-7"])
            let imp = try #require(imported.first)
            #expect(imp.email == "imp@example.com" && imp.emailVerified == true && imp.disabled == true && imp.displayName == "Imp")
            #expect(imp.customAttributes == #"{"role":"editor"}"# && imp.createdAt == 1_500_000_000_000 && imp.lastLoginAt == 1_500_000_001_000)
            #expect(imp.providerUserInfo?.map(\.providerId) == ["github.com"])
        }
    }

    @Test(
        "Firebase's refusals an Admin SDK sees: a link to a disabled user USER_DISABLED, no providerId MISSING_PROVIDER_ID, localId with idToken UNEXPECTED_PARAMETER"
    )
    func administratorRefusals() async throws {
        try await withHearth { hearth, client async throws in
            let admin = AdminClient(client)
            #expect(try await admin.post("/accounts", #"{"localId":"off","email":"off@example.com","disabled":true}"#).status == .ok)
            let linkToDisabled = try await admin.post(
                "/accounts:update", #"{"localId":"off","linkProviderUserInfo":{"providerId":"google.com","rawId":"g-off"}}"#)
            #expect(linkToDisabled.errorMessage == "USER_DISABLED")
            #expect(try await hearth.services.store.user(uid: "off")?.providers.isEmpty == true)
            // Anything else of a disabled account an administrator may still change.
            #expect(try await admin.post("/accounts:update", #"{"localId":"off","displayName":"Still here"}"#).status == .ok)
            let noProvider = try await admin.post("/accounts:update", #"{"localId":"off","linkProviderUserInfo":{"rawId":"g-off"}}"#)
            #expect(noProvider.errorMessage == "MISSING_PROVIDER_ID")

            let anonymous = try await client.signUpAnonymously()
            let idToken = try #require(anonymous.idToken)
            let asAdministrator = try await admin.post("/accounts:signUp", #"{"localId":"chosen","idToken":"\#(idToken)"}"#)
            #expect(asAdministrator.errorMessage == "UNEXPECTED_PARAMETER : User ID")
            let asClient = try await client.post("/v1/accounts:signUp", ["localId": .string("chosen"), "idToken": .string(idToken)])
            #expect(asClient.errorMessage == "UNEXPECTED_PARAMETER : User ID")
            #expect(try await hearth.services.store.user(uid: "chosen") == nil)
            #expect(try await admin.post("/accounts:delete", #"{"displayName":"x"}"#).errorMessage == "MISSING_LOCAL_ID")
        }
    }

    @Test(
        "batchCreate and uploadAccount: rawPassword hashed with Hearth's hasher; no localId or a link without providerId fail that user alone; over 1000 users EXCEED_MAX_USER_COUNT"
    )
    func batchCreateRawPasswords() async throws {
        try await withHearth { hearth, client async throws in
            let admin = AdminClient(client)
            let result = try await admin.post(
                "/accounts:batchCreate",
                #"""
                {"users":[
                  {"localId":"raw-1","email":"raw@example.com","rawPassword":"correct horse"},
                  {"email":"no-uid@example.com"},
                  {"localId":"raw-3","providerUserInfo":[{"rawId":"x-1"}]},
                  {"localId":"raw-4","rawPassword":"abc"},
                  {"displayName":"no uid either"}
                ]}
                """#)
            #expect(result.status == .ok, "\(result.text)")
            #expect(
                try result.decode(BatchCreateResponse.self).error == [
                    BatchCreateError(index: 1, message: "localId is missing"),
                    BatchCreateError(index: 2, message: "federatedId or (providerId & rawId) is required"),
                    BatchCreateError(index: 3, message: "Password should be at least 6 characters"),
                    BatchCreateError(index: 4, message: "localId is missing"),
                ])
            let signedIn = try await client.signIn(email: "raw@example.com", password: "correct horse")
            #expect(signedIn.status == .ok && signedIn.string("localId") == "raw-1")
            let hash = try #require(try await hearth.services.store.user(uid: "raw-1")?.passwordHash)
            #expect(!hash.contains("correct horse") && !hearth.services.passwords.needsRehash(hash))

            // The Firebase CLI's legacy name takes it too.
            let legacy = try await admin.client.raw(
                "/identitytoolkit/v3/relyingparty/uploadAccount", method: .post,
                body: Data(
                    #"{"targetProjectId":"demo-hearth","users":[{"localId":"raw-5","email":"legacy@example.com","rawPassword":"legacy password"}]}"#
                        .utf8),
                headers: AdminAccountsTests.owner)
            #expect(legacy.status == .ok && legacy["error"] == nil, "\(legacy.text)")
            #expect(try await client.signIn(email: "legacy@example.com", password: "legacy password").string("localId") == "raw-5")

            let many = JSONValue.object(["users": .array((0...1000).map { .object(["localId": .string("many-\($0)")]) })]).jsonText
            #expect(try await admin.post("/accounts:batchCreate", many).errorMessage == "EXCEED_MAX_USER_COUNT")
            #expect(try await hearth.services.store.user(uid: "many-0") == nil)
        }
    }

    @Test("import with Firebase scrypt and bcrypt hashes: the old password signs in and is rehashed to Hearth's scrypt on that sign-in")
    func importedHashes() async throws {
        try await withHearth { hearth, client async throws in
            let admin = AdminClient(client)
            // github.com/firebase/scrypt's README vector, as `firebase auth:import` sends it (base64 bytes).
            let firebase = try await admin.post(
                "/accounts:batchCreate",
                #"{"hashAlgorithm":"SCRYPT","signerKey":"jxspr8Ki0RYycVU8zykbdLGjFQ3McFUH0uiiTvC8pVMXAn210wjLNmdZJzxUECKbm0QsEmYUSDzZvpjeJ9WmXA==","saltSeparator":"Bw==","rounds":8,"memoryCost":"14","users":[{"localId":"fb-1","email":"user1@example.com","passwordHash":"lSrfV15cpx95_sZS2W9c9Kp6i_LVgQNDNC_qzrCnh1SAyZvqmZqAjTdn3aoItz-VHjoZilo78198JAdRuid5lQ","salt":"42xEC+ixf3L2lw=="},{"localId":"fb-2","email":"user2@example.com","passwordHash":"c2hvcnQ=","salt":"42xEC+ixf3L2lw=="}]}"#
            )
            #expect(firebase.status == .ok, "\(firebase.text)")
            #expect(
                try firebase.decode(BatchCreateResponse.self).error == [
                    BatchCreateError(index: 1, message: "Invalid password hash for hash algorithm SCRYPT.")
                ])
            // A bcrypt hash made by Python's bcrypt package (see HearthCoreTests/BcryptTests), its ASCII as bytes.
            let bcrypt = Data("$2b$06$tXoPZeB8dx8h54okwd2scOmLV1OtST6c5Rvwop8C3f37fcoiqND7S".utf8).base64EncodedString()
            let imported = try await admin.post(
                "/accounts:batchCreate",
                #"{"hashAlgorithm":"BCRYPT","users":[{"localId":"bc-1","email":"bc@example.com","passwordHash":"\#(bcrypt)"}]}"#)
            #expect(imported.status == .ok && imported["error"] == nil, "\(imported.text)")

            for (uid, email, password) in [("fb-1", "user1@example.com", "user1password"), ("bc-1", "bc@example.com", "Hearth import ✓ £")] {
                let wrong = try await client.post("/v1/accounts:signInWithPassword", ["email": .string(email), "password": .string(password + "x")])
                #expect(wrong.errorMessage == "INVALID_PASSWORD")
                let before = try #require(try await hearth.services.store.user(uid: uid)?.passwordHash)
                #expect(hearth.services.passwords.needsRehash(before))
                let signedIn = try await client.post("/v1/accounts:signInWithPassword", ["email": .string(email), "password": .string(password)])
                #expect(signedIn.string("localId") == uid, "\(signedIn.text)")
                let after = try #require(try await hearth.services.store.user(uid: uid)?.passwordHash)
                #expect(after.hasPrefix("$scrypt$") && !hearth.services.passwords.needsRehash(after))
                let again = try await client.post("/v1/accounts:signInWithPassword", ["email": .string(email), "password": .string(password)])
                #expect(again.status == .ok)
            }

            // Whole-batch refusals: an unknown algorithm, parameters out of range, hashes without an algorithm.
            let unknown = try await admin.post("/accounts:batchCreate", #"{"hashAlgorithm":"ARGON2","users":[{"localId":"x"}]}"#)
            #expect(unknown.errorMessage == #"INVALID_HASH_ALGORITHM : Unsupported hash algorithm provider "ARGON2"."#)
            let rounds = try await admin.post(
                "/accounts:batchCreate", #"{"hashAlgorithm":"SCRYPT","signerKey":"a2V5","rounds":9,"memoryCost":14,"users":[{"localId":"x"}]}"#)
            #expect(rounds.errorMessage?.hasPrefix("INVALID_HASH_ROUNDS : ") == true, "\(rounds.text)")
            let missing = try await admin.post("/accounts:batchCreate", #"{"users":[{"localId":"x","passwordHash":"a2V5"}]}"#)
            #expect(missing.errorMessage == "INVALID_HASH_ALGORITHM : A hash algorithm must be given with password hashes.")
            #expect(try await admin.post("/accounts:lookup", #"{"localId":["x"]}"#)["users"] == nil)
        }
    }
}

/// Calls the project-scoped admin routes as an Admin SDK does: `Bearer owner`, no API key.
struct AdminClient: Sendable {
    var client: FirebaseTestClient

    init(_ client: FirebaseTestClient) {
        var keyless = client
        keyless.apiKey = nil
        self.client = keyless
    }

    func post(_ path: String, _ json: String) async throws -> WireResult {
        try await client.raw(AdminAccountsTests.project + path, method: .post, body: Data(json.utf8), headers: AdminAccountsTests.owner)
    }

    func get(_ path: String) async throws -> WireResult {
        try await client.raw(AdminAccountsTests.project + path, method: .get, headers: [.authorization: "Bearer owner"])
    }
}
