import Foundation
import HearthCore
import HearthTesting
import Testing

@testable import HearthAuth

#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// `auth.tenantID` against a live server: tenants made through the admin API, sign-ups and sign-ins inside them, the
/// tenant of the user and its tokens, and the mismatches FirebaseAuth reports.
@Suite("HearthAuth in tenants")
struct TenantTests {
    /// A tenant made through the admin API (`Bearer owner`, development mode) with password and anonymous sign-in on.
    static func makeTenant(_ live: LiveHearth, name: String) async throws -> String {
        let url = try #require(URL(string: "\(live.baseURL)/v2/projects/\(live.projectID)/tenants"))
        var request = URLRequest(url: url)
        request.httpMethod = "POST"
        request.setValue("Bearer owner", forHTTPHeaderField: "Authorization")
        request.setValue("application/json", forHTTPHeaderField: "Content-Type")
        request.httpBody = Data(#"{"displayName":"\#(name)","allowPasswordSignup":true,"enableAnonymousUser":true}"#.utf8)
        let (data, response) = try await URLSessionTransport().send(request)
        try #require(response.statusCode == 200, "\(String(decoding: data, as: UTF8.self))")
        let tenant = try JSONDecoder().decode([String: JSONValue].self, from: data)["tenantId"]
        guard case .string(let id)? = tenant else { throw HarnessError("no tenantId in \(String(decoding: data, as: UTF8.self))") }
        return id
    }

    /// An unsigned custom token (development mode takes them, as the emulator does), of `tenant` when given.
    static func customToken(uid: String, tenant: String?) -> String {
        func encode(_ object: [String: Any]) -> String {
            let data = try! JSONSerialization.data(withJSONObject: object, options: [.sortedKeys])
            return data.base64EncodedString().replacingOccurrences(of: "+", with: "-").replacingOccurrences(of: "/", with: "_")
                .replacingOccurrences(of: "=", with: "")
        }
        let now = Int(Date().timeIntervalSince1970)
        var payload: [String: Any] = [
            "aud": "https://identitytoolkit.googleapis.com/google.identity.identitytoolkit.v1.IdentityToolkit", "uid": uid,
            "iat": now, "exp": now + 3_600, "iss": "firebase-auth-emulator@example.com", "sub": "firebase-auth-emulator@example.com",
        ]
        if let tenant { payload["tenant_id"] = tenant }
        return encode(["alg": "none", "typ": "JWT"]) + "." + encode(payload) + "."
    }

    static func tenantClaim(_ user: User) async throws -> String? {
        let token = try await user.getIDTokenResult()
        return (token.claims["firebase"] as? [String: Any])?["tenant"] as? String
    }

    @Test("sign-up, sign-in and anonymous sign-in in a tenant: the user's tenant, its tokens', a separate account per tenant")
    func signUpAndIn() async throws {
        try await withLiveHearth { live in
            let acme = try await Self.makeTenant(live, name: "Acme")
            let store = MemorySignedInUserStore()
            let name = "tenant-\(UUID().uuidString)"
            let auth = makeAuth(live, store: store, name: name)
            auth.tenantID = acme
            let created = try await auth.createUser(withEmail: "ada@example.com", password: "correct horse")
            #expect(created.user.tenantID == acme)
            #expect(try await Self.tenantClaim(created.user) == acme)
            #expect(created.user.refreshToken?.hasSuffix(".\(acme)") == true)

            // The project's users are another pool: the same address is free there.
            let project = makeAuth(live)
            let inProject = try await project.createUser(withEmail: "ada@example.com", password: "other horse")
            #expect(inProject.user.tenantID == nil && inProject.user.uid != created.user.uid)
            #expect(try await Self.tenantClaim(inProject.user) == nil)
            #expect(await authError { try await project.signIn(withEmail: "ada@example.com", password: "correct horse") } != nil)

            try auth.signOut()
            let signedIn = try await auth.signIn(withEmail: "ada@example.com", password: "correct horse")
            #expect(signedIn.user.uid == created.user.uid && signedIn.user.tenantID == acme)
            // A refresh stays in the tenant.
            live.clock.advance(by: 3_400)
            _ = try await signedIn.user.getIDToken()
            #expect(try await Self.tenantClaim(signedIn.user) == acme)
            #expect(try await auth.signInMethods(forEmail: "ada@example.com") == ["password"])

            // The tenant comes back with the stored user, as FirebaseAuth restores it.
            await HearthApp.app(name: name)!.delete()
            let restarted = makeAuth(live, store: store, name: name)
            #expect(restarted.tenantID == acme && restarted.currentUser?.tenantID == acme)

            try restarted.signOut()
            let anonymous = try await restarted.signInAnonymously()
            #expect(anonymous.user.isAnonymous && anonymous.user.tenantID == acme)
            #expect(try await Self.tenantClaim(anonymous.user) == acme)
        }
    }

    @Test("mismatches and unknown tenants: tenantIDMismatch from the server and the SDK; internalError as FirebaseAuth has it")
    func mismatches() async throws {
        try await withLiveHearth { live in
            let acme = try await Self.makeTenant(live, name: "Acme")
            let globex = try await Self.makeTenant(live, name: "Globex")
            let auth = makeAuth(live)

            // A custom token of one tenant signs in to that tenant alone.
            auth.tenantID = globex
            #expect(await authError { try await auth.signIn(withCustomToken: Self.customToken(uid: "wile", tenant: acme)) } == .tenantIDMismatch)
            auth.tenantID = nil
            #expect(await authError { try await auth.signIn(withCustomToken: Self.customToken(uid: "wile", tenant: acme)) } == .tenantIDMismatch)
            auth.tenantID = acme
            let wile = try await auth.signIn(withCustomToken: Self.customToken(uid: "wile", tenant: acme))
            #expect(wile.user.uid == "wile" && wile.user.tenantID == acme)

            // A user of one tenant cannot become the current user of an Auth of another (FirebaseAuth's check).
            let other = makeAuth(live)
            other.tenantID = globex
            #expect(await authError { try await other.updateCurrentUser(wile.user) } == .tenantIDMismatch)
            other.tenantID = acme
            try await other.updateCurrentUser(wile.user)
            #expect(other.currentUser?.uid == "wile")

            // FirebaseAuth has no code for these two: internalError carrying the server's message.
            auth.tenantID = "nobody-12345"
            let notFound = await nsError { try await auth.createUser(withEmail: "bob@example.com", password: "correct horse") }
            #expect(notFound.flatMap { AuthErrorCode($0) } == .internalError)
            #expect(notFound?.userInfo["HearthAuthServerMessageKey"] as? String == "TENANT_NOT_FOUND")
            auth.tenantID = "bad/id"
            let invalid = await nsError { try await auth.signIn(withEmail: "bob@example.com", password: "correct horse") }
            #expect(invalid.flatMap { AuthErrorCode($0) } == .internalError)
            #expect(invalid?.userInfo["HearthAuthServerMessageKey"] as? String == "INVALID_TENANT_ID")
        }
    }
}
