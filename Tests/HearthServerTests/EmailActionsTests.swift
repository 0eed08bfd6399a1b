import Foundation
import HTTPTypes
import HearthConfiguration
import HearthCore
import HearthServer
import HearthWire
import Testing

/// The e-mail actions over REST: `accounts:sendOobCode`, `accounts:resetPassword`, `accounts:update` with an
/// `oobCode`, `accounts:signInWithEmailLink`, with Identity Toolkit's error strings. Links are read from the
/// mail queue in the database, the mail a mail server would receive (delivery has tests of its own).
@Suite("E-mail actions over REST")
struct EmailActionsTests {
    static let owner: HTTPFields = [.authorization: "Bearer owner", .contentType: "application/json"]

    @Test("password reset: the mail's link, a look at the code, a new password; old sessions end, the code works once")
    func passwordReset() async throws {
        try await withHearth { hearth, client async throws in
            let signedUp = try await client.signUp(email: "ada@example.com", password: "old password")
            let sent = try await client.post(
                "/v1/accounts:sendOobCode", json: #"{"requestType":"PASSWORD_RESET","email":"Ada@Example.com"}"#,
                headers: [HTTPField.Name("X-Firebase-Locale")!: "hi"])
            #expect(sent.status == .ok, "\(String(decoding: sent.body, as: UTF8.self))")
            #expect(sent.string("kind") == "identitytoolkit#GetOobConfirmationCodeResponse")
            #expect(sent.string("email") == "ada@example.com")
            #expect(sent["oobCode"] == nil && sent["oobLink"] == nil)

            let mail = try #require(try await Self.mails(hearth).first)
            #expect(mail.recipient == "ada@example.com" && mail.purpose == "PASSWORD_RESET" && mail.languageCode == "hi")
            let link = try #require(Self.link(in: mail))
            #expect(link.hasPrefix("http://127.0.0.1:0/__/auth/action?mode=resetPassword&oobCode="))
            #expect(link.contains("&lang=hi"))
            let code = try #require(Self.code(in: link))
            // Only the hash is stored.
            #expect(try await hearth.services.store.actionCode(hash: ActionCode.hash(code))?.email == "ada@example.com")

            let peek = try await client.post("/v1/accounts:resetPassword", ["oobCode": .string(code)])
            #expect(peek.string("requestType") == "PASSWORD_RESET" && peek.string("email") == "ada@example.com")
            #expect(peek.string("kind") == "identitytoolkit#ResetPasswordResponse")

            // A weak password leaves the code usable.
            let weak = try await client.post("/v1/accounts:resetPassword", ["oobCode": .string(code), "newPassword": .string("abc")])
            #expect(weak.errorMessage == "WEAK_PASSWORD : Password should be at least 6 characters")

            hearth.clock.advance(by: 2)
            let reset = try await client.post("/v1/accounts:resetPassword", ["oobCode": .string(code), "newPassword": .string("new password")])
            #expect(reset.status == .ok, "\(String(decoding: reset.body, as: UTF8.self))")
            #expect(reset.string("email") == "ada@example.com" && reset.string("requestType") == "PASSWORD_RESET")

            #expect(try await client.signIn(email: "ada@example.com", password: "old password").errorMessage == "INVALID_PASSWORD")
            #expect(try await client.signIn(email: "ada@example.com", password: "new password").status == .ok)
            #expect(try await client.refresh(signedUp.refreshToken ?? "").errorMessage == "TOKEN_EXPIRED")
            #expect(try await client.lookup(signedUp.idToken ?? "").errorMessage == "TOKEN_EXPIRED")
            // The mail reached the address: it counts as verified.
            #expect(try await hearth.services.store.user(email: "ada@example.com")?.emailVerified == true)

            let again = try await client.post("/v1/accounts:resetPassword", ["oobCode": .string(code), "newPassword": .string("third password")])
            #expect(again.errorMessage == "INVALID_OOB_CODE")
            #expect(try await client.post("/v1/accounts:resetPassword", ["oobCode": .string(code)]).errorMessage == "INVALID_OOB_CODE")
        }
    }

    @Test("sendOobCode's errors: MISSING_REQ_TYPE, MISSING_EMAIL, INVALID_EMAIL, EMAIL_NOT_FOUND, INSUFFICIENT_PERMISSION, continue URLs")
    func sendErrors() async throws {
        try await withConfiguredHearth { hearth, client async throws in
            _ = try await client.signUp(email: "ada@example.com")
            func send(_ json: String) async throws -> String? { try await client.post("/v1/accounts:sendOobCode", json: json).errorMessage }
            #expect(try await send(#"{"email":"ada@example.com"}"#) == "MISSING_REQ_TYPE")
            #expect(try await send(#"{"requestType":"OOB_REQ_TYPE_UNSPECIFIED"}"#) == "MISSING_REQ_TYPE")
            #expect(try await send(#"{"requestType":"PASSWORD_RESET"}"#) == "MISSING_EMAIL")
            #expect(try await send(#"{"requestType":"PASSWORD_RESET","email":"not an email"}"#) == "INVALID_EMAIL")
            #expect(try await send(#"{"requestType":"PASSWORD_RESET","email":"ada\u0000@example.com"}"#) == "INVALID_EMAIL")
            #expect(try await send(#"{"requestType":"PASSWORD_RESET","email":"nobody@example.com"}"#) == "EMAIL_NOT_FOUND")
            #expect(try await send(#"{"requestType":"PASSWORD_RESET","email":"ada@example.com","returnOobLink":true}"#) == "INSUFFICIENT_PERMISSION")
            #expect(
                try await send(#"{"requestType":"RECOVER_EMAIL","email":"ada@example.com"}"#) == "INVALID_REQ_TYPE : Unsupported request parameters.")
            #expect(try await send(#"{"requestType":"VERIFY_EMAIL"}"#) == "INVALID_ID_TOKEN")
            #expect(try await send(#"{"requestType":"VERIFY_AND_CHANGE_EMAIL"}"#) == "MISSING_NEW_EMAIL")
            #expect(try await send(#"{"requestType":"VERIFY_AND_CHANGE_EMAIL","newEmail":"new@example.com"}"#) == "MISSING_ID_TOKEN")
            #expect(try await send(#"{"requestType":"EMAIL_SIGNIN","email":"ada@example.com"}"#) == "OPERATION_NOT_ALLOWED")
            #expect(
                try await send(#"{"requestType":"PASSWORD_RESET","email":"ada@example.com","androidInstallApp":true}"#)
                    == "MISSING_ANDROID_PACKAGE_NAME")
            // Continue URLs: absolute http(s), read strictly, to an authorized host.
            for bad in [
                "/relative", "javascript:alert(1)", "https://app.example.com\\@evil.example/", "https://user@localhost/", "https:evil.example",
            ] {
                let json = #"{"requestType":"PASSWORD_RESET","email":"ada@example.com","continueUrl":"# + Self.jsonString(bad) + "}"
                #expect(try await send(json) == "INVALID_CONTINUE_URI", "\(bad)")
            }
            #expect(
                try await send(#"{"requestType":"PASSWORD_RESET","email":"ada@example.com","continueUrl":"https://evil.example/done"}"#)
                    == "UNAUTHORIZED_DOMAIN : Domain not whitelisted by project")
            #expect(
                try await send(#"{"requestType":"PASSWORD_RESET","email":"ada@example.com","continueUrl":"https://localhost.evil.example/"}"#)
                    == "UNAUTHORIZED_DOMAIN : Domain not whitelisted by project")
            #expect(try await Self.mails(hearth).isEmpty)
            let allowed = try await client.post(
                "/v1/accounts:sendOobCode", json: #"{"requestType":1,"email":"ada@example.com","continueUrl":"http://localhost:8080/done?x=1"}"#)
            #expect(allowed.status == .ok, "\(String(decoding: allowed.body, as: UTF8.self))")
            let link = try await Self.latestLink(hearth)
            #expect(link.contains("continueUrl=http%3A%2F%2Flocalhost%3A8080%2Fdone%3Fx%3D1"))
        } configure: {
            $0.email.authorizedDomains = ["app.example.com"]
        }
    }

    @Test("e-mail enumeration protection: an unknown address gets the answer a known one gets, and no mail is queued")
    func enumerationProtection() async throws {
        try await withConfiguredHearth { hearth, client async throws in
            _ = try await client.signUp(email: "ada@example.com")
            let known = try await client.post("/v1/accounts:sendOobCode", json: #"{"requestType":"PASSWORD_RESET","email":"ada@example.com"}"#)
            let unknown = try await client.post("/v1/accounts:sendOobCode", json: #"{"requestType":"PASSWORD_RESET","email":"eve@example.com"}"#)
            #expect(known.status == .ok && unknown.status == .ok)
            #expect(Set(known.json.keys) == Set(unknown.json.keys))
            #expect(try await Self.mails(hearth).map(\.recipient) == ["ada@example.com"])
        } configure: {
            $0.signIn.emailEnumerationProtection = true
        }
    }

    @Test("limits: RESET_PASSWORD_EXCEED_LIMIT after five reset mails to one address, TOO_MANY_ATTEMPTS_TRY_LATER server-wide")
    func limits() async throws {
        try await withConfiguredHearth { hearth, client async throws in
            _ = try await client.signUp(email: "ada@example.com")
            _ = try await client.signUp(email: "bob@example.com")
            let body = #"{"requestType":"PASSWORD_RESET","email":"ada@example.com"}"#
            // Parallel requests cannot all slip under the limit: the count comes first.
            let statuses = try await Self.inParallel(8) { _ in try await client.post("/v1/accounts:sendOobCode", json: body).errorMessage }
            #expect(statuses.filter { $0 == nil }.count == 5)
            #expect(statuses.filter { $0 == "RESET_PASSWORD_EXCEED_LIMIT" }.count == 3)
            let refused = try await client.post("/v1/accounts:sendOobCode", json: body)
            #expect(refused.headers[.retryAfter] != nil)
            // Another address still gets mail, until the server-wide per-minute limit (6 here).
            #expect(
                try await client.post("/v1/accounts:sendOobCode", json: #"{"requestType":"PASSWORD_RESET","email":"bob@example.com"}"#).status == .ok)
            #expect(
                try await client.post("/v1/accounts:sendOobCode", json: #"{"requestType":"PASSWORD_RESET","email":"bob@example.com"}"#).errorMessage
                    == "TOO_MANY_ATTEMPTS_TRY_LATER")
            #expect(try await Self.mails(hearth).count == 6)
            hearth.clock.advance(by: 3_600)
            #expect(try await client.post("/v1/accounts:sendOobCode", json: body).status == .ok)
        } configure: {
            $0.email.perMinute.limit = 6
        }
    }

    @Test("codes expire (EXPIRED_OOB_CODE), garbage is INVALID_OOB_CODE, MISSING_OOB_CODE, PASSWORD_LOGIN_DISABLED")
    func codeErrors() async throws {
        try await withHearth { hearth, client async throws in
            _ = try await client.signUp(email: "ada@example.com")
            let code = try await Self.resetCode(client, hearth, email: "ada@example.com")
            #expect(try await client.post("/v1/accounts:resetPassword", [:]).errorMessage == "MISSING_OOB_CODE")
            for garbage in ["x", String(repeating: "A", count: 43), String(repeating: "é", count: 10_000), "abc\u{0}def", code + "A"] {
                #expect(try await client.post("/v1/accounts:resetPassword", ["oobCode": .string(garbage)]).errorMessage == "INVALID_OOB_CODE")
            }
            hearth.clock.advance(by: 3_601)
            #expect(try await client.post("/v1/accounts:resetPassword", ["oobCode": .string(code)]).errorMessage == "EXPIRED_OOB_CODE")
            #expect(
                try await client.post("/v1/accounts:resetPassword", ["oobCode": .string(code), "newPassword": .string("new password")])
                    .errorMessage == "EXPIRED_OOB_CODE")
            #expect(try await client.signIn(email: "ada@example.com").status == .ok)
        }
        try await withConfiguredHearth { _, client async throws in
            #expect(try await client.post("/v1/accounts:resetPassword", ["oobCode": .string("x")]).errorMessage == "PASSWORD_LOGIN_DISABLED")
        } configure: {
            $0.signIn.passwordEnabled = false
        }
    }

    @Test("20 parallel resets with one code: exactly one succeeds")
    func parallelReset() async throws {
        try await withHearth { hearth, client async throws in
            _ = try await client.signUp(email: "ada@example.com")
            let code = try await Self.resetCode(client, hearth, email: "ada@example.com")
            let results = try await Self.inParallel(20) { index in
                try await client.post("/v1/accounts:resetPassword", ["oobCode": .string(code), "newPassword": .string("password \(index)")])
                    .errorMessage
            }
            #expect(results.filter { $0 == nil }.count == 1)
            #expect(results.filter { $0 == "INVALID_OOB_CODE" }.count == 19)
        }
    }

    @Test("a new password voids outstanding reset links; so does an e-mail change")
    func voiding() async throws {
        try await withHearth { hearth, client async throws in
            let ada = try await client.signUp(email: "ada@example.com")
            let code = try await Self.resetCode(client, hearth, email: "ada@example.com")
            let changed = try await client.post(
                "/v1/accounts:update", ["idToken": .string(ada.idToken ?? ""), "password": .string("changed password")])
            #expect(changed.status == .ok)
            #expect(try await client.post("/v1/accounts:resetPassword", ["oobCode": .string(code)]).errorMessage == "INVALID_OOB_CODE")

            let second = try await Self.resetCode(client, hearth, email: "ada@example.com")
            let token = try #require(changed.string("idToken"))
            #expect(try await client.post("/v1/accounts:update", ["idToken": .string(token), "email": .string("ada2@example.com")]).status == .ok)
            #expect(try await client.post("/v1/accounts:resetPassword", ["oobCode": .string(second)]).errorMessage == "INVALID_OOB_CODE")
            // The old address hears of the change, with a link that undoes it.
            let recovery = try #require(try await Self.mails(hearth).first)
            #expect(recovery.recipient == "ada@example.com" && recovery.purpose == "RECOVER_EMAIL")
            let recoveryCode = try #require(Self.link(in: recovery).flatMap(Self.code))
            let recovered = try await client.post("/v1/accounts:update", ["oobCode": .string(recoveryCode)])
            #expect(recovered.status == .ok && recovered.string("email") == "ada@example.com")
            #expect(try await hearth.services.store.user(email: "ada@example.com")?.uid == ada.localId)

            // An administrator's new password voids reset links too.
            let third = try await Self.resetCode(client, hearth, email: "ada@example.com")
            var admin = client
            admin.apiKey = nil
            let updated = try await admin.post(
                "/v1/projects/demo-hearth/accounts:update", json: #"{"localId":"\#(ada.localId)","password":"set by admin"}"#, headers: Self.owner)
            #expect(updated.status == .ok)
            #expect(try await client.post("/v1/accounts:resetPassword", ["oobCode": .string(third)]).errorMessage == "INVALID_OOB_CODE")
        }
    }

    @Test("verify an address: VERIFY_EMAIL needs the ID token; the code applied through accounts:update (also the v3 name)")
    func verifyEmail() async throws {
        try await withHearth { hearth, client async throws in
            let ada = try await client.signUp(email: "ada@example.com")
            let sent = try await client.post(
                "/v1/accounts:sendOobCode",
                ["requestType": .string("VERIFY_EMAIL"), "idToken": .string(ada.idToken ?? ""), "email": .string("other@x.com")])
            #expect(sent.string("email") == "ada@example.com")
            let code = try await Self.latestCode(hearth)
            let peek = try await client.post("/v1/accounts:resetPassword", ["oobCode": .string(code)])
            #expect(peek.string("requestType") == "VERIFY_EMAIL")
            // A verification code does not reset a password.
            #expect(
                try await client.post("/v1/accounts:resetPassword", ["oobCode": .string(code), "newPassword": .string("new password")])
                    .errorMessage == "INVALID_OOB_CODE")
            let applied = try await client.post("/identitytoolkit/v3/relyingparty/setAccountInfo", ["oobCode": .string(code)])
            #expect(applied.status == .ok, "\(String(decoding: applied.body, as: UTF8.self))")
            #expect(applied.string("email") == "ada@example.com" && applied["emailVerified"] == .bool(true))
            #expect(try await client.post("/v1/accounts:update", ["oobCode": .string(code)]).errorMessage == "INVALID_OOB_CODE")
            #expect(try await hearth.services.store.user(uid: ada.localId)?.emailVerified == true)

            let anonymous = try await client.signUpAnonymously()
            #expect(
                try await client.post(
                    "/v1/accounts:sendOobCode", ["requestType": .string("VERIFY_EMAIL"), "idToken": .string(anonymous.idToken ?? "")]
                )
                .errorMessage == "MISSING_EMAIL")
        }
    }

    @Test("change an address: the link goes to the new one; using it changes the address, ends sessions, and mails the old one")
    func changeEmail() async throws {
        try await withHearth { hearth, client async throws in
            let ada = try await client.signUp(email: "ada@example.com")
            _ = try await client.signUp(email: "taken@example.com")
            func change(_ newEmail: String) async throws -> WireResult {
                try await client.post(
                    "/v1/accounts:sendOobCode",
                    ["requestType": .string("VERIFY_AND_CHANGE_EMAIL"), "idToken": .string(ada.idToken ?? ""), "newEmail": .string(newEmail)])
            }
            #expect(try await change("taken@example.com").errorMessage == "EMAIL_EXISTS")
            #expect(try await change("bad address").errorMessage == "INVALID_EMAIL")
            let sent = try await change("Ada.New@example.com")
            #expect(sent.status == .ok && sent.string("email") == "ada@example.com")
            let mail = try #require(try await Self.mails(hearth).first)
            #expect(mail.recipient == "ada.new@example.com" && mail.purpose == "VERIFY_AND_CHANGE_EMAIL")
            let code = try #require(Self.link(in: mail).flatMap(Self.code))
            let peek = try await client.post("/v1/accounts:resetPassword", ["oobCode": .string(code)])
            #expect(peek.string("email") == "ada@example.com" && peek.string("newEmail") == "ada.new@example.com")

            hearth.clock.advance(by: 2)
            let applied = try await client.post("/v1/accounts:update", ["oobCode": .string(code)])
            #expect(applied.status == .ok && applied.string("email") == "ada.new@example.com")
            // Firebase's answer names the address the account moved to.
            #expect(applied.string("newEmail") == "ada.new@example.com")
            #expect(applied.string("kind") == "identitytoolkit#SetAccountInfoResponse")
            let moved = try #require(try await hearth.services.store.user(uid: ada.localId))
            #expect(moved.initialEmail == "ada@example.com")
            #expect(try await client.lookup(ada.idToken ?? "").errorMessage == "TOKEN_EXPIRED")
            #expect(try await client.signIn(email: "ada.new@example.com").status == .ok)
            let recovery = try #require(try await Self.mails(hearth).first)
            #expect(recovery.recipient == "ada@example.com" && recovery.purpose == "RECOVER_EMAIL")
            #expect(recovery.textBody.contains("ada.new@example.com"))
        }
    }

    @Test("e-mail link sign-in: sign up, sign in again, link to an anonymous account; emailLink becomes a sign-in method")
    func emailLink() async throws {
        try await withConfiguredHearth { hearth, client async throws in
            func linkCode(_ email: String) async throws -> String {
                let sent = try await client.post(
                    "/v1/accounts:sendOobCode",
                    ["requestType": .string("EMAIL_SIGNIN"), "email": .string(email), "continueUrl": .string("https://localhost/finish")])
                try #require(sent.status == .ok, "\(String(decoding: sent.body, as: UTF8.self))")
                return try await Self.latestCode(hearth)
            }
            #expect(
                try await client.post("/v1/accounts:sendOobCode", ["requestType": .string("EMAIL_SIGNIN"), "email": .string("ada@example.com")])
                    .errorMessage == "MISSING_CONTINUE_URI")
            let code = try await linkCode("ada@example.com")
            #expect(try await client.post("/v1/accounts:signInWithEmailLink", ["oobCode": .string(code)]).errorMessage == "MISSING_EMAIL")
            #expect(
                try await client.post("/v1/accounts:signInWithEmailLink", ["email": .string("ada@example.com")]).errorMessage == "MISSING_OOB_CODE")
            #expect(
                try await client.post("/v1/accounts:signInWithEmailLink", ["email": .string("eve@example.com"), "oobCode": .string(code)])
                    .errorMessage == "INVALID_EMAIL : The email provided does not match the sign-in email address.")
            let first = try await client.post("/v1/accounts:signInWithEmailLink", ["email": .string("ADA@example.com"), "oobCode": .string(code)])
            #expect(first.status == .ok, "\(String(decoding: first.body, as: UTF8.self))")
            #expect(first["isNewUser"] == .bool(true) && first.string("kind") == "identitytoolkit#EmailLinkSigninResponse")
            let claims = jwtClaims(try #require(first.string("idToken")))
            #expect(claims["email_verified"] == .bool(true))
            #expect(
                try await client.post("/v1/accounts:signInWithEmailLink", ["email": .string("ada@example.com"), "oobCode": .string(code)])
                    .errorMessage == "INVALID_OOB_CODE")

            let methods = try await client.post(
                "/v1/accounts:createAuthUri", ["identifier": .string("ada@example.com"), "continueUri": .string("http://localhost")])
            #expect(methods["signinMethods"] == .array([.string("emailLink")]))

            let again = try await client.post(
                "/v1/accounts:signInWithEmailLink", ["email": .string("ada@example.com"), "oobCode": .string(try await linkCode("ada@example.com"))])
            #expect(again["isNewUser"] == .bool(false) && again.string("localId") == first.string("localId"))

            // Linking: an anonymous user gains the address.
            let anonymous = try await client.signUpAnonymously()
            let linked = try await client.post(
                "/v1/accounts:signInWithEmailLink",
                [
                    "email": .string("bob@example.com"), "oobCode": .string(try await linkCode("bob@example.com")),
                    "idToken": .string(anonymous.idToken ?? ""),
                ])
            #expect(linked.string("localId") == anonymous.localId && linked["isNewUser"] == .bool(false))
            let bob = try #require(try await hearth.services.store.user(uid: anonymous.localId))
            #expect(bob.email == "bob@example.com" && bob.emailLinkSignIn && !bob.isAnonymous)
            // Linking an address another account owns.
            let other = try await client.signUpAnonymously()
            #expect(
                try await client.post(
                    "/v1/accounts:signInWithEmailLink",
                    [
                        "email": .string("ada@example.com"), "oobCode": .string(try await linkCode("ada@example.com")),
                        "idToken": .string(other.idToken ?? ""),
                    ]
                ).errorMessage == "EMAIL_EXISTS")
        } configure: {
            $0.signIn.emailLinkEnabled = true
        }
    }

    @Test("parallel sign-ins with different links to one new address: one account, and every link signs in to it")
    func parallelEmailLinkSignUps() async throws {
        try await withConfiguredHearth { hearth, client async throws in
            var codes: [String] = []
            for _ in 0..<6 {
                _ = try await client.post(
                    "/v1/accounts:sendOobCode",
                    ["requestType": .string("EMAIL_SIGNIN"), "email": .string("new@example.com"), "continueUrl": .string("https://localhost/")])
                codes.append(try await Self.latestCode(hearth))
            }
            let sent = codes
            let results = try await Self.inParallel(sent.count) { index in
                try await client.post("/v1/accounts:signInWithEmailLink", ["email": .string("new@example.com"), "oobCode": .string(sent[index])])
            }
            #expect(results.allSatisfy { $0.status == .ok }, "\(results.map(\.errorMessage))")
            #expect(Set(results.compactMap { $0.string("localId") }).count == 1)
            #expect(results.filter { $0["isNewUser"] == .bool(true) }.count == 1)
        } configure: {
            $0.signIn.emailLinkEnabled = true
            $0.email.perRecipient.limit = 0
        }
    }

    @Test("e-mail link sign-in drops a password nobody proved the address for")
    func emailLinkDropsUnprovenPassword() async throws {
        try await withConfiguredHearth { hearth, client async throws in
            // Someone registers another person's address with a password of theirs…
            _ = try await client.signUp(email: "ada@example.com", password: "squatter's password")
            _ = try await client.post(
                "/v1/accounts:sendOobCode",
                ["requestType": .string("EMAIL_SIGNIN"), "email": .string("ada@example.com"), "continueUrl": .string("https://localhost/")])
            let code = try await Self.latestCode(hearth)
            // …then the owner signs in with a link: the squatter's password stops working.
            #expect(
                try await client.post("/v1/accounts:signInWithEmailLink", ["email": .string("ada@example.com"), "oobCode": .string(code)]).status
                    == .ok)
            #expect(try await client.signIn(email: "ada@example.com", password: "squatter's password").errorMessage == "INVALID_PASSWORD")
        } configure: {
            $0.signIn.emailLinkEnabled = true
        }
    }

    @Test("administrators: returnOobLink gives the link without a mail, for every kind; the project-scoped path")
    func administratorLinks() async throws {
        try await withConfiguredHearth { hearth, client async throws in
            _ = try await client.signUp(email: "ada@example.com")
            var admin = client
            admin.apiKey = nil
            for (type, mode) in [("PASSWORD_RESET", "resetPassword"), ("VERIFY_EMAIL", "verifyEmail"), ("EMAIL_SIGNIN", "signIn")] {
                let result = try await admin.post(
                    "/v1/projects/demo-hearth/accounts:sendOobCode",
                    json: #"{"requestType":"\#(type)","email":"ada@example.com","returnOobLink":true,"continueUrl":"http://localhost/x"}"#,
                    headers: Self.owner)
                #expect(result.status == .ok, "\(String(decoding: result.body, as: UTF8.self))")
                let link = try #require(result.string("oobLink"))
                let code = try #require(result.string("oobCode"))
                #expect(link.contains("mode=\(mode)") && link.contains("oobCode=\(code)"))
            }
            let change = try await admin.post(
                "/v1/projects/demo-hearth/accounts:sendOobCode",
                json: #"{"requestType":"VERIFY_AND_CHANGE_EMAIL","email":"ada@example.com","newEmail":"new@example.com","returnOobLink":true}"#,
                headers: Self.owner)
            #expect(change.string("oobLink")?.contains("mode=verifyAndChangeEmail") == true)
            #expect(
                try await admin.post(
                    "/v1/projects/demo-hearth/accounts:sendOobCode",
                    json: #"{"requestType":"VERIFY_EMAIL","email":"nobody@example.com","returnOobLink":true}"#,
                    headers: Self.owner
                ).errorMessage == "USER_NOT_FOUND")
            #expect(try await Self.mails(hearth).isEmpty)
        } configure: {
            $0.signIn.emailLinkEnabled = true
        }
    }

    @Test("linkDomain: INVALID_HOSTING_LINK_DOMAIN unless Hearth serves the host or it is authorized, for every kind of code")
    func linkDomains() async throws {
        try await withConfiguredHearth { hearth, client async throws in
            _ = try await client.signUp(email: "ada@example.com")
            func signInLink(_ domain: String) async throws -> WireResult {
                try await client.post(
                    "/v1/accounts:sendOobCode",
                    json:
                        #"{"requestType":"EMAIL_SIGNIN","email":"ada@example.com","continueUrl":"http://localhost/done","canHandleCodeInApp":true,"linkDomain":"\#(domain)"}"#
                )
            }
            for bad in ["evil.example", "app.example.com.evil.example", "app.example.com:8443", "https://app.example.com", "app.example.com/x"] {
                #expect(try await signInLink(bad).errorMessage == "INVALID_HOSTING_LINK_DOMAIN", "\(bad)")
            }
            #expect(try await Self.mails(hearth).isEmpty)
            for good in ["app.example.com", "App.Example.COM", "localhost"] {
                let sent = try await signInLink(good)
                #expect(sent.status == .ok, "\(good): \(sent.text)")
            }
            // The same check for the other kinds of code.
            let reset = try await client.post(
                "/v1/accounts:sendOobCode", json: #"{"requestType":"PASSWORD_RESET","email":"ada@example.com","linkDomain":"evil.example"}"#)
            #expect(reset.errorMessage == "INVALID_HOSTING_LINK_DOMAIN")
        } configure: {
            $0.email.authorizedDomains = ["app.example.com"]
            $0.signIn.emailLinkEnabled = true
        }
    }

    @Test("an administrator's reset link for an unknown address under enumeration protection is EMAIL_NOT_FOUND: protection is for clients")
    func administratorUnderEnumerationProtection() async throws {
        try await withConfiguredHearth { hearth, client async throws in
            var admin = client
            admin.apiKey = nil
            let unknown = try await admin.post(
                "/v1/projects/demo-hearth/accounts:sendOobCode",
                json: #"{"requestType":"PASSWORD_RESET","email":"nobody@example.com","returnOobLink":true}"#, headers: Self.owner)
            #expect(unknown.errorMessage == "EMAIL_NOT_FOUND")
            // The bare path with an administrator's bearer, without returnOobLink: the same.
            let mailed = try await admin.post(
                "/v1/accounts:sendOobCode", json: #"{"requestType":"PASSWORD_RESET","email":"nobody@example.com"}"#, headers: Self.owner)
            #expect(mailed.errorMessage == "EMAIL_NOT_FOUND")
            // A client still gets the answer a known address gets.
            let fromClient = try await client.post(
                "/v1/accounts:sendOobCode", json: #"{"requestType":"PASSWORD_RESET","email":"nobody@example.com"}"#)
            #expect(fromClient.status == .ok && fromClient.string("email") == "nobody@example.com")
            #expect(try await Self.mails(hearth).isEmpty)
        } configure: {
            $0.signIn.emailEnumerationProtection = true
        }
    }

    // MARK: Helpers

    /// ``withHearth(_:_:)`` with the configuration change written after the test.
    func withConfiguredHearth(
        _ body: @Sendable (TestHearth, FirebaseTestClient) async throws -> Void, configure: (inout ServerConfiguration) -> Void
    ) async throws {
        try await withHearth(configure, body)
    }

    /// The mails queued, newest first.
    static func mails(_ hearth: TestHearth) async throws -> [OutgoingMail] {
        try await hearth.services.store.recentMails(limit: 100)
    }

    /// The action link of a mail (its text part).
    static func link(in mail: OutgoingMail) -> String? {
        mail.textBody.split(whereSeparator: \.isWhitespace).map(String.init).first { $0.contains("oobCode=") }
    }

    /// The action link of the newest mail.
    static func latestLink(_ hearth: TestHearth) async throws -> String {
        let mail = try #require(try await mails(hearth).first)
        return try #require(link(in: mail))
    }

    /// The code of the newest mail's link.
    static func latestCode(_ hearth: TestHearth) async throws -> String {
        try #require(code(in: try await latestLink(hearth)))
    }

    static func code(in link: String) -> String? {
        URLComponents(string: link)?.queryItems?.first { $0.name == "oobCode" }?.value
    }

    static func resetCode(_ client: FirebaseTestClient, _ hearth: TestHearth, email: String) async throws -> String {
        let sent = try await client.post("/v1/accounts:sendOobCode", ["requestType": .string("PASSWORD_RESET"), "email": .string(email)])
        try #require(sent.status == .ok)
        return try await Self.latestCode(hearth)
    }

    /// `body(0)` … `body(count - 1)` at once; their results in the order they finished.
    static func inParallel<T: Sendable>(_ count: Int, _ body: @escaping @Sendable (Int) async throws -> T) async throws -> [T] {
        try await withThrowingTaskGroup(of: T.self) { group in
            for index in 0..<count { group.addTask { try await body(index) } }
            return try await group.reduce(into: [T]()) { $0.append($1) }
        }
    }

    static func jsonString(_ text: String) -> String {
        JSONValue.string(text).jsonText
    }
}
