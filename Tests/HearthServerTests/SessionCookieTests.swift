import Foundation
import HTTPTypes
import HearthCore
import HearthServer
import HearthTokens
import HearthWire
import JWTKit
import Testing

/// `{project}:createSessionCookie` and the session-cookie certificates, as the Admin SDKs use them.
@Suite("Admin API: session cookies")
struct SessionCookieTests {
    static let owner: HTTPFields = [.authorization: "Bearer owner"]
    static let project = "demo-hearth"

    static func create(_ client: FirebaseTestClient, _ body: String, prefix: String = "", project: String = project) async throws -> WireResult {
        var client = client
        client.apiKey = nil
        return try await client.post("\(prefix)/v1/projects/\(project):createSessionCookie", json: body, headers: owner)
    }

    @Test("a cookie carries the ID token's claims with the session issuer and a new lifetime, and verifies against the published certificates")
    func roundTrip() async throws {
        try await withHearth { hearth, client async throws in
            let created = try await client.signUp(email: "ada@example.com")
            let idToken = try #require(created.idToken)
            _ = try await hearth.services.store.updateUser(uid: created.localId, session: nil) { $0.customAttributes = #"{"role":"editor"}"# }
            let signedIn = try await client.signIn(email: "ada@example.com")
            let withClaims = try #require(signedIn.string("idToken"))
            let tokenClaims = jwtClaims(withClaims)
            hearth.clock.advance(by: 60)
            for (prefix, duration) in [("", #""3600""#), ("/identitytoolkit.googleapis.com", "3600")] {
                let result = try await Self.create(client, #"{"idToken":"\#(withClaims)","validDuration":\#(duration)}"#, prefix: prefix)
                #expect(result.status == .ok, "\(String(decoding: result.body, as: UTF8.self))")
                let cookie = try #require(result.string("sessionCookie"))
                let claims = jwtClaims(cookie)
                #expect(jwtHeader(cookie)["alg"] == .string("RS256"))
                #expect(claims["iss"] == .string("https://session.firebase.google.com/\(Self.project)"))
                #expect(claims["aud"] == .string(Self.project))
                #expect(claims["sub"] == .string(created.localId))
                #expect(claims["auth_time"] == tokenClaims["auth_time"])
                #expect(claims["email"] == .string("ada@example.com"))
                #expect(claims["role"] == .string("editor"))
                #expect(claims["firebase"] == tokenClaims["firebase"])
                guard case .number(let iat)? = claims["iat"], case .number(let exp)? = claims["exp"], case .number(let tokenIat)? = tokenClaims["iat"]
                else {
                    Issue.record("iat and exp are numbers")
                    return
                }
                #expect(iat == tokenIat + 60)
                #expect(exp - iat == 3_600)

                for path in ["/identitytoolkit/v3/relyingparty/publicKeys", "/www.googleapis.com/identitytoolkit/v3/relyingparty/publicKeys"] {
                    let published = try await client.raw(path, method: .get)
                    #expect(published.status == .ok)
                    #expect(published.headers[.cacheControl]?.contains("max-age=") == true)
                    let certificates = try JSONDecoder().decode([String: String].self, from: published.body)
                    guard case .string(let kid)? = jwtHeader(cookie)["kid"], let pem = certificates[kid] else {
                        Issue.record("no certificate for the cookie's kid at \(path)")
                        return
                    }
                    let keys = JWTKeyCollection()
                    await keys.add(rsa: try Insecure.RSA.PublicKey(certificatePEM: pem), digestAlgorithm: .sha256, kid: JWKIdentifier(string: kid))
                    #expect(try await keys.verify(cookie, as: IDTokenClaims.self).subject == created.localId)
                }
            }
            // No validDuration: two weeks.
            let defaulted = try await Self.create(client, #"{"idToken":"\#(idToken)"}"#)
            let claims = jwtClaims(try #require(defaulted.string("sessionCookie")))
            if case .number(let iat)? = claims["iat"], case .number(let exp)? = claims["exp"] {
                #expect(exp - iat == 1_209_600)
            } else {
                Issue.record("iat and exp are numbers")
            }
        }
    }

    @Test("MISSING_ID_TOKEN, INVALID_DURATION outside 300…1209600 s, the ID token's own errors, PROJECT_NOT_FOUND and no bearer")
    func errors() async throws {
        try await withHearth { hearth, client async throws in
            let created = try await client.signUp(email: "bob@example.com")
            let idToken = try #require(created.idToken)
            #expect(try await Self.create(client, "{}").errorMessage == "MISSING_ID_TOKEN")
            #expect(try await Self.create(client, #"{"idToken":""}"#).errorMessage == "MISSING_ID_TOKEN")
            for duration in [#""299""#, "1209601", #""-5""#, #""abc""#, "0", #""9999999999999999999999""#, #""300\u0000""#] {
                let result = try await Self.create(client, #"{"idToken":"\#(idToken)","validDuration":\#(duration)}"#)
                #expect(result.status == .badRequest)
                #expect(result.errorMessage == "INVALID_DURATION", "validDuration \(duration)")
            }
            for duration in ["300", #""1209600""#] {
                #expect(try await Self.create(client, #"{"idToken":"\#(idToken)","validDuration":\#(duration)}"#).status == .ok)
            }
            #expect(try await Self.create(client, #"{"idToken":"not.a.token"}"#).errorMessage == "INVALID_ID_TOKEN")
            #expect(try await Self.create(client, #"{"idToken":"\#(idToken)"}"#, project: "someone-else").errorMessage == "PROJECT_NOT_FOUND")

            var anonymous = client
            anonymous.apiKey = nil
            let unauthenticated = try await anonymous.post("/v1/projects/\(Self.project):createSessionCookie", json: #"{"idToken":"\#(idToken)"}"#)
            #expect(unauthenticated.status == .unauthorized)

            // Revoked (a sign-in before validSince), disabled, expired.
            hearth.clock.advance(by: 10)
            _ = try await hearth.services.store.updateUser(uid: created.localId, session: nil) { $0.validSince = hearth.clock.now }
            #expect(try await Self.create(client, #"{"idToken":"\#(idToken)"}"#).errorMessage == "TOKEN_EXPIRED")
            let again = try #require(try await client.signIn(email: "bob@example.com").string("idToken"))
            _ = try await hearth.services.store.updateUser(uid: created.localId, session: nil) { $0.disabled = true }
            #expect(try await Self.create(client, #"{"idToken":"\#(again)"}"#).errorMessage == "USER_DISABLED")
            _ = try await hearth.services.store.updateUser(uid: created.localId, session: nil) { $0.disabled = false }
            hearth.clock.advance(by: 3_601)
            #expect(try await Self.create(client, #"{"idToken":"\#(again)"}"#).errorMessage == "TOKEN_EXPIRED")
        }
    }
}
