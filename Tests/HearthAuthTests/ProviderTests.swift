import Foundation
import HearthAuth
import HearthSandbox
import HearthTesting
import Testing

@Suite struct ProviderTests {
    @Test("Sign in with Apple: random nonce, its SHA-256 in the token, the raw nonce in the credential")
    func appleWithRawNonce() async throws {
        try await withLiveHearth { live in
            let auth = makeAuth(live)
            let raw = AuthNonce.random()
            #expect(raw.count == 32)
            #expect(AuthNonce.random() != raw)
            #expect(AuthNonce.sha256Hex(raw) == SandboxNonce.sha256Hex(raw))
            #expect(AuthNonce.sha256Hex("abc") == "ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad")

            let idToken = try live.sandbox.appleIDToken(for: .appleAlice, nonce: .raw(raw))
            var name = PersonNameComponents()
            name.givenName = "Alice"
            name.familyName = "Appleseed"
            let result = try await auth.signIn(with: OAuthProvider.appleCredential(withIDToken: idToken, rawNonce: raw, fullName: name))
            #expect(result.additionalUserInfo?.providerID == "apple.com")
            #expect(result.additionalUserInfo?.isNewUser == true)
            #expect(result.user.email == "alice@example.com")
            #expect(result.user.displayName == "Alice Appleseed")
            #expect(result.user.photoURL == nil)
            #expect(try await result.user.getIDTokenResult().signInProvider == "apple.com")

            // The older String-typed spelling of Apple's guides, and the AuthProviderID one.
            try auth.signOut()
            let raw2 = AuthNonce.random(length: 16)
            let token2 = try live.sandbox.appleIDToken(for: .appleAlice, nonce: .raw(raw2))
            let again = try await auth.signIn(with: OAuthProvider.credential(withProviderID: "apple.com", idToken: token2, rawNonce: raw2))
            #expect(again.user.uid == result.user.uid)
            #expect(again.additionalUserInfo?.isNewUser == false)
            let raw3 = AuthNonce.random()
            let token3 = try live.sandbox.appleIDToken(for: .appleAlice, nonce: .raw(raw3))
            let third = try await auth.signIn(with: OAuthProvider.credential(providerID: .apple, idToken: token3, rawNonce: raw3, accessToken: nil))
            #expect(third.user.uid == result.user.uid)

            // A token whose nonce is not the hash of the raw nonce sent.
            let wrong = try live.sandbox.appleIDToken(for: .appleAlice, nonce: .raw(AuthNonce.random()))
            #expect(
                await authError { _ = try await auth.signIn(with: OAuthProvider.appleCredential(withIDToken: wrong, rawNonce: raw, fullName: nil)) }
                    == .missingOrInvalidNonce)
        }
    }

    @Test("Apple link of an identity another user owns: credentialAlreadyInUse with a credential that signs in")
    func credentialAlreadyInUse() async throws {
        try await withLiveHearth { live in
            let auth = makeAuth(live)
            let raw = AuthNonce.random()
            let owner = try await auth.signIn(
                with: OAuthProvider.appleCredential(
                    withIDToken: try live.sandbox.appleIDToken(for: .appleRelay, nonce: .raw(raw)), rawNonce: raw, fullName: nil))
            let ownerUID = owner.user.uid
            try auth.signOut()

            let anonymous = try await auth.signInAnonymously()
            let raw2 = AuthNonce.random()
            let credential = OAuthProvider.appleCredential(
                withIDToken: try live.sandbox.appleIDToken(for: .appleRelay, nonce: .raw(raw2)), rawNonce: raw2, fullName: nil)
            let error = try #require(await nsError { _ = try await anonymous.user.link(with: credential) })
            #expect(error.domain == "FIRAuthErrorDomain")
            #expect(error.code == AuthErrorCode.credentialAlreadyInUse.rawValue)
            #expect(error.userInfo[AuthErrorUserInfoNameKey] as? String == "ERROR_CREDENTIAL_ALREADY_IN_USE")
            #expect(error.userInfo[AuthErrorUserInfoEmailKey] as? String == "x7k2mq9p4d@privaterelay.appleid.com")
            let updated = try #require(error.userInfo[AuthErrorUserInfoUpdatedCredentialKey] as? OAuthCredential)
            #expect(updated.provider == "apple.com")
            #expect(auth.currentUser?.uid == anonymous.user.uid)

            // Signing in with the updated credential needs no new Apple token (the original nonce is spent).
            let signedIn = try await auth.signIn(with: updated)
            #expect(signedIn.user.uid == ownerUID)
        }
    }

    @Test("Google, Facebook, GitHub and Twitter credentials sign in; unlink and providerAlreadyLinked/noSuchProvider")
    func providersSignInAndUnlink() async throws {
        try await withLiveHearth { live in
            let auth = makeAuth(live)
            let sandbox = live.sandbox
            let google = try await auth.signIn(
                with: GoogleAuthProvider.credential(
                    withIDToken: try sandbox.googleIDToken(for: .googleWorkspace), accessToken: try sandbox.googleAccessToken(for: .googleWorkspace)))
            #expect(google.additionalUserInfo?.providerID == "google.com")
            #expect(google.additionalUserInfo?.profile?["email"] as? String == "ada@example.com")
            #expect(google.user.displayName == "Ada Lovelace")

            let github = GitHubAuthProvider.credential(withToken: try sandbox.githubAccessToken(for: .githubUser))
            let linked = try await google.user.link(with: github)
            #expect(linked.user === google.user)
            #expect(Set(google.user.providerData.map(\.providerID)) == ["google.com", "github.com"])
            #expect(linked.additionalUserInfo?.username == "sandbox-mona")

            let again = GitHubAuthProvider.credential(withToken: try sandbox.githubAccessToken(for: .githubUser))
            #expect(await authError { _ = try await google.user.link(with: again) } == .providerAlreadyLinked)

            let user = try await google.user.unlink(fromProvider: "github.com")
            #expect(user === google.user)
            #expect(google.user.providerData.map(\.providerID) == ["google.com"])
            #expect(await authError { _ = try await google.user.unlink(fromProvider: "github.com") } == .noSuchProvider)

            try auth.signOut()
            let facebook = try await auth.signIn(
                with: FacebookAuthProvider.credential(withAccessToken: try sandbox.facebookAccessToken(for: .facebookNoEmail)))
            #expect(facebook.additionalUserInfo?.providerID == "facebook.com")
            #expect(facebook.user.email == nil)

            try auth.signOut()
            let token = try sandbox.twitterAccessToken(for: .twitterNoEmail)
            let twitter = try await auth.signIn(with: TwitterAuthProvider.credential(withToken: token.token, secret: token.secret))
            #expect(twitter.credential?.accessToken == token.token)
            #expect(twitter.credential?.secret == token.secret)
            #expect(twitter.additionalUserInfo?.username == "sandbox_api")
        }
    }

    @Test func reauthenticateWithAnotherUsersCredentialIsUserMismatch() async throws {
        try await withLiveHearth { live in
            let auth = makeAuth(live)
            _ = try await auth.createUser(withEmail: "first@example.com", password: "password-1")
            try auth.signOut()
            let second = try await auth.createUser(withEmail: "second@example.com", password: "password-2")
            let mismatch = EmailAuthProvider.credential(withEmail: "first@example.com", password: "password-1")
            #expect(await authError { _ = try await second.user.reauthenticate(with: mismatch) } == .userMismatch)
            let google = GoogleAuthProvider.credential(withIDToken: try live.sandbox.googleIDToken(for: .googleUnverified), accessToken: "")
            #expect(await authError { _ = try await second.user.reauthenticate(with: google) } == .userMismatch)

            let result = try await second.user.reauthenticate(
                with: EmailAuthProvider.credential(withEmail: "second@example.com", password: "password-2"))
            #expect(result.user.uid == second.user.uid)
            #expect(result.user !== second.user)
            #expect(auth.currentUser === second.user)
        }
    }
}
