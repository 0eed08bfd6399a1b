import Foundation

/// The fixtures of the ``Scenario/passkey`` scenario: anonymous accounts, each with a passkey enrolled by a
/// ``PasskeyClient``, and one challenge per sign-in answered in advance.
extension FixtureFactory {
    /// `count` `passkeySignIn:finalize` bodies over `accounts` accounts (each sign-in its own challenge, issued now and
    /// good for five minutes).
    func passkeySignIns(count: Int, accounts: Int) async throws -> [PreparedRequest] {
        let sessions = try await anonymousSessions(count: accounts)
        struct Started: Decodable {
            struct Options: Decodable {
                struct User: Decodable { let id: String }
                let challenge: String
                let user: User
            }
            let credentialCreationOptions: Options
        }
        let started = try await answers(
            "starting passkey enrolments",
            sessions.map {
                PreparedRequest(
                    path: "/v2/accounts/passkeyEnrollment:start?key=bench", json: #"{"idToken":"\#($0.idToken.jsonEscaped)"}"#,
                    hostHeader: driver.hostHeader)
            }, as: Started.self)
        let clients = sessions.map { _ in PasskeyClient(origin: "http://localhost:9099") }
        _ = try await answers(
            "finishing passkey enrolments",
            zip(sessions, zip(started, clients)).map { session, enrolment in
                PreparedRequest(
                    path: "/v2/accounts/passkeyEnrollment:finalize?key=bench",
                    json:
                        #"{"idToken":"\#(session.idToken.jsonEscaped)","name":"bench","authenticatorRegistrationResponse":\#(enrolment.1.registration(challenge: enrolment.0.credentialCreationOptions.challenge))}"#,
                    hostHeader: driver.hostHeader)
            })
        struct Challenge: Decodable {
            struct Options: Decodable { let challenge: String }
            let credentialRequestOptions: Options
        }
        let challenges = try await answers(
            "starting passkey sign-ins",
            Array(
                repeating: PreparedRequest(path: "/v2/accounts/passkeySignIn:start?key=bench", json: "{}", hostHeader: driver.hostHeader),
                count: count),
            as: Challenge.self)
        return try challenges.enumerated().map { index, challenge in
            let account = index % accounts
            let assertion = try clients[account].assertion(
                challenge: challenge.credentialRequestOptions.challenge, userHandle: started[account].credentialCreationOptions.user.id)
            return PreparedRequest(
                path: Scenario.passkey.path, json: #"{"authenticatorAuthenticationResponse":\#(assertion)}"#, hostHeader: driver.hostHeader)
        }
    }
}
