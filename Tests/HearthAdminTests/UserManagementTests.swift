import Foundation
import HearthAdmin
import HearthTesting
import Hummingbird
import HummingbirdTesting
import NotesBackend
import Testing

/// HearthAdmin's user management against the admin API of a live server, and revocation as verifyIDToken sees it.
@Suite("HearthAdmin: user management and revocation")
struct UserManagementTests {
    @Test("create, get by uid and e-mail, update (set and remove), claims, list page by page, delete, deleteUsers; the error codes")
    func lifecycle() async throws {
        try await withLiveHearth { live in
            let admin = try makeAdmin(live)
            let ada = try await admin.createUser(
                NewUser(uid: "ada-1", email: "ada@example.com", password: "correct horse", displayName: "Ada", phoneNumber: "+15555550100"))
            #expect(ada.uid == "ada-1")
            #expect(ada.email == "ada@example.com")
            #expect(ada.displayName == "Ada")
            #expect(ada.phoneNumber == "+15555550100")
            #expect(!ada.disabled)
            #expect(ada.creationTime != nil)
            #expect(try await admin.user(email: "ada@example.com").uid == "ada-1")
            let generated = try await admin.createUser()
            #expect(!generated.uid.isEmpty)

            #expect(await adminError { try await admin.createUser(NewUser(uid: "ada-1")) } == .uidAlreadyExists)
            #expect(await adminError { try await admin.createUser(NewUser(email: "ada@example.com")) } == .emailAlreadyExists)
            #expect(await adminError { try await admin.createUser(NewUser(phoneNumber: "+15555550100")) } == .phoneNumberAlreadyExists)
            #expect(await adminError { try await admin.createUser(NewUser(email: "not-an-email")) } == .invalidEmail)
            #expect(await adminError { try await admin.createUser(NewUser(password: "short")) } == .invalidPassword)
            #expect(await adminError { _ = try await admin.user(uid: "nobody") } == .userNotFound)
            #expect(await adminError { _ = try await admin.user(email: "nobody@example.com") } == .userNotFound)

            let updated = try await admin.updateUser(
                uid: "ada-1", UserUpdate(emailVerified: true, displayName: .remove, photoURL: .set("https://example.com/ada.png"), disabled: true))
            #expect(updated.displayName == nil)
            #expect(updated.photoURL == "https://example.com/ada.png")
            #expect(updated.emailVerified)
            #expect(updated.disabled)
            #expect(await adminError { try await admin.updateUser(uid: "nobody", UserUpdate(disabled: true)) } == .userNotFound)

            try await admin.setCustomUserClaims(uid: "ada-1", claims: ["role": "editor", "level": 2])
            #expect(try await admin.user(uid: "ada-1").customClaims == ["role": "editor", "level": 2])
            #expect(await adminError { try await admin.setCustomUserClaims(uid: "ada-1", claims: ["sub": "x"]) } == .reservedClaim)
            #expect(
                await adminError { try await admin.setCustomUserClaims(uid: "ada-1", claims: ["big": .string(String(repeating: "x", count: 1_000))]) }
                    == .claimsTooLarge)
            try await admin.setCustomUserClaims(uid: "ada-1", claims: nil)
            #expect(try await admin.user(uid: "ada-1").customClaims.isEmpty)

            for index in 0..<5 { try await admin.createUser(NewUser(uid: "user-\(index)")) }
            var seen: [String] = []
            var token: String?
            repeat {
                let page = try await admin.listUsers(pageSize: 3, pageToken: token)
                #expect(page.users.count <= 3)
                seen += page.users.map(\.uid)
                token = page.nextPageToken
            } while token != nil
            #expect(seen == seen.sorted())
            #expect(Set(seen) == Set(["ada-1", generated.uid] + (0..<5).map { "user-\($0)" }))
            #expect(await adminError { _ = try await admin.listUsers(pageSize: 0) } == .argumentError)
            #expect(await adminError { _ = try await admin.listUsers(pageSize: 1_001) } == .argumentError)

            try await admin.deleteUser(uid: "user-0")
            #expect(await adminError { try await admin.deleteUser(uid: "user-0") } == .userNotFound)
            let deleted = try await admin.deleteUsers(["user-1", "user-2", "no-such-user"])
            #expect(deleted.failureCount == 0)
            #expect(await adminError { _ = try await admin.user(uid: "user-1") } == .userNotFound)
            #expect(await adminError { _ = try await admin.deleteUsers(Array(repeating: "u", count: 1_001)) } == .maximumUserCountExceeded)
        }
    }

    @Test("importUsers: a Firebase-scrypt hash signs in with the old password; per-user failures come back by index")
    func importUsers() async throws {
        try await withLiveHearth { live in
            let admin = try makeAdmin(live)
            // github.com/firebase/scrypt's README vector.
            let options = PasswordHashOptions(
                algorithm: "SCRYPT",
                key: Data(base64Encoded: "jxspr8Ki0RYycVU8zykbdLGjFQ3McFUH0uiiTvC8pVMXAn210wjLNmdZJzxUECKbm0QsEmYUSDzZvpjeJ9WmXA==")!,
                saltSeparator: Data(base64Encoded: "Bw==")!, rounds: 8, memoryCost: 14)
            let hash = Data(base64Encoded: "lSrfV15cpx95/sZS2W9c9Kp6i/LVgQNDNC/qzrCnh1SAyZvqmZqAjTdn3aoItz+VHjoZilo78198JAdRuid5lQ==")!
            let salt = Data(base64Encoded: "42xEC+ixf3L2lw==")!
            let result = try await admin.importUsers(
                [
                    ImportedUser(
                        uid: "fb-1", email: "user1@example.com", customClaims: ["plan": "pro"], passwordHash: hash, passwordSalt: salt),
                    ImportedUser(uid: "fb-2", email: "user2@example.com", passwordHash: Data("short".utf8), passwordSalt: salt),
                    ImportedUser(uid: "fb-3", email: "user3@example.com", disabled: true),
                ], hash: options)
            #expect(result.successCount == 2)
            #expect(result.errors.map(\.index) == [1])
            let signedIn = try await signIn(live, email: "user1@example.com", password: "user1password")
            #expect(signedIn.uid == "fb-1")
            #expect(try await admin.verifyIDToken(signedIn.idToken).customClaims["plan"] == "pro")
            #expect(try await admin.user(uid: "fb-3").disabled)
            // The sign-in is the last refresh (firebase-admin's metadata.lastRefreshTime); an imported user has none yet.
            #expect(try await admin.user(uid: "fb-1").lastRefreshTime == live.clock.now)
            #expect(try await admin.user(uid: "fb-3").lastRefreshTime == nil)
            #expect(
                await adminError { _ = try await admin.importUsers([ImportedUser(uid: "x", passwordHash: hash)]) } == .argumentError)
        }
    }

    @Test(
        "checkRevoked: a sign-in before revokeRefreshTokens is auth/id-token-revoked, a disabled user auth/user-disabled, a deleted one auth/user-not-found"
    )
    func revocation() async throws {
        try await withLiveHearth { live in
            let admin = try makeAdmin(live)
            let ada = try await signUp(live, email: "ada@example.com")
            #expect(try await admin.verifyIDToken(ada.idToken, checkRevoked: true).uid == ada.uid)
            let cookie = try await admin.createSessionCookie(idToken: ada.idToken, expiresIn: 3_600)

            live.clock.advance(by: 5)
            try await admin.revokeRefreshTokens(uid: ada.uid)
            let revokedAt = try #require(try await admin.user(uid: ada.uid).tokensValidAfterTime)
            #expect(Int64(revokedAt.timeIntervalSince1970) == Int64(live.clock.now.timeIntervalSince1970))
            // Without the check the token is still a good token; with it, revoked.
            #expect(try await admin.verifyIDToken(ada.idToken).uid == ada.uid)
            #expect(await adminError { _ = try await admin.verifyIDToken(ada.idToken, checkRevoked: true) } == .idTokenRevoked)
            #expect(await adminError { _ = try await admin.verifySessionCookie(cookie, checkRevoked: true) } == .sessionCookieRevoked)
            let refreshed = try await post(live, "/v1/token", ["grant_type": "refresh_token", "refresh_token": .string(ada.refreshToken)])
            #expect(refreshed.status == 400)

            let again = try await signIn(live, email: "ada@example.com")
            #expect(try await admin.verifyIDToken(again.idToken, checkRevoked: true).uid == ada.uid)
            try await admin.updateUser(uid: ada.uid, UserUpdate(disabled: true))
            #expect(await adminError { _ = try await admin.verifyIDToken(again.idToken, checkRevoked: true) } == .userDisabled)
            try await admin.deleteUser(uid: ada.uid)
            #expect(await adminError { _ = try await admin.verifyIDToken(again.idToken, checkRevoked: true) } == .userNotFound)
        }
    }

    @Test("the notes backend with checkRevoked refuses a revoked user's token with 401")
    func notesRefuseRevoked() async throws {
        try await withLiveHearth { live in
            let admin = try makeAdmin(live)
            let ada = try await signUp(live, email: "ada@example.com")
            let app = Application(router: buildNotesRouter(admin: admin, checkRevoked: true))
            try await app.test(.router) { client in
                #expect(try await client.execute(uri: "/notes", method: .get, headers: [.authorization: "Bearer \(ada.idToken)"]).status == .ok)
                live.clock.advance(by: 5)
                try await admin.revokeRefreshTokens(uid: ada.uid)
                let refused = try await client.execute(uri: "/notes", method: .get, headers: [.authorization: "Bearer \(ada.idToken)"])
                #expect(refused.status == .unauthorized)
                #expect(String(buffer: refused.body).contains("auth/id-token-revoked"))
            }
        }
    }
}
