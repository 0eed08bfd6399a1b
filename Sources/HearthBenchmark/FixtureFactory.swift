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
