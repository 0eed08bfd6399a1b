import Foundation
import HearthCore
import HearthTesting
import Testing

/// `PhoneAuthProvider` from C++: the programs of Tests/CppSeeds/Phone (Firebase 11 and later) and PhoneLegacy
/// (Firebase 10), built by SwiftPM from phone_checks.h, run against a live development-mode server. Codes come from
/// the server's SMS outbox (the emulator's `verificationCodes` listing, through `sms-outbox`) or are the fixed codes
/// of the server's test numbers.
@Suite struct CppPhoneTests {
    static let programs = ["hearth-cpp-phone", "hearth-cpp-phone-legacy"]
    static let testNumbers = ["+16505551234": "123456", "+16505550000": "000000", "+16505559999": "999999"]

    @Test(
        "VerifyPhoneNumber → OnCodeSent, sign-up and sign-in with the SMS code, the code's and the number's errors (NUL and control characters too), listeners' lifetimes, link, number in use, reauthenticate, UpdatePhoneNumberCredential, unlink",
        arguments: programs)
    func phone(_ name: String) async throws {
        let program = try CppSeedTests.executable(name)
        try await withLiveHearth({ $0.signIn.testPhoneNumbers = Self.testNumbers }) { live in
            try await Self.withHome { home in
                let run = try await CppProgram.run(program, ["phone"], environment: try Self.environment(live, home: home))
                #expect(run.status == 0, "\(run.output)")
                #expect(!run.output.contains("FAIL"), "\(run.output)")
                #expect(run.output.contains("all passed"), "\(run.output)")
            }
            // What the program did, as the server stored it: the SMS user kept its number, the e-mail user lost its.
            let smsUser = try #require(try await live.services.store.user(phoneNumber: "+919876543210"))
            #expect(smsUser.email == nil)
            #expect(try await live.services.store.user(email: "cpp-phone@example.com")?.phoneNumber == nil)
        }
    }

    @Test(
        "the server's sending limits reach the listener as kAuthErrorTooManyRequests and kAuthErrorQuotaExceeded; a stopped server as kAuthErrorNetworkRequestFailed",
        arguments: programs)
    func limits(_ name: String) async throws {
        let program = try CppSeedTests.executable(name)
        let live = try await LiveHearth.start({
            $0.signIn.testPhoneNumbers = Self.testNumbers
            $0.abuse.limitsEnabled = true
            $0.abuse.limits.phoneCodesPerNumber = RateLimit("phone-codes-per-number", limit: 2, window: 3_600)
            $0.abuse.limits.phoneCodesPerProject = RateLimit("phone-codes-per-project", limit: 3, window: 3_600)
        })
        do {
            try await Self.withHome { home in
                let environment = try Self.environment(live, home: home)
                let limited = try await CppProgram.run(program, ["limits"], environment: environment)
                #expect(limited.status == 0 && limited.output.contains("all passed"), "\(limited.output)")
                try await live.stop()
                let offline = try await CppProgram.run(program, ["offline"], environment: environment)
                #expect(offline.status == 0 && offline.output.contains("all passed"), "\(offline.output)")
            }
        } catch {
            try? await live.stop()
            throw error
        }
    }

    /// A home of the program's own (HearthAuth stores the signed-in user there), removed afterwards.
    static func withHome(_ body: (URL) async throws -> Void) async throws {
        let home = FileManager.default.temporaryDirectory.appendingPathComponent("hearth-cpp-phone-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: home) }
        try await body(home)
    }

    static func environment(_ live: LiveHearth, home: URL) throws -> [String: String] {
        let reader = URL(fileURLWithPath: #filePath).deletingLastPathComponent().appendingPathComponent("sms-outbox").path
        guard FileManager.default.isExecutableFile(atPath: reader) else { throw HarnessError("\(reader) is not executable") }
        var environment = ProcessInfo.processInfo.environment
        environment.merge([
            "HEARTH_SERVER_URL": live.baseURL, "HEARTH_API_KEY": live.apiKey, "HEARTH_PROJECT_ID": live.projectID,
            "HOME": home.path, "XDG_DATA_HOME": home.appendingPathComponent("data").path, "PHONE_SMS_READER": reader,
        ]) { _, new in new }
        return environment
    }
}
