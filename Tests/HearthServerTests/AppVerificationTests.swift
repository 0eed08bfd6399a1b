import Configuration
import Foundation
import HTTPTypes
import HearthConfiguration
import HearthCore
import HearthSandbox
import HearthServer
import HearthTesting
import HearthWire
import Testing

/// App verification before an SMS: Hearth's proof of work and a captcha checked at its site-verify URL (the sandbox's
/// stand-in), with Firebase's errors, each attack shown failing: no proof, a forged, stale, reused or borrowed one,
/// a token replayed in parallel, a site-verify service that is down.
@Suite("App verification before an SMS")
struct AppVerificationTests {
    static func send(_ client: FirebaseTestClient, _ number: String, _ fields: [String: JSONValue] = [:]) async throws -> WireResult {
        try await client.post("/v1/accounts:sendVerificationCode", fields.merging(["phoneNumber": .string(number)]) { $1 })
    }

    @Test("proof of work: recaptchaParams names it; missing, forged, too little, stale, another number's and reused proofs are refused")
    func proofOfWork() async throws {
        try await withLiveHearth({
            $0.sms.appVerification = .proofOfWork(difficulty: 12)
            $0.signIn.testPhoneNumbers = ["+16505551234": "123456"]
        }) { live in
            let client = FirebaseTestClient(baseURL: live.baseURL)
            for path in ["/v1/recaptchaParams", "/identitytoolkit/v3/relyingparty/getRecaptchaParam"] {
                let parameters = try await client.raw(path, method: .get).decode(GetRecaptchaParamResponse.self)
                #expect(parameters.hearthProofOfWork?.difficulty == 12 && parameters.recaptchaSiteKey == nil, "\(path)")
                #expect(parameters.kind == "identitytoolkit#GetRecaptchaParamResponse")
            }
            let number = "+919876543210"
            let now = Int(live.clock.now.timeIntervalSince1970)
            func proof(_ number: String = number, time: Int = now, difficulty: Int = 12) -> JSONValue {
                .string(ProofOfWork.solve(projectID: live.projectID, phoneNumber: number, time: time, difficulty: difficulty))
            }
            #expect(try await Self.send(client, number).errorMessage == "MISSING_CLIENT_IDENTIFIER")
            // Too little work: a proof of 0 bits is almost never one of 12.
            var weak = ProofOfWork.solve(projectID: live.projectID, phoneNumber: number, time: now, difficulty: 0)
            var nonce = 0
            while ProofOfWork.solve(projectID: live.projectID, phoneNumber: number, time: now, difficulty: 12) == weak {
                nonce += 1
                weak = "hearth-pow.v1.\(now).\(nonce)"
            }
            for bad: JSONValue in [
                .string("not-a-proof"), .string("hearth-pow.v1.\(now)."), .string("hearth-pow.v1.\(now).1\u{0}"),
                .string("hearth-pow.v1." + String(repeating: "9", count: 10_000)), .string(weak), proof(time: now - 600), proof(time: now + 600),
                proof("+919876543299"),
            ] {
                let refused = try await Self.send(client, number, ["recaptchaToken": bad])
                #expect(refused.status == .badRequest && refused.errorMessage == "CAPTCHA_CHECK_FAILED", "\(bad)")
            }
            let good = proof()
            #expect(try await Self.send(client, number, ["recaptchaToken": good]).status == .ok)
            #expect(try await Self.send(client, number, ["recaptchaToken": good]).errorMessage == "CAPTCHA_CHECK_FAILED")
            // captchaResponse carries it as well; a test number needs none.
            #expect(try await Self.send(client, "+919876543211", ["captchaResponse": proof("+919876543211")]).status == .ok)
            #expect(try await Self.send(client, "+16505551234").status == .ok)

            // Twenty requests with one proof at once: one code.
            let shared = proof("+919876543212")
            let statuses = try await withThrowingTaskGroup(of: HTTPResponse.Status.self) { group in
                for _ in 0..<20 { group.addTask { try await Self.send(client, "+919876543212", ["recaptchaToken": shared]).status } }
                return try await group.reduce(into: [HTTPResponse.Status]()) { $0.append($1) }
            }
            #expect(statuses.filter { $0 == .ok }.count == 1)
        }
    }

    @Test("a captcha: the site key in recaptchaParams, a solved token once, a reused or made-up one refused, the service down is a 503")
    func captcha() async throws {
        let clock = ManualClock()
        let captcha = CaptchaSandbox(clock: { clock.now })
        try await withLoopbackRouter({ captcha.addRoutes(to: $0.group("/captcha")) }) { base in
            let verifyURL = base.appendingPathComponent("captcha/siteverify")
            try await withLiveHearth(
                clock: clock,
                {
                    $0.sms.appVerification = .captcha(
                        service: .recaptcha, siteKey: captcha.siteKey, secret: captcha.secret, verifyURL: verifyURL, minimumScore: 0.5)
                }
            ) { live in
                let client = FirebaseTestClient(baseURL: live.baseURL)
                let parameters = try await client.raw("/v1/recaptchaParams", method: .get).decode(GetRecaptchaParamResponse.self)
                #expect(parameters.recaptchaSiteKey == captcha.siteKey && parameters.hearthProofOfWork == nil)
                #expect(try await Self.send(client, "+919876543210").errorMessage == "MISSING_CLIENT_IDENTIFIER")
                #expect(captcha.requestCount == 0)
                let token = captcha.solve()
                #expect(try await Self.send(client, "+919876543210", ["recaptchaToken": .string(token)]).status == .ok)
                #expect(try await Self.send(client, "+919876543210", ["recaptchaToken": .string(token)]).errorMessage == "CAPTCHA_CHECK_FAILED")
                #expect(try await Self.send(client, "+919876543210", ["captchaResponse": .string("made-up")]).errorMessage == "CAPTCHA_CHECK_FAILED")
                let expired = captcha.solve()
                clock.advance(by: 121)
                #expect(try await Self.send(client, "+919876543210", ["recaptchaToken": .string(expired)]).errorMessage == "CAPTCHA_CHECK_FAILED")
                #expect(try await Self.send(client, "+919876543210", ["captchaResponse": .string(captcha.solve())]).status == .ok)
            }
            // A wrong secret, and a site-verify service that does not answer.
            try await withLiveHearth(
                clock: clock,
                {
                    $0.sms.appVerification = .captcha(
                        service: .turnstile, siteKey: captcha.siteKey, secret: "wrong", verifyURL: verifyURL, minimumScore: nil)
                }
            ) { live in
                let client = FirebaseTestClient(baseURL: live.baseURL)
                let refused = try await Self.send(client, "+919876543210", ["recaptchaToken": .string(captcha.solve())])
                #expect(refused.errorMessage == "CAPTCHA_CHECK_FAILED")
            }
            try await withLiveHearth(
                clock: clock,
                {
                    $0.sms.appVerification = .captcha(
                        service: .hcaptcha, siteKey: captcha.siteKey, secret: captcha.secret,
                        verifyURL: URL(string: "http://127.0.0.1:9/siteverify")!,
                        minimumScore: nil)
                }
            ) { live in
                let client = FirebaseTestClient(baseURL: live.baseURL)
                let down = try await Self.send(client, "+919876543210", ["recaptchaToken": .string(captcha.solve())])
                #expect(down.status == .serviceUnavailable && down.errorMessage == "The service is currently unavailable.")
                #expect(try await live.services.store.countWaitingSMS() == 0)
            }
        }
    }

    @Test("the configuration: none in development, a proof of work in production, a captcha needs its site key and secret")
    func configuration() throws {
        func read(_ values: [String: ConfigValue], mode: ServerConfiguration.Mode = .development) throws -> ServerConfiguration {
            var all: [AbsoluteConfigKey: ConfigValue] = [:]
            for (key, value) in values { all[AbsoluteConfigKey(key.split(separator: ".").map(String.init))] = value }
            if mode == .production {
                all["project.id"] = .init(.string("acme"), isSecret: false)
                all["project.apiKeys"] = .init(.stringArray(["AIzaSyTestKeyForHearth01"]), isSecret: true)
                all["secrets.key"] = .init(.string(KeyEncryptionKey.generate().base64), isSecret: true)
            }
            return try ServerConfiguration(reader: ConfigReader(provider: InMemoryProvider(values: all)), defaultMode: mode)
        }
        func text(_ value: String) -> ConfigValue { ConfigValue(.string(value), isSecret: false) }
        #expect(try read([:]).sms.appVerification == .none)
        #expect(try read([:], mode: .production).sms.appVerification == .proofOfWork(difficulty: 20))
        #expect(try read(["sms.appVerification.kind": text("none")], mode: .production).sms.appVerification == .none)
        let turnstile = try read([
            "sms.appVerification.kind": text("turnstile"), "sms.appVerification.siteKey": text("0x4AAA"),
            "sms.appVerification.secret": ConfigValue(.string("secret-value-9"), isSecret: true),
        ])
        #expect(
            turnstile.sms.appVerification
                == .captcha(service: .turnstile, siteKey: "0x4AAA", secret: "secret-value-9", verifyURL: nil, minimumScore: nil))
        for (values, key) in [
            (["sms.appVerification.kind": text("recaptcha")], "sms.appVerification.siteKey"),
            (["sms.appVerification.kind": text("hcaptcha"), "sms.appVerification.siteKey": text("k")], "sms.appVerification.secret"),
            (["sms.appVerification.kind": text("sudoku")], "sms.appVerification.kind"),
            (["sms.appVerification.proofOfWorkDifficulty": ConfigValue(.int(64), isSecret: false)], "sms.appVerification.proofOfWorkDifficulty"),
        ] {
            let error = #expect(throws: ConfigurationError.self) { try read(values) }
            #expect(error?.key == key)
        }
    }
}
