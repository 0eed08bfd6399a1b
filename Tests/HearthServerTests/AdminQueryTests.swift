import Foundation
import HTTPTypes
import HearthWire
import Testing

/// `accounts:query` (and `:queryAccounts`) and `accounts:batchGet` (and `downloadAccount`) as the Admin API
/// serves them: sorted and paged by the store, on every path Firebase has for them, with its errors.
@Suite("Admin API: accounts:query and batchGet")
struct AdminQueryTests {
    /// Five users with every sort key set, some missing: imported with their times.
    static let users = """
        {"users":[
          {"localId":"c","displayName":"Carol","email":"carol@example.com","createdAt":"3000","lastLoginAt":"9000"},
          {"localId":"a","displayName":"ada","email":"zed@example.com","createdAt":"5000"},
          {"localId":"e","email":"bob@example.com","createdAt":"1000","lastLoginAt":"7000"},
          {"localId":"b","displayName":"Bea","createdAt":"4000","lastLoginAt":"8000"},
          {"localId":"d","displayName":"Ada","email":"ann@example.com","createdAt":"2000","lastLoginAt":"6000"}
        ]}
        """

    static func uids(_ result: WireResult) throws -> [String] {
        try result.decode(QueryResponse.self).userInfo?.map(\.localId) ?? []
    }

    @Test("sorts by each key in both directions (a missing value first ascending), pages by offset and limit, on every path")
    func sorts() async throws {
        try await withHearth { _, client async throws in
            let admin = AdminClient(client)
            #expect(try await admin.post("/accounts:batchCreate", Self.users).status == .ok)
            let orders: [(String, [String])] = [
                ("USER_ID", ["a", "b", "c", "d", "e"]),
                ("CREATED_AT", ["e", "d", "c", "b", "a"]),
                // Byte order: upper case before lower case; no name first.
                ("NAME", ["e", "d", "b", "c", "a"]),
                ("LAST_LOGIN_AT", ["a", "d", "e", "b", "c"]),
                ("USER_EMAIL", ["b", "d", "e", "c", "a"]),
            ]
            for (sortBy, ascending) in orders {
                let up = try await admin.post("/accounts:query", #"{"sortBy":"\#(sortBy)"}"#)
                #expect(try Self.uids(up) == ascending, "\(sortBy)")
                #expect(try up.decode(QueryResponse.self).recordsCount == 5)
                let down = try await admin.post("/accounts:query", #"{"sortBy":"\#(sortBy)","order":"DESC","offset":"1","limit":2}"#)
                #expect(try Self.uids(down) == Array(Array(ascending.reversed())[1...2]), "\(sortBy) DESC")
                #expect(try down.decode(QueryResponse.self).recordsCount == 2)
            }
            // The other name, and the path without the project.
            let other = try await admin.client.raw(
                AdminAccountsTests.project + ":queryAccounts", method: .post, body: Data(#"{"sortBy":"CREATED_AT","limit":"1"}"#.utf8),
                headers: AdminAccountsTests.owner)
            #expect(try Self.uids(other) == ["e"])
            let bare = try await admin.client.raw(
                "/v1/accounts:query", method: .post, body: Data(#"{"sortBy":"USER_EMAIL","order":"DESC"}"#.utf8), headers: AdminAccountsTests.owner)
            #expect(try Self.uids(bare) == ["a", "c", "e", "d", "b"])
            let elsewhere = try await admin.client.raw(
                "/v1/projects/another:queryAccounts", method: .post, body: Data("{}".utf8), headers: AdminAccountsTests.owner)
            #expect(elsewhere.errorMessage == "PROJECT_NOT_FOUND")

            // The count alone; the first expression alone, its first field, an e-mail without regard to case.
            let count = try await admin.post("/accounts:query", #"{"returnUserInfo":false,"limit":1}"#).decode(QueryResponse.self)
            #expect(count.recordsCount == 5 && count.userInfo == nil)
            let one = try await admin.post("/accounts:query", #"{"expression":[{"email":"ANN@example.com","userId":"a"},{"userId":"b"}]}"#)
            #expect(try Self.uids(one) == ["d"])
            let counted = try await admin.post("/accounts:query", #"{"returnUserInfo":false,"expression":[{"userId":"zz"}]}"#)
            #expect(try counted.decode(QueryResponse.self).recordsCount == 0)
            let none = try await admin.post("/accounts:query", #"{"expression":[{"userId":"a"}],"offset":"1"}"#)
            #expect(none.status == .ok && none["userInfo"] == nil && none.string("recordsCount") == "0")
        }
    }

    @Test("bad input: each error with Identity Toolkit's exact message")
    func errors() async throws {
        try await withHearth { _, client async throws in
            let admin = AdminClient(client)
            let cases: [(String, String)] = [
                (#"{"limit":501}"#, "Invalid JSON payload received. limit must be between 0 and 500"),
                (#"{"limit":"-1"}"#, "Invalid JSON payload received. limit must be between 0 and 500"),
                (#"{"offset":-1}"#, "Invalid JSON payload received. offset must be between 0 and 2147483647"),
                (#"{"sortBy":"AGE"}"#, "Invalid JSON payload received. /sortBy is invalid"),
                (#"{"order":"SIDEWAYS"}"#, "Invalid JSON payload received. /order is invalid"),
                (#"{"limit":"many"}"#, "Invalid JSON payload received. /limit must be number"),
                (#"{"targetProjectId":"another"}"#, "PROJECT_NOT_FOUND"),
            ]
            for (body, message) in cases {
                let result = try await admin.post("/accounts:query", body)
                #expect(result.errorMessage == message, "\(body): \(String(decoding: result.body, as: UTF8.self))")
                #expect(result.status != .ok)
            }
            // An app (an API key, no administrator's credential) may not query.
            let app = try await client.raw("/v1/accounts:query", method: .post, body: Data("{}".utf8), headers: [.contentType: "application/json"])
            #expect(app.status == .unauthorized || app.status == .forbidden || app.status == .badRequest)
            #expect(app["userInfo"] == nil && app["recordsCount"] == nil)
        }
    }

    @Test("batchGet on the project path and the bare one, downloadAccount with a body: the same pages; GET only")
    func batchGet() async throws {
        try await withHearth { _, client async throws in
            let admin = AdminClient(client)
            #expect(try await admin.post("/accounts:batchCreate", Self.users).status == .ok)
            let scoped = try await admin.get("/accounts:batchGet?maxResults=2&nextPageToken=b").decode(BatchGetResponse.self)
            #expect(scoped.users?.map(\.localId) == ["c", "d"] && scoped.nextPageToken == "d")
            let bare = try await admin.client.raw(
                "/v1/accounts:batchGet?maxResults=2&nextPageToken=b", method: .get, headers: [.authorization: "Bearer owner"])
            #expect(try bare.decode(BatchGetResponse.self) == scoped)
            let legacy = try await admin.client.raw(
                "/identitytoolkit/v3/relyingparty/downloadAccount", method: .post,
                body: Data(#"{"targetProjectId":"demo-hearth","maxResults":2,"nextPageToken":"b"}"#.utf8), headers: AdminAccountsTests.owner)
            #expect(try legacy.decode(BatchGetResponse.self) == scoped)
            // The last page is not full: no token.
            let last = try await admin.get("/accounts:batchGet?maxResults=20").decode(BatchGetResponse.self)
            #expect(last.users?.map(\.localId) == ["a", "b", "c", "d", "e"] && last.nextPageToken == nil)
            #expect(
                try await admin.get("/accounts:batchGet?maxResults=many").errorMessage
                    == "Invalid JSON payload received. maxResults must be an integer")
            // Firebase serves batchGet as GET only (its body must be empty).
            #expect(try await admin.post("/accounts:batchGet", "{}").status != .ok)
        }
    }
}
