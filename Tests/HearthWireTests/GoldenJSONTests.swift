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

    @Test("passkeys: the options in WebAuthn's JSON form; the authenticator's answer as toJSON() or Google's REST form, one value")
    func passkeys() throws {
        try Self.roundTrip(
            StartPasskeyEnrollmentResponse(
                credentialCreationOptions: PublicKeyCredentialCreationOptionsJSON(
                    rp: .init(id: "localhost", name: "Hearth"), user: .init(id: "dTE", name: "ada@example.com", displayName: "Ada"),
                    challenge: "Y2g", pubKeyCredParams: [.init(alg: -7)], timeout: 300000, excludeCredentials: [.init(id: "Y3I")],
                    authenticatorSelection: .init(residentKey: "preferred", requireResidentKey: false, userVerification: "preferred"),
                    attestation: "none")),
            #"{"credentialCreationOptions":{"attestation":"none","authenticatorSelection":{"requireResidentKey":false,"residentKey":"preferred","userVerification":"preferred"},"challenge":"Y2g","excludeCredentials":[{"id":"Y3I","type":"public-key"}],"pubKeyCredParams":[{"alg":-7,"type":"public-key"}],"rp":{"id":"localhost","name":"Hearth"},"timeout":300000,"user":{"displayName":"Ada","id":"dTE","name":"ada@example.com"}}}"#
        )
        try Self.roundTrip(
            StartPasskeySignInResponse(
                credentialRequestOptions: PublicKeyCredentialRequestOptionsJSON(
                    challenge: "Y2g", timeout: 300000, rpId: "localhost", allowCredentials: [], userVerification: "required")),
            #"{"credentialRequestOptions":{"allowCredentials":[],"challenge":"Y2g","rpId":"localhost","timeout":300000,"userVerification":"required"}}"#
        )
        let registration = AuthenticatorRegistrationResponse(
            id: "Y3I", response: .init(clientDataJSON: "e30", attestationObject: "oA", transports: ["internal"]))
        try Self.roundTrip(
            registration,
            #"{"id":"Y3I","rawId":"Y3I","response":{"attestationObject":"oA","clientDataJSON":"e30","transports":["internal"]},"type":"public-key"}"#)
        var google = try Self.decoded(
            AuthenticatorRegistrationResponse.self,
            #"{"credentialId":"Y3I","credentialType":"public-key","authenticatorAttestationResponse":{"clientDataJson":"e30","attestationObject":"oA","transports":["internal"]}}"#
        )
        #expect(google.rawId == nil)
        google.rawId = google.id
        #expect(google == registration)
        let assertion = AuthenticatorAuthenticationResponse(
            id: "Y3I", response: .init(clientDataJSON: "e30", authenticatorData: "YWQ", signature: "c2c", userHandle: "dTE"))
        try Self.roundTrip(
            assertion,
            #"{"id":"Y3I","rawId":"Y3I","response":{"authenticatorData":"YWQ","clientDataJSON":"e30","signature":"c2c","userHandle":"dTE"},"type":"public-key"}"#
        )
        var googleAssertion = try Self.decoded(
            AuthenticatorAuthenticationResponse.self,
            #"{"credentialId":"Y3I","credentialType":"public-key","authenticatorAssertionResponse":{"clientDataJson":"e30","authenticatorData":"YWQ","signature":"c2c","userHandle":"dTE"}}"#
        )
        googleAssertion.rawId = googleAssertion.id
        #expect(googleAssertion == assertion)
        let update = try Self.decoded(UpdateRequest.self, #"{"idToken":"t","deletePasskey":["Y3I"]}"#)
        #expect(update.deletePasskey == ["Y3I"])
        var user = UserInfo(localId: "u1")
        user.passkeyInfo = [PasskeyInfo(credentialId: "Y3I", name: "Laptop")]
        try Self.roundTrip(user, #"{"localId":"u1","passkeyInfo":[{"credentialId":"Y3I","name":"Laptop"}]}"#)
    }
}
