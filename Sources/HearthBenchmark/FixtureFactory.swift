import Foundation

/// Creates the accounts the refresh, lookup and sign-in scenarios need, through the server's own API.
struct FixtureFactory {
    /// An account made by a sign-up, with the tokens it was given.
    struct Session: Sendable {
        let uid: String
        let idToken: String
        let refreshToken: String
    }

    /// An e-mail account and its password.
    struct Credentials: Sendable {
        let email: String
        let password: String
    }

    private struct SignUpAnswer: Decodable {
        let localId: String
        let idToken: String
        let refreshToken: String
    }

    let driver: LoadDriver
    let connections: Int

    /// `count` anonymous accounts.
    func anonymousSessions(count: Int) async throws -> [Session] {
        let request = PreparedRequest(path: Scenario.signup.path, json: #"{"returnSecureToken":true}"#, hostHeader: driver.hostHeader)
        return try await signUp(
            RequestPlan(name: "preparing anonymous accounts", requests: Array(repeating: request, count: count), capturesBodies: true))
    }

    /// `count` e-mail/password accounts; the addresses carry `runID` so reruns on one database do not collide.
    func passwordAccounts(count: Int, runID: String) async throws -> [Credentials] {
        let credentials = (0..<count).map { Credentials(email: "bench-\(runID)-\($0)@example.com", password: "secret-\($0)-hearth") }
        let requests = credentials.map {
            PreparedRequest(
                path: Scenario.signup.path,
                json: #"{"email":"\#($0.email.jsonEscaped)","password":"\#($0.password.jsonEscaped)","returnSecureToken":true}"#,
                hostHeader: driver.hostHeader)
        }
        _ = try await signUp(RequestPlan(name: "preparing e-mail accounts", requests: requests, capturesBodies: true))
        return credentials
    }

    private struct SendAnswer: Decodable {
        let sessionInfo: String
    }

    /// `count` phone sessions (codes sent to ``Scenario/phoneNumbers`` in turn), and how many sends per second the
    /// preparation ran at.
    func phoneSessions(count: Int) async throws -> (sessions: [(number: String, sessionInfo: String)], sendsPerSecond: Double) {
        let numbers = (0..<count).map { Scenario.phoneNumbers[$0 % Scenario.phoneNumbers.count] }
        let plan = RequestPlan(
            name: "sending phone codes",
            requests: numbers.map {
                PreparedRequest(path: Scenario.phoneSendPath, json: #"{"phoneNumber":"\#($0)"}"#, hostHeader: driver.hostHeader)
            },
            capturesBodies: true)
        let report = try await driver.runOnce(plan, connections: connections)
        guard report.captured.count == plan.requests.count else {
            throw BenchmarkError("\(plan.name): \(report.captured.count) of \(plan.requests.count) answers")
        }
        let decoder = JSONDecoder()
        let sessions = try zip(numbers, report.captured).map { number, response in
            guard response.status == 200, let answer = try? decoder.decode(SendAnswer.self, from: Data(response.body.utf8)) else {
                throw BenchmarkError("\(plan.name): HTTP \(response.status): \(response.body.prefix(300))")
            }
            return (number, answer.sessionInfo)
        }
        return (sessions, report.successesPerSecond)
    }

    private struct RefreshAnswer: Decodable {
        let id_token: String
    }

    /// The ID tokens the server gives for `refreshTokens` (one refresh each), in the same order.
    func refresh(_ refreshTokens: [String]) async throws -> [String] {
        guard !refreshTokens.isEmpty else { throw BenchmarkError("no refresh tokens to exchange") }
        let requests = refreshTokens.map {
            PreparedRequest(
                path: Scenario.refresh.path,
                json: #"{"grant_type":"refresh_token","refresh_token":"\#($0.jsonEscaped)"}"#,
                hostHeader: driver.hostHeader)
        }
        let plan = RequestPlan(name: "refreshing loaded users' tokens", requests: requests, capturesBodies: true)
        let report = try await driver.runOnce(plan, connections: connections)
        guard report.captured.count == plan.requests.count else {
            throw BenchmarkError("\(plan.name): \(report.captured.count) of \(plan.requests.count) answers")
        }
        let decoder = JSONDecoder()
        return try report.captured.map { response in
            guard response.status == 200, let answer = try? decoder.decode(RefreshAnswer.self, from: Data(response.body.utf8)) else {
                throw BenchmarkError("\(plan.name): HTTP \(response.status): \(response.body.prefix(300))")
            }
            return answer.id_token
        }
    }

    /// A first factor passed, waiting for its TOTP code: the pending credential, the factor, and a code for a period
    /// that stays acceptable for a minute.
    struct PendingTOTPSignIn: Sendable {
        let pendingCredential: String
        let enrollmentID: String
        let code: String
    }

    /// `count` pending sign-ins of accounts with a TOTP factor, `perAccount` each (TOTP codes are single-use per
    /// period, so each takes another period's code, between 3 periods back and `perAccount - 4` ahead: all within the
    /// server's 5 adjacent ones for a minute). Returns the first factors' rate too: password sign-ins that answer
    /// `mfaPendingCredential`.
    func totpSignIns(count: Int, perAccount: Int = 8, runID: String) async throws -> (signIns: [PendingTOTPSignIn], firstFactorsPerSecond: Double) {
        let accounts = (count + perAccount - 1) / perAccount
        let credentials = (0..<accounts).map { Credentials(email: "mfa-\(runID)-\($0)@example.com", password: "secret-\($0)-hearth") }
        let sessions = try await signUp(
            RequestPlan(
                name: "preparing e-mail accounts for TOTP",
                requests: credentials.map {
                    PreparedRequest(
                        path: Scenario.signup.path,
                        json: #"{"email":"\#($0.email.jsonEscaped)","password":"\#($0.password.jsonEscaped)","returnSecureToken":true}"#,
                        hostHeader: driver.hostHeader)
                }, capturesBodies: true))
        _ = try await answers(
            "verifying their e-mail addresses",
            sessions.map {
                PreparedRequest(
                    path: "/v1/accounts:update?key=bench", json: #"{"localId":"\#($0.uid.jsonEscaped)","emailVerified":true}"#,
                    hostHeader: driver.hostHeader, authorization: AdminBenchmark.authorization)
            })
        struct Started: Decodable {
            struct Info: Decodable {
                let sharedSecretKey: String
                let sessionInfo: String
            }
            let totpSessionInfo: Info
        }
        let started = try await answers(
            "starting TOTP enrolments",
            sessions.map {
                PreparedRequest(
                    path: "/v2/accounts/mfaEnrollment:start?key=bench", json: #"{"idToken":"\#($0.idToken.jsonEscaped)","totpEnrollmentInfo":{}}"#,
                    hostHeader: driver.hostHeader)
            }, as: Started.self)
        let keys = try started.map { answer in
            guard let key = TOTPClient.base32Decode(answer.totpSessionInfo.sharedSecretKey) else { throw BenchmarkError("unreadable TOTP secret") }
            return key
        }
        let now = Date()
        struct Tokens: Decodable { let idToken: String }
        let finalized = try await answers(
            "finishing TOTP enrolments",
            zip(sessions, zip(started, keys)).map { session, enrolment in
                PreparedRequest(
                    path: "/v2/accounts/mfaEnrollment:finalize?key=bench",
                    json:
                        #"{"idToken":"\#(session.idToken.jsonEscaped)","totpVerificationInfo":{"sessionInfo":"\#(enrolment.0.totpSessionInfo.sessionInfo.jsonEscaped)","verificationCode":"\#(TOTPClient.code(key: enrolment.1, step: TOTPClient.step(at: now)))"}}"#,
                    hostHeader: driver.hostHeader)
            }, as: Tokens.self)
        let enrollmentIDs = try finalized.map { tokens in
            guard let id = TOTPClient.secondFactorIdentifier(in: tokens.idToken) else { throw BenchmarkError("no second_factor_identifier") }
            return id
        }
        struct Pending: Decodable { let mfaPendingCredential: String }
        let firstFactors = (0..<count).map { index in credentials[index % accounts] }
        let (pending, rate) = try await answersWithRate(
            "first factors (password sign-ins answering mfaPendingCredential)",
            firstFactors.map {
                PreparedRequest(
                    path: Scenario.signin.path,
                    json: #"{"email":"\#($0.email.jsonEscaped)","password":"\#($0.password.jsonEscaped)","returnSecureToken":true}"#,
                    hostHeader: driver.hostHeader)
            }, as: Pending.self)
        let base = TOTPClient.step(at: Date()) - 3
        let signIns = pending.enumerated().map { index, answer in
            let account = index % accounts
            return PendingTOTPSignIn(
                pendingCredential: answer.mfaPendingCredential, enrollmentID: enrollmentIDs[account],
                code: TOTPClient.code(key: keys[account], step: base + Int64(index / accounts)))
        }
        return (signIns, rate)
    }

    /// Runs `requests` once and decodes every answer as `T` (HTTP 200 each, or the preparation fails).
    func answers<T: Decodable>(_ name: String, _ requests: [PreparedRequest], as type: T.Type = IgnoredAnswer.self) async throws -> [T] {
        try await answersWithRate(name, requests, as: type).answers
    }

    struct IgnoredAnswer: Decodable {}

    private func answersWithRate<T: Decodable>(_ name: String, _ requests: [PreparedRequest], as type: T.Type) async throws -> (
        answers: [T], perSecond: Double
    ) {
        let plan = RequestPlan(name: name, requests: requests, capturesBodies: true)
        let report = try await driver.runOnce(plan, connections: connections)
        guard report.captured.count == plan.requests.count else {
            throw BenchmarkError("\(plan.name): \(report.captured.count) of \(plan.requests.count) answers")
        }
        let decoder = JSONDecoder()
        let decoded = try report.captured.map { response in
            guard response.status == 200, let answer = try? decoder.decode(T.self, from: Data(response.body.utf8)) else {
                throw BenchmarkError("\(plan.name): HTTP \(response.status): \(response.body.prefix(300))")
            }
            return answer
        }
        return (decoded, report.successesPerSecond)
    }

    private func signUp(_ plan: RequestPlan) async throws -> [Session] {
        let report = try await driver.runOnce(plan, connections: connections)
        guard report.captured.count == plan.requests.count else {
            throw BenchmarkError("\(plan.name): \(report.captured.count) of \(plan.requests.count) answers")
        }
        let decoder = JSONDecoder()
        return try report.captured.map { response in
            guard response.status == 200, let answer = try? decoder.decode(SignUpAnswer.self, from: Data(response.body.utf8)) else {
                throw BenchmarkError("\(plan.name): HTTP \(response.status): \(response.body.prefix(300))")
            }
            return Session(uid: answer.localId, idToken: answer.idToken, refreshToken: answer.refreshToken)
        }
    }
}
