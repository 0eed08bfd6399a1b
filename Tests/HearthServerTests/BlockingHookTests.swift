import Crypto
import Foundation
import HTTPTypes
import HearthCore
import HearthServer
import HearthTesting
import HearthWire
import Hummingbird
import JWTKit
import Testing

/// Blocking functions: a real hook server on loopback, asked before an account is made and before a sign-in's tokens;
/// a well-behaved one, one that refuses, a slow one, and malicious ones.
@Suite("Blocking hooks")
struct BlockingHookTests {
    static let admin: HTTPFields = [.authorization: "Bearer owner", .contentType: "application/json"]

    /// What the hook server received: each event's JWT, by path.
    final class Received: Sendable {
        let events = LockedBox<[(path: String, jwt: String)]>([])
        func add(_ path: String, _ jwt: String) { events.withLock { $0.append((path, jwt)) } }
        var all: [(path: String, jwt: String)] { events.withLock { $0 } }
    }

    /// The hook server: each path answers as its name says.
    static func hookRoutes(_ received: Received) -> (Router<BasicRequestContext>) -> Void {
        { router in
            @Sendable func json(_ text: String, status: HTTPResponse.Status = .ok) -> Response {
                Response(status: status, headers: [.contentType: "application/json"], body: .init(byteBuffer: ByteBuffer(string: text)))
            }
            for path in ["enrich", "refuse", "slow", "huge", "redirect", "reserved", "disable", "garbage", "block", "allow"] {
                router.post(RouterPath(path)) { request, _ -> Response in
                    let body = try await request.body.collect(upTo: 1 << 20)
                    if case .object(let data)? = JSONValue.object(fromJSON: String(buffer: body))?["data"], case .string(let jwt)? = data["jwt"] {
                        received.add(path, jwt)
                    }
                    switch path {
                    case "enrich":
                        return json(
                            #"{"userRecord":{"updateMask":"displayName,customClaims,sessionClaims","displayName":"From the hook","customClaims":{"role":"staff"},"sessionClaims":{"session":"yes"}}}"#
                        )
                    case "refuse":
                        return json(
                            #"{"error":{"status":"PERMISSION_DENIED","message":"Only example.org addresses may sign up.\u0000\u001b[31m"}}"#,
                            status: .badRequest)
                    case "slow":
                        try await Task.sleep(for: .seconds(9))
                        return json("{}")
                    case "huge": return json(#"{"userRecord":{"displayName":""# + String(repeating: "x", count: 200_000) + #""}}"#)
                    case "redirect": return Response(status: .found, headers: [.location: "/enrich"])
                    case "reserved": return json(#"{"userRecord":{"updateMask":"customClaims","customClaims":{"firebase":{"tenant":"x"}}}}"#)
                    case "disable": return json(#"{"userRecord":{"updateMask":"disabled","disabled":true}}"#)
                    case "block": return json(#"{"recaptchaActionOverride":"BLOCK"}"#)
                    case "allow": return json("{}")
                    default: return json("not json at all")
                    }
                }
            }
        }
    }

    static func setHooks(_ client: FirebaseTestClient, path: String = "/v2/projects/demo-hearth/config", beforeCreate: String?, beforeSignIn: String?)
        async throws -> WireResult
    {
        var triggers: [String] = []
        if let beforeCreate { triggers.append(#""beforeCreate":{"functionUri":"\#(beforeCreate)"}"#) }
        if let beforeSignIn { triggers.append(#""beforeSignIn":{"functionUri":"\#(beforeSignIn)"}"#) }
        let body = #"{"blockingFunctions":{"triggers":{\#(triggers.joined(separator: ","))},"forwardInboundCredentials":{"idToken":true}}}"#
        return try await client.raw(path + "?updateMask=blockingFunctions", method: .patch, body: Data(body.utf8), headers: admin)
    }

    static func signUp(_ client: FirebaseTestClient, _ email: String) async throws -> WireResult {
        try await client.post(
            "/v1/accounts:signUp", ["email": .string(email), "password": .string("correct horse"), "returnSecureToken": .bool(true)])
    }

    @Test("beforeCreate and beforeSignIn change the new account and the token; the event is signed by Hearth's keys and says who")
    func enrich() async throws {
        let received = Received()
        try await withLoopbackRouter(Self.hookRoutes(received)) { hooks in
            try await withHearth { hearth, client async throws in
                var admin = client
                admin.apiKey = nil
                let set = try await Self.setHooks(admin, beforeCreate: "\(hooks)/enrich", beforeSignIn: "\(hooks)/enrich")
                #expect(set.status == .ok, "\(set.text)")
                #expect(try set.decode(ProjectConfig.self).blockingFunctions?.triggers?["beforeSignIn"]?.functionUri == "\(hooks)/enrich")

                let signedUp = try await Self.signUp(client, "ada@example.com")
                #expect(signedUp.status == .ok, "\(signedUp.text)")
                let idToken = try #require(signedUp.string("idToken"))
                let claims = jwtClaims(idToken)
                #expect(claims["name"] == .string("From the hook"))
                #expect(claims["role"] == .string("staff") && claims["session"] == .string("yes"))
                let uid = try #require(signedUp.string("localId"))
                let user = try #require(try await hearth.services.store.user(uid: uid))
                #expect(user.displayName == "From the hook" && user.customAttributes == #"{"role":"staff"}"#)
                // Session claims are the session's, not the account's: a refresh keeps them, the account has none.
                let refreshed = try await client.refresh(try #require(signedUp.string("refreshToken")))
                #expect(jwtClaims(try #require(refreshed.string("id_token")))["session"] == .string("yes"))

                // Both hooks were asked about the new account, in order; a sign-in asks beforeSignIn alone.
                #expect(received.all.map(\.path) == ["enrich", "enrich"])
                let signedIn = try await client.signIn(email: "ada@example.com")
                #expect(signedIn.status == .ok)
                #expect(received.all.count == 3)
                let events = received.all.map { jwtClaims($0.jwt) }
                #expect(
                    events.map { $0["event_type"] } == [
                        .string("providers/cloud.auth/eventTypes/user.beforeCreate:password"),
                        .string("providers/cloud.auth/eventTypes/user.beforeSignIn:password"),
                        .string("providers/cloud.auth/eventTypes/user.beforeSignIn:password"),
                    ])
                let first = events[0]
                #expect(first["aud"] == .string("\(hooks)/enrich") && first["iss"] == .string("https://securetoken.google.com/demo-hearth"))
                #expect(first["sign_in_method"] == .string("password") && first["auth_type"] == .string("USER"))
                #expect(first["user_record"]?.objectValue?["email"] == .string("ada@example.com"))
                #expect(first["user_record"]?.objectValue?["password_hash"] == nil)

                // Signed by the key Hearth publishes for ID tokens.
                let jwks = try await client.raw("/.well-known/jwks.json", method: .get)
                let keys = try await JWTKeyCollection().add(jwks: try JSONDecoder().decode(JWKS.self, from: jwks.body))
                struct Event: JWTPayload {
                    var aud: String
                    func verify(using algorithm: some JWTAlgorithm) throws {}
                }
                let verified = try await keys.verify(received.all[0].jwt, as: Event.self)
                #expect(verified.aud == "\(hooks)/enrich")

                // Anonymous sign-ups never ask the hooks.
                #expect(try await client.signUpAnonymously().idToken != nil)
                #expect(received.all.count == 3)
            }
        }
    }

    @Test("a hook that refuses, is slow, answers too much, redirects, sets reserved claims or answers garbage blocks the sign-up")
    func refusals() async throws {
        let received = Received()
        try await withLoopbackRouter(Self.hookRoutes(received)) { hooks in
            try await withHearth { hearth, client async throws in
                var admin = client
                admin.apiKey = nil
                let cases: [(String, String)] = [
                    (
                        "refuse",
                        "BLOCKING_FUNCTION_ERROR_RESPONSE : ((HTTP request to \(hooks)/refuse returned HTTP error 400: Only example.org addresses may sign up.[31m))"
                    ),
                    ("huge", "BLOCKING_FUNCTION_ERROR_RESPONSE : ((The blocking function's answer is larger than 64 KiB.))"),
                    ("redirect", "BLOCKING_FUNCTION_ERROR_RESPONSE : ((HTTP request to \(hooks)/redirect returned HTTP error 302: ))"),
                    ("reserved", "BLOCKING_FUNCTION_ERROR_RESPONSE : ((The blocking function's claims name the reserved claim firebase.))"),
                    ("garbage", "BLOCKING_FUNCTION_ERROR_RESPONSE : ((The blocking function's answer is not a blocking function's answer.))"),
                    ("slow", "BLOCKING_FUNCTION_ERROR_RESPONSE : ((The blocking function did not answer within 7 seconds.))"),
                ]
                for (index, (path, message)) in cases.enumerated() {
                    let set = try await Self.setHooks(admin, beforeCreate: "\(hooks)/\(path)", beforeSignIn: nil)
                    #expect(set.status == .ok, "\(set.text)")
                    let refused = try await Self.signUp(client, "user\(index)@example.com")
                    #expect(refused.errorMessage == message, "\(path)")
                    #expect(refused.status == .badRequest, "\(path): \(refused.text)")
                    // Nothing was written.
                    #expect(try await hearth.services.store.user(email: "user\(index)@example.com") == nil, "\(path)")
                }
                // The redirect was not followed: the hook behind it was never asked.
                #expect(!received.all.contains { $0.path == "enrich" })
            }
        }
    }

    @Test("a hook that disables the account: kept disabled, nobody signed in; an existing account's sign-in is refused as disabled")
    func disable() async throws {
        let received = Received()
        try await withLoopbackRouter(Self.hookRoutes(received)) { hooks in
            try await withHearth { hearth, client async throws in
                var admin = client
                admin.apiKey = nil
                #expect(try await Self.signUp(client, "old@example.com").status == .ok)
                _ = try await Self.setHooks(admin, beforeCreate: nil, beforeSignIn: "\(hooks)/disable")
                let refused = try await Self.signUp(client, "new@example.com")
                #expect(refused.errorMessage == "USER_DISABLED")
                #expect(try await hearth.services.store.user(email: "new@example.com")?.disabled == true)
                #expect(try await client.signIn(email: "old@example.com").errorMessage == "USER_DISABLED")
                #expect(try await hearth.services.store.user(email: "old@example.com")?.disabled == true)
            }
        }
    }

    @Test("hook URIs: HTTPS only (http to loopback in development), no credentials in them, no unknown trigger: INVALID_CONFIG")
    func configuration() async throws {
        try await withHearth { _, client async throws in
            var admin = client
            admin.apiKey = nil
            for uri in ["ftp://hooks.example.com/x", "http://hooks.example.com/x", "https://user:pw@hooks.example.com/x", "https:///x", "not a url"] {
                let refused = try await Self.setHooks(admin, beforeCreate: uri, beforeSignIn: nil)
                #expect(
                    refused.errorMessage
                        == "INVALID_CONFIG : blockingFunctions.triggers.beforeCreate.functionUri must be an https URL (or http to localhost).",
                    "\(uri)")
            }
            let unknown = try await admin.raw(
                "/v2/projects/demo-hearth/config?updateMask=blockingFunctions", method: .patch,
                body: Data(#"{"blockingFunctions":{"triggers":{"beforeDelete":{"functionUri":"https://h.example.com"}}}}"#.utf8), headers: Self.admin)
            #expect(
                unknown.errorMessage
                    == "INVALID_CONFIG : blockingFunctions.triggers takes beforeCreate, beforeSignIn, beforeSendEmail, beforeSendSms.")
            #expect(try await Self.setHooks(admin, beforeCreate: "https://hooks.example.com/x", beforeSignIn: nil).status == .ok)
        }
        // Outside development mode http is refused even to loopback.
        #expect(!BlockingHookSettings.isAllowedURI("http://127.0.0.1:9/x", development: false))
        #expect(BlockingHookSettings.isAllowedURI("http://127.0.0.1:9/x", development: true))
    }

    @Test("a tenant's users are asked about by the project's hooks, unless the tenant sets its own; the event names the tenant")
    func tenants() async throws {
        let received = Received()
        try await withLoopbackRouter(Self.hookRoutes(received)) { hooks in
            try await withHearth { _, client async throws in
                var admin = client
                admin.apiKey = nil
                let made = try await admin.raw(
                    "/v2/projects/demo-hearth/tenants", method: .post, body: Data(#"{"displayName":"Acme","allowPasswordSignup":true}"#.utf8),
                    headers: Self.admin)
                let tenant = try #require(try made.decode(TenantResource.self).tenantId)
                _ = try await Self.setHooks(admin, beforeCreate: "\(hooks)/enrich", beforeSignIn: nil)
                let inTenant = try await client.post(
                    "/v1/accounts:signUp",
                    [
                        "email": .string("ada@example.com"), "password": .string("correct horse"), "tenantId": .string(tenant),
                        "returnSecureToken": .bool(true),
                    ])
                #expect(inTenant.status == .ok, "\(inTenant.text)")
                #expect(jwtClaims(try #require(received.all.last?.jwt))["tenant_id"] == .string(tenant))
                // The tenant's own hook takes over for its users.
                let set = try await Self.setHooks(
                    admin, path: "/v2/projects/demo-hearth/tenants/\(tenant)/config", beforeCreate: "\(hooks)/refuse", beforeSignIn: nil)
                #expect(set.status == .ok, "\(set.text)")
                let refused = try await client.post(
                    "/v1/accounts:signUp",
                    [
                        "email": .string("bob@example.com"), "password": .string("correct horse"), "tenantId": .string(tenant),
                        "returnSecureToken": .bool(true),
                    ])
                #expect(refused.errorMessage?.hasPrefix("BLOCKING_FUNCTION_ERROR_RESPONSE") == true, "\(refused.text)")
                #expect(try await Self.signUp(client, "project@example.com").status == .ok)
            }
        }
    }

    @Test("beforeSendEmail and beforeSendSms: told the recipient and the message's type; a refusal or a BLOCK stops the message")
    func messages() async throws {
        let received = Received()
        try await withLoopbackRouter(Self.hookRoutes(received)) { hooks in
            try await withLiveHearth { live in
                let client = FirebaseTestClient(baseURL: live.baseURL)
                var admin = client
                admin.apiKey = nil
                #expect(try await Self.signUp(client, "ada@example.com").status == .ok)
                func set(email: String, sms: String) async throws {
                    let body =
                        #"{"blockingFunctions":{"triggers":{"beforeSendEmail":{"functionUri":"\#(hooks)/\#(email)"},"beforeSendSms":{"functionUri":"\#(hooks)/\#(sms)"}}}}"#
                    let set = try await admin.raw(
                        "/v2/projects/\(live.projectID)/config?updateMask=blockingFunctions", method: .patch, body: Data(body.utf8),
                        headers: Self.admin)
                    #expect(set.status == .ok, "\(set.text)")
                }
                func reset() async throws -> WireResult {
                    try await client.post(
                        "/v1/accounts:sendOobCode", ["requestType": .string("PASSWORD_RESET"), "email": .string("ada@example.com")])
                }
                func text(_ number: String) async throws -> WireResult {
                    try await client.post("/v1/accounts:sendVerificationCode", ["phoneNumber": .string(number)])
                }
                try await set(email: "allow", sms: "allow")
                #expect(try await reset().status == .ok)
                #expect(try await text("+447700900123").status == .ok)
                let events = received.all.map { jwtClaims($0.jwt) }
                #expect(events.count == 2)
                #expect(events.first?["event_type"] == .string("providers/cloud.auth/eventTypes/user.beforeSendEmail"))
                #expect(events.first?["email"] == .string("ada@example.com") && events.first?["email_type"] == .string("PASSWORD_RESET"))
                #expect(events.last?["event_type"] == .string("providers/cloud.auth/eventTypes/user.beforeSendSms"))
                #expect(events.last?["phone_number"] == .string("+447700900123") && events.last?["sms_type"] == .string("SIGN_IN_OR_SIGN_UP"))

                try await set(email: "refuse", sms: "block")
                #expect(
                    try await reset().errorMessage
                        == "BLOCKING_FUNCTION_ERROR_RESPONSE : ((HTTP request to \(hooks)/refuse returned HTTP error 400: Only example.org addresses may sign up.[31m))"
                )
                #expect(
                    try await text("+447700900124").errorMessage
                        == "BLOCKING_FUNCTION_ERROR_RESPONSE : ((The blocking function stopped the message.))")
                let sent = try await client.raw("/emulator/v1/projects/\(live.projectID)/verificationCodes", method: .get).text
                #expect(sent.contains("+447700900123") && !sent.contains("+447700900124"))
            }
        }
    }
}
