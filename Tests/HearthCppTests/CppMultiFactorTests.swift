import Foundation
import HearthCore
import HearthTesting
import Testing

#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// An account with a second factor, signed in to from C++ (Tests/CppSeeds/Support/include/phone_checks.h,
/// `second-factor`): Firebase's C++ API has no multi-factor calls, so a password sign-in fails as it does there.
@Suite struct CppMultiFactorTests {
    @Test(
        "a password sign-in of an account with a second factor: kAuthErrorUnimplemented with FirebaseAuth's message, nobody signed in",
        arguments: CppPhoneTests.programs)
    func secondFactorRequired(_ name: String) async throws {
        let program = try CppSeedTests.executable(name)
        try await withLiveHearth({ $0.signIn.testPhoneNumbers = CppPhoneTests.testNumbers }) { live in
            let email = "cpp-mfa@example.com"
            let password = "cpp-mfa-password"
            let uid = try await Self.signUp(live, email: email, password: password)
            let now = live.clock.now
            try await live.services.store.updateUser(uid: uid, session: nil) { user in
                user.emailVerified = true
                user.secondFactors = [
                    SecondFactorEnrollment(id: SecondFactorEnrollment.makeID(), displayName: "Desk", enrolledAt: now, factor: .phone("+16505551234"))
                ]
            }
            try await CppPhoneTests.withHome { home in
                let run = try await CppProgram.run(
                    program, ["second-factor", email, password], environment: try CppPhoneTests.environment(live, home: home))
                #expect(run.status == 0, "\(run.output)")
                #expect(!run.output.contains("FAIL"), "\(run.output)")
                #expect(run.output.contains("all passed"), "\(run.output)")
            }
        }
    }

    /// `accounts:signUp` over REST: the new account's uid.
    static func signUp(_ live: LiveHearth, email: String, password: String) async throws -> String {
        struct Answer: Decodable { var localId: String }
        let url = try #require(URL(string: "\(live.baseURL)/identitytoolkit.googleapis.com/v1/accounts:signUp?key=\(live.apiKey)"))
        var request = URLRequest(url: url)
        request.httpMethod = "POST"
        request.setValue("application/json", forHTTPHeaderField: "Content-Type")
        request.httpBody = try JSONSerialization.data(withJSONObject: ["email": email, "password": password, "returnSecureToken": true])
        let (data, response) = try await URLSession.shared.data(for: request)
        try #require((response as? HTTPURLResponse)?.statusCode == 200, "\(String(decoding: data, as: UTF8.self))")
        return try JSONDecoder().decode(Answer.self, from: data).localId
    }
}
