import Foundation
import HearthCore
import HearthServer
import HearthWire
import Testing

@Suite("Custom claims in ID tokens")
struct CustomClaimsTests {
    @Test("account custom attributes appear at the top level and can never override reserved claims")
    func topLevel() async throws {
        try await withHearth { hearth, client async throws in
            let created = try await client.signUp(email: "ada@example.com")
            try await hearth.services.store.updateUser(uid: created.localId, session: nil) {
                $0.customAttributes = #"{"admin":true,"tier":"gold","level":3,"sub":"someone-else","firebase":{"sign_in_provider":"custom"}}"#
            }
            let refreshed = try #require(try await client.refresh(created.refreshToken!).string("id_token"))
            let claims = jwtClaims(refreshed)
            #expect(claims["admin"] == .bool(true))
            #expect(claims["tier"] == .string("gold"))
            #expect(claims["level"] == .number(3))
            #expect(claims["sub"] == .string(created.localId))
            #expect(claims["firebase"]?.objectValue?["sign_in_provider"] == .string("password"))
            let lookup = try await client.lookup(refreshed).decode(LookupResponse.self)
            #expect(lookup.users?.first?.customAttributes?.contains("gold") == true)
        }
    }
}
