import Foundation
import HearthAuth
import HearthSandbox
import HearthTesting
import Testing

/// The older FirebaseAuth spellings that seed snippets use (Deprecations.swift), each against the live server.
@Suite struct DeprecationsTests {
    /// What a completion handler received.
    struct Outcome<Value: Sendable>: Sendable {
        var value: Value?
        var error: NSError?
    }

    /// Runs a completion-handler call and waits for its completion.
    static func outcome<Value: Sendable>(
        _ call: (@escaping @MainActor @Sendable (Value?, (any Error)?) -> Void) -> Void
    ) async -> Outcome<Value> {
        await withCheckedContinuation { continuation in
            call { value, error in continuation.resume(returning: Outcome(value: value, error: error as NSError?)) }
        }
    }

    @Test("fetchProviders, signInAndRetrieveData, linkAndRetrieveData and reauthenticateAndRetrieveData forward to the current API")
    func forwarders() async throws {
        try await withLiveHearth { live in
            let auth = makeAuth(live)
            _ = try await auth.createUser(withEmail: "old-api@example.com", password: "old-api-1")
            try auth.signOut()

            let providers = await Self.outcome { auth.fetchProviders(forEmail: "old-api@example.com", completion: $0) }
            #expect(providers.error == nil)
            #expect(providers.value == [EmailAuthProviderID])

            let password = EmailAuthProvider.credential(withEmail: "old-api@example.com", password: "old-api-1")
            let signedIn = await Self.outcome { auth.signInAndRetrieveData(with: password, completion: $0) }
            #expect(signedIn.error == nil)
            let user = try #require(signedIn.value?.user)
            #expect(auth.currentUser === user)
            #expect(signedIn.value?.additionalUserInfo?.providerID == "password")

            let google = GoogleAuthProvider.credential(
                withIDToken: try live.sandbox.googleIDToken(for: .googleGmail), accessToken: try live.sandbox.googleAccessToken(for: .googleGmail))
            let linked = await Self.outcome { user.linkAndRetrieveData(with: google, completion: $0) }
            #expect(linked.error == nil)
            #expect(linked.value?.user.uid == user.uid)
            #expect(linked.value?.additionalUserInfo?.providerID == "google.com")
            #expect(Set(user.providerData.map(\.providerID)) == ["password", "google.com"])
            let afterLink = await Self.outcome { auth.fetchProviders(forEmail: "old-api@example.com", completion: $0) }
            #expect(Set(afterLink.value ?? []) == ["password", "google.com"])

            let reauthenticated = await Self.outcome { user.reauthenticateAndRetrieveData(with: password, completion: $0) }
            #expect(reauthenticated.error == nil)
            #expect(reauthenticated.value?.user.uid == user.uid)

            // A wrong password through the old spelling: the same error as through the new one.
            let wrong = EmailAuthProvider.credential(withEmail: "old-api@example.com", password: "not-it-1")
            let refused = await Self.outcome { user.reauthenticateAndRetrieveData(with: wrong, completion: $0) }
            #expect(refused.value == nil)
            #expect(refused.error?.code == AuthErrorCode.wrongPassword.rawValue)
            #expect(refused.error?.userInfo["HearthAuthServerMessageKey"] as? String == "INVALID_PASSWORD")
            #expect(refused.error?.localizedDescription == "The password is invalid or the user does not have a password.")
        }
    }

    @Test("The optional-taking spellings: a nil credential and a nil currentUser")
    func optionalSpellings() async throws {
        try await withLiveHearth { live in
            let auth = makeAuth(live)
            let noCredential: AuthCredential? = nil
            let nilCredential = await Self.outcome { auth.signIn(with: noCredential, completion: $0) }
            #expect(nilCredential.error?.code == AuthErrorCode.invalidCredential.rawValue)
            #expect(nilCredential.error?.localizedDescription == "The credential is nil.")

            let credential = EmailAuthProvider.credential(withEmail: "nobody-yet@example.com", password: "nobody-1")
            let noUser = await Self.outcome { auth.currentUser.link(withCredential: credential, completion: $0) }
            #expect(noUser.error?.code == AuthErrorCode.nullUser.rawValue)
            #expect(
                noUser.error?.localizedDescription
                    == "A null user object was provided as the argument for an operation which requires a non-null user object.")
            let noUserReauth = await Self.outcome { auth.currentUser.reauthenticateWithCredential(withCredential: credential, completion: $0) }
            #expect(noUserReauth.error?.code == AuthErrorCode.nullUser.rawValue)
            #expect(auth.currentUser == nil)
        }
    }
}
