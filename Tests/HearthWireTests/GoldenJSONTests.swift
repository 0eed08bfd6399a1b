import Foundation
import HearthWire
import Testing

/// The wire types against JSON as Identity Toolkit and Secure Token write it: each golden document decodes to
/// the expected value and that value encodes back to the same document (keys sorted, as both sides compare).
@Suite("Wire types: golden JSON")
struct GoldenJSONTests {
    static func encoded(_ value: some Encodable) throws -> String {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
        return String(decoding: try encoder.encode(value), as: UTF8.self)
    }

    static func decoded<T: Decodable>(_ type: T.Type, _ json: String) throws -> T {
        try JSONDecoder().decode(type, from: Data(json.utf8))
    }

    /// `json` (already in sorted-key form) decodes to `value` and `value` encodes to `json`.
    static func roundTrip<T: Codable & Equatable>(_ value: T, _ json: String) throws {
        #expect(try decoded(T.self, json) == value)
        #expect(try encoded(value) == json)
    }

    @Test("the error envelope: a business error has no status; a status error has one; the Firebase code is the part before \" : \"")
    func errorEnvelope() throws {
        try Self.roundTrip(
            WireErrorResponse(code: 400, message: "EMAIL_EXISTS"),
            #"{"error":{"code":400,"errors":[{"domain":"global","message":"EMAIL_EXISTS","reason":"invalid"}],"message":"EMAIL_EXISTS"}}"#)
        try Self.roundTrip(
            WireErrorResponse(code: 403, message: "The request is missing a valid API key.", reason: "forbidden", status: "PERMISSION_DENIED"),
            #"{"error":{"code":403,"errors":[{"domain":"global","message":"The request is missing a valid API key.","reason":"forbidden"}],"message":"The request is missing a valid API key.","status":"PERMISSION_DENIED"}}"#
        )
        let weak = WireErrorResponse(code: 400, message: "WEAK_PASSWORD : Password should be at least 6 characters")
        #expect(weak.firebaseCode == "WEAK_PASSWORD")
        #expect(WireErrorResponse(code: 400, message: "USER_NOT_FOUND").firebaseCode == "USER_NOT_FOUND")
        // A captured production answer with fields Hearth never writes still decodes.
        let production = try Self.decoded(
            WireErrorResponse.self,
            #"{"error":{"code":400,"message":"INVALID_ID_TOKEN","errors":[{"message":"INVALID_ID_TOKEN","domain":"global","reason":"invalid","location":"idToken","locationType":"parameter"}]}}"#
        )
        #expect(production.error.errors.first?.location == "idToken" && production.error.status == nil)
    }

    @Test("Secure Token's answer is snake_case, access_token the ID token")
    func token() throws {
        try Self.roundTrip(
            TokenResponse(idToken: "eyJ.id.token", expiresIn: "3600", refreshToken: "AMf-refresh", userId: "u1", projectId: "demo-hearth"),
            #"{"access_token":"eyJ.id.token","expires_in":"3600","id_token":"eyJ.id.token","project_id":"demo-hearth","refresh_token":"AMf-refresh","token_type":"Bearer","user_id":"u1"}"#
        )
    }

    @Test("sign-up: the request's optional fields stay out, the answer carries its kind")
    func signUp() throws {
        try Self.roundTrip(
            SignUpRequest(email: "ada@example.com", password: "analytical"),
            #"{"email":"ada@example.com","password":"analytical","returnSecureToken":true}"#)
        try Self.roundTrip(
            SignUpResponse(localId: "u1", email: "ada@example.com", displayName: nil, idToken: "t", refreshToken: "r", expiresIn: "3600"),
            #"{"email":"ada@example.com","expiresIn":"3600","idToken":"t","kind":"identitytoolkit#SignupNewUserResponse","localId":"u1","refreshToken":"r"}"#
        )
    }

    @Test("accounts:query: int64 as a string or a number, enums by name or number; the answer's count as a string")
    func query() throws {
        var request = QueryRequest(returnUserInfo: true, limit: 10, offset: 20, expression: [QueryExpression(email: "ada@example.com")])
        request.sortBy = "CREATED_AT"
        request.order = "DESC"
        try Self.roundTrip(
            request,
            #"{"expression":[{"email":"ada@example.com"}],"limit":"10","offset":"20","order":"DESC","returnUserInfo":true,"sortBy":"CREATED_AT"}"#)
        // proto3 JSON also accepts numbers for int64 and enums.
        let numeric = try Self.decoded(
            QueryRequest.self, #"{"expression":[{"email":"ada@example.com"}],"limit":10,"offset":20,"order":2,"returnUserInfo":true,"sortBy":3}"#)
        #expect(numeric == request)
        #expect(throws: DecodingError.self) { try Self.decoded(QueryRequest.self, #"{"sortBy":"AGE"}"#) }
        #expect(throws: DecodingError.self) { try Self.decoded(QueryRequest.self, #"{"limit":"ten"}"#) }
        try Self.roundTrip(QueryResponse(recordsCount: 2, userInfo: nil), #"{"recordsCount":"2"}"#)
    }

    @Test("accounts:batchGet: the download kind, users and the next page's token")
    func batchGet() throws {
        try Self.roundTrip(
            BatchGetResponse(users: nil, nextPageToken: "u9"), #"{"kind":"identitytoolkit#DownloadAccountResponse","nextPageToken":"u9"}"#)
        let request = try Self.decoded(DownloadAccountRequest.self, #"{"maxResults":1000,"nextPageToken":"u9","targetProjectId":"p"}"#)
        #expect(request.maxResults == 1000 && request.nextPageToken == "u9" && request.targetProjectId == "p")
    }
}
