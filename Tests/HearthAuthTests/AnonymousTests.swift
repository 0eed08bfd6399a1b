import Foundation
import HearthAuth
import HearthTesting
import Testing

@Suite struct AnonymousTests {
    @Test func signInAnonymouslyThenUpgradeWithPassword() async throws {
        try await withLiveHearth { live in
            let auth = makeAuth(live)
            let result = try await auth.signInAnonymously()
            #expect(result.user.isAnonymous)
            #expect(result.additionalUserInfo?.isNewUser == true)
            #expect(auth.currentUser === result.user)
            let again = try await auth.signInAnonymously()
            #expect(again.user === result.user)
            #expect(again.additionalUserInfo == nil)

            let linked = try await result.user.link(with: EmailAuthProvider.credential(withEmail: "anon@example.com", password: "secret-1"))
            #expect(linked.user === result.user)
            #expect(!result.user.isAnonymous)
            #expect(result.user.email == "anon@example.com")
            #expect(result.user.providerData.map(\.providerID) == ["password"])
            let token = try await result.user.getIDTokenResult()
            #expect(token.signInProvider == "password")
            #expect(token.claims["user_id"] as? String == result.user.uid)
        }
    }
}
