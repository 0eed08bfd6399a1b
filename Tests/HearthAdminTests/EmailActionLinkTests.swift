import Foundation
import HearthAdmin
import HearthTesting
import Testing

/// HearthAdmin's `generate*Link`: links returned instead of mailed, each usable by the app, with the Admin SDKs'
/// error codes.
@Suite("HearthAdmin: e-mail action links")
struct EmailActionLinkTests {
    @Test("reset, verification, sign-in and change links work; unknown addresses and foreign continue URLs fail")
    func links() async throws {
        try await withLiveHearth { live in
            let admin = try makeAdmin(live)
            let ada = try await admin.createUser(NewUser(email: "ada@example.com", password: "analytical"))
            let settings = ActionCodeSettings(url: URL(string: "http://localhost:3000/done")!, handleCodeInApp: true)

            let reset = try await admin.generatePasswordResetLink(email: "ada@example.com", settings: settings)
            #expect(reset.contains("mode=resetPassword") && reset.contains("continueUrl=http%3A%2F%2Flocalhost%3A3000%2Fdone"))
            let resetCode = try #require(Self.code(reset))
            #expect(
                try await post(live, "/v1/accounts:resetPassword", ["oobCode": .string(resetCode), "newPassword": "from the link"]).status == 200)
            _ = try await signIn(live, email: "ada@example.com", password: "from the link")

            let verify = try await admin.generateEmailVerificationLink(email: "ada@example.com")
            #expect(try await post(live, "/v1/accounts:update", ["oobCode": .string(try #require(Self.code(verify)))]).status == 200)

            let signInLink = try await admin.generateSignInWithEmailLink(email: "newcomer@example.com", settings: settings)
            let signedIn = try await post(
                live, "/v1/accounts:signInWithEmailLink", ["email": "newcomer@example.com", "oobCode": .string(try #require(Self.code(signInLink)))])
            #expect(signedIn.status == 200 && signedIn.json["isNewUser"] == true)

            let change = try await admin.generateVerifyAndChangeEmailLink(email: "ada@example.com", newEmail: "ada@new.example")
            #expect(try await post(live, "/v1/accounts:update", ["oobCode": .string(try #require(Self.code(change)))]).status == 200)
            #expect(try await admin.user(uid: ada.uid).email == "ada@new.example")

            #expect(await adminError { _ = try await admin.generatePasswordResetLink(email: "nobody@example.com") } == .userNotFound)
            let foreign = ActionCodeSettings(url: URL(string: "https://evil.example/")!)
            #expect(
                await adminError { _ = try await admin.generatePasswordResetLink(email: "ada@new.example", settings: foreign) } == .unauthorizedDomain
            )
        }
    }

    static func code(_ link: String) -> String? {
        URLComponents(string: link)?.queryItems?.first { $0.name == "oobCode" }?.value
    }
}
