import Foundation
import HearthAuth
import HearthSandbox
import HearthTesting
import Testing

/// `Auth.revokeToken(withAuthorizationCode:)` against a live server whose Apple is the sandbox.
@Suite struct RevokeTokenTests {
    @Test("Signed in with Apple: the code is redeemed and its refresh token revoked; a used code is invalidCredential")
    func revokeAppleCode() async throws {
        try await withLiveHearth { live in
            let auth = makeAuth(live)
            let raw = AuthNonce.random()
            let idToken = try live.sandbox.appleIDToken(for: .appleAlice, nonce: .raw(raw))
            _ = try await auth.signIn(with: OAuthProvider.appleCredential(withIDToken: idToken, rawNonce: raw, fullName: nil))
            let bundleID = try #require(live.sandbox.credentials.apple.bundleIDs.first)
            let code = try live.sandbox.appleAuthorizationCode(for: .appleAlice, clientID: bundleID)

            try await auth.revokeToken(withAuthorizationCode: code)
            let revocations = live.sandbox.appleRevocations()
            #expect(revocations.count == 1)
            #expect(revocations.first?.subject == SandboxIdentity.appleAlice.subject)
            #expect(revocations.first?.tokenTypeHint == "refresh_token")

            #expect(await authError { try await auth.revokeToken(withAuthorizationCode: code) } == .invalidCredential)
            #expect(await authError { try await auth.revokeToken(withAuthorizationCode: "") } == .internalError)
            #expect(live.sandbox.appleRevocations().count == 1)
        }
    }

    @Test("The completion-handler form reports success and failure")
    func completionForm() async throws {
        try await withLiveHearth { live in
            let auth = makeAuth(live)
            _ = try await auth.signInAnonymously()
            let bundleID = try #require(live.sandbox.credentials.apple.bundleIDs.first)
            let code = try live.sandbox.appleAuthorizationCode(for: .appleAlice, clientID: bundleID)
            let first: NSError? = await withCheckedContinuation { continuation in
                auth.revokeToken(withAuthorizationCode: code) { error in continuation.resume(returning: error as NSError?) }
            }
            #expect(first == nil)
            let second: NSError? = await withCheckedContinuation { continuation in
                auth.revokeToken(withAuthorizationCode: code) { error in continuation.resume(returning: error as NSError?) }
            }
            #expect(second.map { AuthErrorCode($0) } == .invalidCredential)
            #expect(live.sandbox.appleRevocations().count == 1)
        }
    }

    @Test("Without a current user it does nothing, as FirebaseAuth")
    func noCurrentUser() async throws {
        try await withLiveHearth { live in
            let auth = makeAuth(live)
            let bundleID = try #require(live.sandbox.credentials.apple.bundleIDs.first)
            let code = try live.sandbox.appleAuthorizationCode(for: .appleAlice, clientID: bundleID)
            try await auth.revokeToken(withAuthorizationCode: code)
            #expect(live.sandbox.appleRevocations().isEmpty)
            #expect(auth.currentUser == nil)
            // The code was good and is still unused: signed in, the same call redeems it and revokes.
            let raw = AuthNonce.random()
            let idToken = try live.sandbox.appleIDToken(for: .appleAlice, nonce: .raw(raw))
            _ = try await auth.signIn(with: OAuthProvider.appleCredential(withIDToken: idToken, rawNonce: raw, fullName: nil))
            try await auth.revokeToken(withAuthorizationCode: code)
            #expect(live.sandbox.appleRevocations().map(\.subject) == [SandboxIdentity.appleAlice.subject])
        }
    }
}
