import Configuration
import Foundation
import HTTPTypes
import HearthConfiguration
import HearthCore
import HearthServer
import HearthTesting
import HearthWire
import Testing

/// Phone sign-in over HTTP: `accounts:sendVerificationCode` and `accounts:signInWithPhoneNumber` (and their v3 names)
/// with Firebase's fields and error strings, the project config's switch and test numbers, the code's single use
/// under parallel requests, and codes kept out of the log.
@Suite("Phone sign-in")
struct PhoneSignInHTTPTests {
    static let testNumber = "+16505551234"
    static let testCode = "123456"

    static func phoneOn(_ configuration: inout ServerConfiguration) {
        configuration.signIn.phoneEnabled = true
        configuration.signIn.testPhoneNumbers = [testNumber: testCode, "+16505550000": "000000"]
    }

    static func send(_ client: FirebaseTestClient, _ number: String = testNumber, path: String = "/v1/accounts:sendVerificationCode") async throws
        -> String
    {
        let result = try await client.post(path, ["phoneNumber": .string(number)])
        try #require(result.status == .ok, "\(String(decoding: result.body, as: UTF8.self))")
        return try result.decode(SendVerificationCodeResponse.self).sessionInfo
    }

    static func verify(_ client: FirebaseTestClient, _ fields: [String: JSONValue], path: String = "/v1/accounts:signInWithPhoneNumber")
        async throws -> WireResult
    {
        try await client.post(path, fields)
    }

    @Test("a test number signs up then in: isNewUser, phoneNumber, the phone provider and claims; the v3 names answer the same")
    func signsUpAndIn() async throws {
        try await withHearth(Self.phoneOn) { hearth, client in
            let sessionInfo = try await Self.send(client)
            let created = try await Self.verify(client, ["sessionInfo": .string(sessionInfo), "code": .string(Self.testCode)])
            #expect(created.status == .ok)
            let response = try created.decode(SignInWithPhoneNumberResponse.self)
            #expect(response.isNewUser == true && response.phoneNumber == Self.testNumber && response.expiresIn == "3600")
            #expect(response.temporaryProof == nil && response.localId != nil && response.refreshToken != nil)
            let claims = try await hearth.services.tokens.verifyIDToken(try #require(response.idToken))
            #expect(claims.phoneNumber == Self.testNumber && claims.firebase.signInProvider == "phone")
            #expect(claims.firebase.identities["phone"] == [Self.testNumber])

            let lookup = try await client.lookup(try #require(response.idToken))
            let user = try #require(try lookup.decode(LookupResponse.self).users?.first)
            #expect(user.phoneNumber == Self.testNumber)
            #expect(user.providerUserInfo?.contains { $0.providerId == "phone" && $0.rawId == Self.testNumber } == true)

            let again = try await Self.send(client, path: "/identitytoolkit/v3/relyingparty/sendVerificationCode")
            let signedIn = try await Self.verify(
                client, ["sessionInfo": .string(again), "code": .string(Self.testCode)], path: "/identitytoolkit/v3/relyingparty/verifyPhoneNumber")
            #expect(try signedIn.decode(SignInWithPhoneNumberResponse.self).isNewUser == false)
            #expect(try signedIn.decode(SignInWithPhoneNumberResponse.self).localId == response.localId)
        }
    }

    @Test("each error a person can cause, with Firebase's exact string")
    func errors() async throws {
        try await withHearth(Self.phoneOn) { hearth, client in
            func message(_ path: String, _ fields: [String: JSONValue]) async throws -> String? {
                let result = try await client.post(path, fields)
                #expect(result.status == .badRequest)
                return result.errorMessage
            }
            let send = "/v1/accounts:sendVerificationCode"
            let verify = "/v1/accounts:signInWithPhoneNumber"
            #expect(try await message(send, [:]) == "MISSING_PHONE_NUMBER")
            #expect(try await message(send, ["phoneNumber": .string("6505551234")]) == "INVALID_PHONE_NUMBER : Invalid format.")
            #expect(try await message(send, ["phoneNumber": .string("+1 650 555 1234")]) == "INVALID_PHONE_NUMBER : Invalid format.")
            #expect(try await message(send, ["phoneNumber": .string("+1650\u{0}5551234")]) == "INVALID_PHONE_NUMBER : Invalid format.")
            #expect(try await message(send, ["phoneNumber": .string("+1650\u{1b}5551234")]) == "INVALID_PHONE_NUMBER : Invalid format.")
            #expect(
                try await message(send, ["phoneNumber": .string("+" + String(repeating: "1", count: 5_000))])
                    == "INVALID_PHONE_NUMBER : Invalid format.")
            // No SMS gateway: only test numbers get a code.
            #expect(try await message(send, ["phoneNumber": .string("+919876543210")]) == "OPERATION_NOT_ALLOWED : SMS delivery is not configured.")

            let sessionInfo = try await Self.send(client)
            #expect(try await message(verify, ["code": .string("123456")]) == "MISSING_SESSION_INFO")
            #expect(try await message(verify, ["sessionInfo": .string(sessionInfo)]) == "MISSING_CODE")
            #expect(try await message(verify, ["sessionInfo": .string("forged"), "code": .string("123456")]) == "INVALID_SESSION_INFO")
            #expect(try await message(verify, ["sessionInfo": .string(sessionInfo + "\u{0}"), "code": .string("123456")]) == "INVALID_SESSION_INFO")
            #expect(try await message(verify, ["sessionInfo": .string(sessionInfo), "code": .string("654321")]) == "INVALID_CODE")
            #expect(try await message(verify, ["sessionInfo": .string(sessionInfo), "code": .string("12\u{0}456")]) == "INVALID_CODE")
            #expect(
                try await message(verify, ["sessionInfo": .string(sessionInfo), "code": .string("123456"), "operation": .string("DELETE")])?.contains(
                    "Invalid value at 'operation'") == true)
            // FirebaseAuth's LINK and UPDATE need the account's ID token.
            for operation in ["LINK", "UPDATE"] {
                #expect(
                    try await message(verify, ["sessionInfo": .string(sessionInfo), "code": .string("123456"), "operation": .string(operation)])
                        == "MISSING_ID_TOKEN")
            }
            #expect(try await message(verify, ["temporaryProof": .string("forged")]) == "MISSING_PHONE_NUMBER")
            #expect(
                try await message(verify, ["temporaryProof": .string("forged"), "phoneNumber": .string(Self.testNumber)]) == "INVALID_TEMPORARY_PROOF"
            )
            #expect(
                try await message(verify, ["temporaryProof": .string("forged"), "phoneNumber": .string("1")])
                    == "INVALID_PHONE_NUMBER : Invalid format.")
            #expect(
                try await message(verify, ["sessionInfo": .string(sessionInfo), "code": .string("123456"), "operation": .string("REAUTH")])
                    == "USER_NOT_FOUND")
            let expiring = try await Self.send(client)
            hearth.clock.advance(by: PhoneSignIn.codeLifetime + 1)
            #expect(try await message(verify, ["sessionInfo": .string(expiring), "code": .string("123456")]) == "SESSION_EXPIRED")

            let disabled = try await Self.send(client, "+16505550000")
            let made = try await Self.verify(client, ["sessionInfo": .string(disabled), "code": .string("000000")]).decode(
                SignInWithPhoneNumberResponse.self)
            _ = try await hearth.services.store.updateUser(uid: try #require(made.localId), session: nil) { $0.disabled = true }
            let refused = try await Self.send(client, "+16505550000")
            #expect(try await message(verify, ["sessionInfo": .string(refused), "code": .string("000000")]) == "USER_DISABLED")
        }
        try await withHearth { _, client in
            // Off (production's default): OPERATION_NOT_ALLOWED for both calls.
            let result = try await client.post("/v1/accounts:sendVerificationCode", ["phoneNumber": .string(Self.testNumber)])
            #expect(result.errorMessage == "OPERATION_NOT_ALLOWED")
            let verify = try await client.post("/v1/accounts:signInWithPhoneNumber", ["sessionInfo": .string("x"), "code": .string("123456")])
            #expect(verify.errorMessage == "OPERATION_NOT_ALLOWED")
        }
    }

    @Test("five wrong codes void the session; a used code cannot be replayed")
    func attemptsAndReplay() async throws {
        try await withHearth(Self.phoneOn) { _, client in
            let sessionInfo = try await Self.send(client)
            for _ in 0..<5 {
                #expect(
                    try await Self.verify(client, ["sessionInfo": .string(sessionInfo), "code": .string("999999")]).errorMessage == "INVALID_CODE")
            }
            #expect(
                try await Self.verify(client, ["sessionInfo": .string(sessionInfo), "code": .string(Self.testCode)]).errorMessage == "SESSION_EXPIRED"
            )

            let fresh = try await Self.send(client)
            #expect(try await Self.verify(client, ["sessionInfo": .string(fresh), "code": .string(Self.testCode)]).status == .ok)
            #expect(try await Self.verify(client, ["sessionInfo": .string(fresh), "code": .string(Self.testCode)]).errorMessage == "SESSION_EXPIRED")
        }
    }

    @Test("20 parallel requests with one code: exactly one signs in")
    func race() async throws {
        try await withHearth(Self.phoneOn) { hearth, client in
            let sessionInfo = try await Self.send(client)
            let statuses = try await withThrowingTaskGroup(of: (HTTPResponse.Status, String?).self) { group in
                for _ in 0..<20 {
                    group.addTask {
                        let result = try await Self.verify(client, ["sessionInfo": .string(sessionInfo), "code": .string(Self.testCode)])
                        return (result.status, result.errorMessage)
                    }
                }
                return try await group.reduce(into: [(HTTPResponse.Status, String?)]()) { $0.append($1) }
            }
            #expect(statuses.filter { $0.0 == .ok }.count == 1)
            #expect(statuses.filter { $0.1 == "SESSION_EXPIRED" }.count == 19)
            #expect(try await hearth.services.store.countUsers() == 1)
        }
    }

    @Test("linking: the number joins the account; another account's number answers temporaryProof, which signs in to that account")
    func linking() async throws {
        try await withHearth(Self.phoneOn) { _, client in
            let owner = try await Self.verify(client, ["sessionInfo": .string(try await Self.send(client)), "code": .string(Self.testCode)])
                .decode(SignInWithPhoneNumberResponse.self)
            let anonymous = try await client.signUpAnonymously()
            let taken = try await Self.verify(
                client, ["sessionInfo": .string(try await Self.send(client)), "code": .string(Self.testCode), "idToken": .string(anonymous.idToken!)])
            #expect(taken.status == .ok && taken["idToken"] == nil)
            let proof = try taken.decode(SignInWithPhoneNumberResponse.self)
            #expect(proof.phoneNumber == Self.testNumber && proof.temporaryProofExpiresIn == "3600")
            let temporaryProof = try #require(proof.temporaryProof)

            let retried = try await Self.verify(
                client, ["temporaryProof": .string(temporaryProof), "phoneNumber": .string(Self.testNumber), "idToken": .string(anonymous.idToken!)])
            #expect(retried.errorMessage == "PHONE_NUMBER_EXISTS")
            let viaProof = try await Self.verify(client, ["temporaryProof": .string(temporaryProof), "phoneNumber": .string(Self.testNumber)])
            #expect(try viaProof.decode(SignInWithPhoneNumberResponse.self).localId == owner.localId)
            let replayed = try await Self.verify(client, ["temporaryProof": .string(temporaryProof), "phoneNumber": .string(Self.testNumber)])
            #expect(replayed.errorMessage == "INVALID_TEMPORARY_PROOF")

            let linked = try await Self.verify(
                client,
                [
                    "sessionInfo": .string(try await Self.send(client, "+16505550000")), "code": .string("000000"),
                    "idToken": .string(anonymous.idToken!),
                ]
            ).decode(SignInWithPhoneNumberResponse.self)
            #expect(linked.localId == anonymous.localId && linked.isNewUser == false && linked.phoneNumber == "+16505550000")
            let reauthenticated = try await Self.verify(
                client,
                ["sessionInfo": .string(try await Self.send(client, "+16505550000")), "code": .string("000000"), "operation": .string("REAUTH")]
            ).decode(SignInWithPhoneNumberResponse.self)
            #expect(reauthenticated.localId == anonymous.localId)
        }
    }

    @Test("the project config: signIn.phoneNumber.enabled and testPhoneNumbers, shown and changed as Firebase names them")
    func projectConfig() async throws {
        try await withHearth { _, client in
            var adminClient = client
            adminClient.apiKey = nil
            let admin: HTTPFields = [.authorization: "Bearer owner"]
            let path = "/v2/projects/demo-hearth/config"
            let shown = try await adminClient.raw(path, method: .get, headers: admin).decode(ProjectConfig.self)
            #expect(shown.signIn?.phoneNumber == PhoneNumberSignInConfig(enabled: false, testPhoneNumbers: [:]))
            #expect(
                try await client.post("/v1/accounts:sendVerificationCode", ["phoneNumber": .string(Self.testNumber)]).errorMessage
                    == "OPERATION_NOT_ALLOWED")

            let body = #"{"signIn":{"phoneNumber":{"enabled":true,"testPhoneNumbers":{"+16505551234":"123456"}}}}"#
            let patched = try await adminClient.raw(
                path + "?updateMask=signIn.phoneNumber", method: .patch, body: Data(body.utf8),
                headers: admin.merging([.contentType: "application/json"]))
            #expect(patched.status == .ok)
            #expect(try patched.decode(ProjectConfig.self).signIn?.phoneNumber?.testPhoneNumbers == [Self.testNumber: Self.testCode])
            let sessionInfo = try await Self.send(client)
            #expect(try await Self.verify(client, ["sessionInfo": .string(sessionInfo), "code": .string(Self.testCode)]).status == .ok)

            let bad = #"{"signIn":{"phoneNumber":{"testPhoneNumbers":{"16505551234":"123456"}}}}"#
            let refused = try await adminClient.raw(
                path, method: .patch, body: Data(bad.utf8), headers: admin.merging([.contentType: "application/json"]))
            #expect(refused.errorMessage?.hasPrefix("INVALID_CONFIG") == true)
        }
    }

    @Test("the configuration: signIn.phoneNumber.enabled on in development only, testPhoneNumbers as number=code, refused with the key named")
    func configuration() throws {
        func read(_ values: [AbsoluteConfigKey: ConfigValue], mode: ServerConfiguration.Mode = .development) throws -> ServerConfiguration {
            var values = values
            if mode == .production {
                values["project.id"] = .init(.string("acme"), isSecret: false)
                values["project.apiKeys"] = .init(.stringArray(["AIzaSyTestKeyForHearth01"]), isSecret: true)
                values["secrets.key"] = .init(.string(KeyEncryptionKey.generate().base64), isSecret: true)
            }
            return try ServerConfiguration(reader: ConfigReader(provider: InMemoryProvider(values: values)), defaultMode: mode)
        }
        #expect(try read([:]).signIn.phoneEnabled && !(try read([:], mode: .production).signIn.phoneEnabled))
        let key: AbsoluteConfigKey = "signIn.phoneNumber.testPhoneNumbers"
        let configured = try read([key: .init(.stringArray(["+16505551234=123456", "+919876543210=000000"]), isSecret: false)])
        #expect(configured.signIn.testPhoneNumbers == ["+16505551234": "123456", "+919876543210": "000000"])
        #expect(ProjectSettings(configured).testPhoneNumbers == configured.signIn.testPhoneNumbers)
        let allow: AbsoluteConfigKey = "smsRegionConfig.allowlistOnly.allowedRegions"
        let deny: AbsoluteConfigKey = "smsRegionConfig.allowByDefault.disallowedRegions"
        #expect(try read([:]).signIn.smsRegionPolicy == .allowAll)
        let allowList = try read([allow: .init(.stringArray(["IN", "BD"]), isSecret: false)])
        #expect(ProjectSettings(allowList).smsRegionPolicy == .allowlistOnly(allowedRegions: ["IN", "BD"]))
        for values in [
            [allow: ConfigValue(.stringArray(["IN"]), isSecret: false), deny: ConfigValue(.stringArray(["BD"]), isSecret: false)],
            [deny: ConfigValue(.stringArray(["india"]), isSecret: false)],
        ] {
            #expect {
                try read(values)
            } throws: { error in
                (error as? ConfigurationError)?.key.hasPrefix("smsRegionConfig.") == true
            }
        }
        for bad in [["+16505551234"], ["16505551234=123456"], ["+16505551234=12345"], ["+16505551234=123456", "+16505551234=654321"]] {
            #expect {
                try read([key: .init(.stringArray(bad), isSecret: false)])
            } throws: { error in
                (error as? ConfigurationError)?.key == "signIn.phoneNumber.testPhoneNumbers"
            }
        }
    }

    @Test("sending limits: the project's SMS budget answers QUOTA_EXCEEDED, the client address's TOO_MANY_ATTEMPTS_TRY_LATER, with Retry-After")
    func limits() async throws {
        try await withLiveHearth({
            $0.abuse.limitsEnabled = true
            $0.signIn.testPhoneNumbers = [Self.testNumber: Self.testCode]
            $0.abuse.limits.phoneCodes = RateLimit("phone-codes", limit: 3, window: 3_600)
            $0.abuse.limits.phoneCodesPerProject = RateLimit("phone-codes-per-project", limit: 2, window: 3_600)
        }) { live in
            let client = FirebaseTestClient(baseURL: live.baseURL)
            _ = try await Self.send(client, "+919876543201")
            _ = try await Self.send(client, "+919876543202")
            let quota = try await client.post("/v1/accounts:sendVerificationCode", ["phoneNumber": .string("+919876543203")])
            #expect(quota.status == .badRequest && quota.errorMessage == "QUOTA_EXCEEDED" && quota.headers[.retryAfter] != nil)
            let address = try await client.post("/v1/accounts:sendVerificationCode", ["phoneNumber": .string("+919876543204")])
            #expect(address.errorMessage == "TOO_MANY_ATTEMPTS_TRY_LATER" && address.headers[.retryAfter] != nil)
            // Test numbers are not counted.
            _ = try await Self.send(client)
        }
    }

    @Test("SMS region policy: smsRegionConfig in the project config and the configuration file; a refused region sends no SMS")
    func regionPolicy() async throws {
        try await withLiveHearth({
            $0.signIn.smsRegionPolicy = .allowByDefault(disallowedRegions: ["BD"])
        }) { live in
            let client = FirebaseTestClient(baseURL: live.baseURL)
            let denied = try await client.post("/v1/accounts:sendVerificationCode", ["phoneNumber": .string("+8801712345678")])
            #expect(
                denied.status == .badRequest
                    && denied.errorMessage == "OPERATION_NOT_ALLOWED : SMS unable to be sent until this region enabled by the app developer.")
            _ = try await Self.send(client, "+919876543210")
            let short = try await client.post("/v1/accounts:sendVerificationCode", ["phoneNumber": .string("+9198765")])
            #expect(short.errorMessage?.hasPrefix("INVALID_PHONE_NUMBER") == true)

            var admin = FirebaseTestClient(baseURL: live.baseURL)
            admin.apiKey = nil
            let headers: HTTPFields = [.authorization: "Bearer owner", .contentType: "application/json"]
            let path = "/v2/projects/\(live.projectID)/config"
            let shown = try await admin.raw(path, method: .get, headers: headers).decode(ProjectConfig.self)
            #expect(shown.smsRegionConfig == SmsRegionConfig(allowByDefault: .init(disallowedRegions: ["BD"])))
            let allowOnly = #"{"smsRegionConfig":{"allowlistOnly":{"allowedRegions":["BD"]}}}"#
            let patched = try await admin.raw(path + "?updateMask=smsRegionConfig", method: .patch, body: Data(allowOnly.utf8), headers: headers)
            #expect(patched.status == .ok)
            #expect(try patched.decode(ProjectConfig.self).smsRegionConfig == SmsRegionConfig(allowlistOnly: .init(allowedRegions: ["BD"])))
            _ = try await Self.send(client, "+8801712345678")
            let unlisted = try await client.post("/v1/accounts:sendVerificationCode", ["phoneNumber": .string("+919876543211")])
            #expect(unlisted.errorMessage?.hasPrefix("OPERATION_NOT_ALLOWED : SMS unable to be sent") == true)
            for bad in [
                #"{"smsRegionConfig":{"allowlistOnly":{"allowedRegions":["bd"]}}}"#,
                #"{"smsRegionConfig":{"allowByDefault":{"disallowedRegions":["B\u0000"]}}}"#,
                #"{"smsRegionConfig":{"allowByDefault":{},"allowlistOnly":{}}}"#,
            ] {
                let refused = try await admin.raw(path + "?updateMask=smsRegionConfig", method: .patch, body: Data(bad.utf8), headers: headers)
                #expect(refused.status == .badRequest && refused.errorMessage?.hasPrefix("INVALID_CONFIG") == true, "\(bad)")
            }
        }
    }

    @Test("development mode: the SMS outbox and the emulator's verificationCodes listing; the code never reaches the log")
    func outboxAndLogs() async throws {
        let logs = CapturedLogs()
        let live = try await LiveHearth.start(logger: logs.logger())
        do {
            let client = FirebaseTestClient(baseURL: live.baseURL)
            let number = "+919876543210"
            let sessionInfo = try await Self.send(client, number)
            let listing = try await client.raw("/emulator/v1/projects/\(live.projectID)/verificationCodes", method: .get)
            #expect(listing.status == .ok)
            guard case .array(let codes)? = listing["verificationCodes"], case .object(let entry)? = codes.last,
                case .string(let code)? = entry["code"]
            else {
                Issue.record("no verification code listed: \(String(decoding: listing.body, as: UTF8.self))")
                try await live.stop()
                return
            }
            #expect(entry["phoneNumber"] == .string(number) && entry["sessionInfo"] == .string(sessionInfo))
            #expect(VerificationCode.isWellFormed(code))
            let page = try await client.raw("/sandbox/sms", method: .get)
            #expect(page.status == .ok && String(decoding: page.body, as: UTF8.self).contains(code))
            #expect(try await client.raw("/emulator/v1/projects/other/verificationCodes", method: .get).status == .notFound)

            let signedIn = try await Self.verify(client, ["sessionInfo": .string(sessionInfo), "code": .string(code)])
            #expect(try signedIn.decode(SignInWithPhoneNumberResponse.self).phoneNumber == number)
            try await live.stop()
            let text = logs.text
            #expect(!text.isEmpty)
            // As a whole number: a duration's digits may hold the same six by chance.
            let numbers = text.split(whereSeparator: { !$0.isNumber }).map(String.init)
            #expect(!numbers.contains(code) && !text.contains(sessionInfo))
        } catch {
            try? await live.stop()
            throw error
        }
    }
}
