import Foundation
import HTTPTypes
import HearthCore
import HearthServer
import HearthWire
import Testing

/// The admin API under abuse: batches at the body limit and over the count limit, NUL characters in every text
/// field, and parallel requests racing the same uid, e-mail or user. Every answer is a 200 or Google's error
/// envelope with Firebase's message, the same on SQLite and PostgreSQL.
@Suite("Admin API: abuse")
struct AdminAbuseTests {
    /// `count` users of about `bytes` bytes each, for `accounts:batchCreate`.
    static func users(_ count: Int, prefix: String, photoPadding: Int) -> [JSONValue] {
        (0..<count).map { index in
            .object([
                "localId": .string("\(prefix)-\(index)"), "email": .string("\(prefix)-\(index)@example.com"),
                "displayName": .string(String(repeating: "d", count: 200)),
                "photoUrl": .string("https://example.com/" + String(repeating: "p", count: photoPadding)),
                "customAttributes": .string(#"{"role":"editor"}"#),
                // 32 bytes: an HMAC_SHA256 hash.
                "passwordHash": .string("AAECAwQFBgcICQoLDA0ODxAREhMUFRYXGBkaGxwdHh8="), "salt": .string("c2FsdA=="),
            ])
        }
    }

    static func batch(_ users: [JSONValue]) -> String {
        JSONValue.object(["users": .array(users), "hashAlgorithm": .string("HMAC_SHA256"), "signerKey": .string("a2V5")]).jsonText
    }

    @Test("batchCreate: 1000 users just under the 1 MiB body limit are all imported; over it 413; 1001 users refused")
    func batchAtTheLimits() async throws {
        try await withHearth { hearth, client async throws in
            let admin = AdminClient(client)
            var padding = 400
            while Self.batch(Self.users(1000, prefix: "near", photoPadding: padding + 1)).utf8.count <= 1_048_576 { padding += 1 }
            let near = Self.batch(Self.users(1000, prefix: "near", photoPadding: padding))
            #expect(near.utf8.count > 1_040_000)
            let imported = try await admin.post("/accounts:batchCreate", near)
            #expect(imported.status == .ok && imported["error"] == nil, "\(imported.text.prefix(300))")
            #expect(try await hearth.services.store.countUsers() == 1000)

            let over = try await admin.post("/accounts:batchCreate", Self.batch(Self.users(1000, prefix: "over", photoPadding: padding + 1)))
            #expect(over.status == .contentTooLarge)
            #expect(over.errorMessage == "Request payload size exceeds the limit: 1048576 bytes.")

            let tooMany = try await admin.post("/accounts:batchCreate", Self.batch(Self.users(1001, prefix: "many", photoPadding: 0)))
            #expect(tooMany.status == .badRequest)
            #expect(tooMany.errorMessage == "EXCEED_MAX_USER_COUNT")
            #expect(try await hearth.services.store.countUsers() == 1000)
        }
    }

    @Test("batchCreate: a NUL in any text field of a user is that user's error, by index; the others are imported")
    func nulInImportedUsers() async throws {
        try await withHearth { hearth, client async throws in
            let admin = AdminClient(client)
            let result = try await admin.post(
                "/accounts:batchCreate",
                #"""
                {"hashAlgorithm":"HMAC_SHA256","signerKey":"a2V5","users":[
                  {"localId":"n\u0000ul"},
                  {"localId":"nul-1","email":"n\u0000ul@example.com"},
                  {"localId":"nul-2","displayName":"a\u0000b"},
                  {"localId":"nul-3","photoUrl":"https://example.com/\u0000"},
                  {"localId":"nul-4","phoneNumber":"+1555\u00000100"},
                  {"localId":"nul-5","customAttributes":"{\"a\":\"\u0000\"}"},
                  {"localId":"nul-6","passwordHash":"YWJj\u0000"},
                  {"localId":"nul-7","providerUserInfo":[{"providerId":"google.com\u0000","rawId":"r\u0000"}]},
                  {"localId":"clean"}
                ]}
                """#)
            #expect(result.status == .ok, "\(result.text)")
            let errors = try result.decode(BatchCreateResponse.self).error ?? []
            #expect(
                errors == [
                    BatchCreateError(index: 0, message: "localId is invalid"),
                    BatchCreateError(index: 1, message: "email is invalid"),
                    BatchCreateError(index: 2, message: "display name is invalid"),
                    BatchCreateError(index: 3, message: "photo url is invalid"),
                    BatchCreateError(index: 4, message: "phone number format is invalid"),
                    BatchCreateError(index: 5, message: "Invalid custom claims provided."),
                    BatchCreateError(index: 6, message: "Invalid password hash for hash algorithm HMAC_SHA256."),
                    BatchCreateError(index: 7, message: "provider id or raw id is invalid"),
                ])
            #expect(try await hearth.services.store.countUsers() == 1)
        }
    }

    @Test("create and update: a NUL in any text field is Firebase's error for that field, never a 500")
    func nulInCreateAndUpdate() async throws {
        try await withHearth { _, client async throws in
            let admin = AdminClient(client)
            for (field, message) in [
                ("email", "INVALID_EMAIL"), ("displayName", "INVALID_DISPLAY_NAME"), ("photoUrl", "INVALID_PHOTO_URL"),
                ("phoneNumber", "INVALID_PHONE_NUMBER : Invalid format."),
            ] {
                let value = field == "photoUrl" ? #"https://example.com/\u0000"# : #"a\u0000b"#
                let created = try await admin.post("/accounts", #"{"\#(field)":"\#(value)"}"#)
                #expect(created.status == .badRequest && created.errorMessage == message, "create \(field): \(created.text)")
                _ = try await admin.post("/accounts", #"{"localId":"target"}"#)
                let updated = try await admin.post("/accounts:update", #"{"localId":"target","\#(field)":"\#(value)"}"#)
                #expect(updated.status == .badRequest && updated.errorMessage == message, "update \(field): \(updated.text)")
            }
            let claims = try await admin.post("/accounts:update", #"{"localId":"target","customAttributes":"{\"a\":\"\u0000\"}"}"#)
            #expect(claims.errorMessage == "INVALID_CLAIMS")
            let uid = try await admin.post("/accounts", #"{"localId":"a\u0000b"}"#)
            #expect(uid.errorMessage == "Invalid JSON payload received. localId must be a non-empty string of at most 128 printable characters.")
            #expect(uid.json["error"]?.jsonText.contains("INVALID_ARGUMENT") == true)
        }
    }

    @Test("a uid with a NUL matches nobody on both databases: lookup finds none, update and delete USER_NOT_FOUND, batchDelete skips it")
    func nulUIDsMatchNobody() async throws {
        try await withHearth { hearth, client async throws in
            let admin = AdminClient(client)
            _ = try await admin.post("/accounts", #"{"localId":"ada"}"#)
            let found = try await admin.post(
                "/accounts:lookup", #"{"localId":["ada\u0000"],"federatedUserId":[{"providerId":"google.com","rawId":"r\u0000"}]}"#)
            #expect(found.status == .ok && found["users"] == nil, "\(found.text)")
            #expect(try await admin.post("/accounts:update", #"{"localId":"ada\u0000","displayName":"x"}"#).errorMessage == "USER_NOT_FOUND")
            #expect(try await admin.post("/accounts:delete", #"{"localId":"ada\u0000"}"#).errorMessage == "USER_NOT_FOUND")
            let deleted = try await admin.post("/accounts:batchDelete", #"{"localIds":["ada\u0000"],"force":true}"#)
            #expect(deleted.status == .ok && deleted["errors"] == nil, "\(deleted.text)")
            let queried = try await admin.post("/accounts:query", #"{"expression":[{"userId":"ada\u0000"}]}"#)
            #expect(queried.status == .ok && queried.string("recordsCount") == "0", "\(queried.text)")
            #expect(try await hearth.services.store.countUsers() == 1)
        }
    }

    @Test("8 parallel creates of one uid: exactly one wins, the rest DUPLICATE_LOCAL_ID; of one e-mail: the rest EMAIL_EXISTS")
    func parallelCreates() async throws {
        try await withHearth { hearth, client async throws in
            let admin = AdminClient(client)
            for (body, loser) in [(#"{"localId":"same-uid"}"#, "DUPLICATE_LOCAL_ID"), (#"{"email":"same@example.com"}"#, "EMAIL_EXISTS")] {
                let results = try await withThrowingTaskGroup(of: WireResult.self) { group in
                    for _ in 0..<8 { group.addTask { try await admin.post("/accounts", body) } }
                    return try await group.reduce(into: [WireResult]()) { $0.append($1) }
                }
                #expect(results.filter { $0.status == .ok }.count == 1, "\(results.map(\.text))")
                #expect(results.filter { $0.status != .ok }.allSatisfy { $0.status == .badRequest && $0.errorMessage == loser })
            }
            #expect(try await hearth.services.store.countUsers() == 2)
        }
    }

    @Test("parallel batchDelete and update of one user: every answer is 200 or USER_NOT_FOUND, and the user stays deleted")
    func parallelDeleteAndUpdate() async throws {
        try await withHearth { hearth, client async throws in
            let admin = AdminClient(client)
            for round in 0..<5 {
                _ = try await admin.post("/accounts", #"{"localId":"race-\#(round)","email":"race-\#(round)@example.com"}"#)
                let results = try await withThrowingTaskGroup(of: WireResult.self) { group in
                    for index in 0..<8 {
                        group.addTask {
                            index.isMultiple(of: 2)
                                ? try await admin.post("/accounts:batchDelete", #"{"localIds":["race-\#(round)"],"force":true}"#)
                                : try await admin.post(
                                    "/accounts:update",
                                    #"{"localId":"race-\#(round)","displayName":"D","email":"moved-\#(round)-\#(index)@example.com","disableUser":true}"#
                                )
                        }
                    }
                    return try await group.reduce(into: [WireResult]()) { $0.append($1) }
                }
                #expect(results.allSatisfy { $0.status == .ok || $0.errorMessage == "USER_NOT_FOUND" }, "\(results.map(\.text))")
                #expect(try await admin.post("/accounts:lookup", #"{"localId":["race-\#(round)"]}"#)["users"] == nil)
            }
            #expect(try await hearth.services.store.countUsers() == 0)
        }
    }
}
