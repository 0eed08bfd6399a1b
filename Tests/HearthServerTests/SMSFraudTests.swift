import Foundation
import HearthConfiguration
import HearthCore
import HearthServer
import HearthTesting
import Testing

/// SMS pumping (toll fraud) against phone sign-in, each attack shown failing: premium-rate and non-geographic numbers,
/// a walk through one range of numbers, and the project's budget with its gauge and warning.
@Suite("SMS fraud defences")
struct SMSFraudTests {
    static func sendError(_ client: FirebaseTestClient, _ number: String) async throws -> String? {
        let result = try await client.post("/v1/accounts:sendVerificationCode", ["phoneNumber": .string(number)])
        return result.status == .ok ? nil : result.errorMessage
    }

    @Test("premium-rate (UK 09, US 900, +979) and non-geographic (+882, +881 satellite) numbers get no SMS; ordinary ones do")
    func premiumRate() async throws {
        try await withLiveHearth { live in
            let client = FirebaseTestClient(baseURL: live.baseURL)
            // Firebase's one string for a number it will not text; the log's reason says which rule refused it.
            let refusal = "INVALID_PHONE_NUMBER : Invalid format."
            for number in ["+449012345678", "+19002345678", "+979123456789", "+882345678901", "+8816123456789"] {
                let error = try await Self.sendError(client, number)
                #expect(error == refusal, "\(number): \(error ?? "sent")")
                // Numbers of a possible length, refused as premium-rate or non-geographic, not as malformed.
                #expect(PhoneRegions.isPremiumRate(number) || PhoneRegions.region(of: number) == PhoneRegions.nonGeographic, "\(number)")
            }
            for number in ["+447700900123", "+12025550123", "+919876543210"] {
                #expect(try await Self.sendError(client, number) == nil, "\(number)")
            }
            let sent = try await client.raw("/emulator/v1/projects/\(live.projectID)/verificationCodes", method: .get).text
            #expect(!sent.contains("+4490") && !sent.contains("+1900") && !sent.contains("+979") && !sent.contains("+88"))
        }
    }

    @Test("a walk through one block of 1,000 numbers stops at the per-prefix limit; another block still gets its code")
    func prefixWalk() async throws {
        try await withLiveHearth({
            $0.abuse.limitsEnabled = true
            $0.abuse.limits.phoneCodes = RateLimit("phone-codes", limit: 1_000, window: 3_600)
            $0.abuse.limits.phoneCodesPerPrefix = RateLimit("phone-codes-per-prefix", limit: 20, window: 3_600)
        }) { live in
            let client = FirebaseTestClient(baseURL: live.baseURL)
            for index in 0..<20 {
                #expect(try await Self.sendError(client, "+91987654" + String(format: "%04d", 3_000 + index)) == nil)
            }
            let stopped = try await client.post("/v1/accounts:sendVerificationCode", ["phoneNumber": .string("+919876543020")])
            #expect(stopped.errorMessage == "TOO_MANY_ATTEMPTS_TRY_LATER" && stopped.headers[.retryAfter] != nil)
            #expect(try await Self.sendError(client, "+919876544000") == nil)
        }
    }

    @Test("the budget: the gauge climbs with each code, a warning at 80 %, QUOTA_EXCEEDED past it")
    func budget() async throws {
        let logs = CapturedLogs()
        let live = try await LiveHearth.start(logger: logs.logger(), providers: { _ in }) {
            $0.abuse.limitsEnabled = true
            $0.abuse.limits.phoneCodesPerProject = RateLimit("phone-codes-per-project", limit: 5, window: 3_600)
        }
        do {
            let client = FirebaseTestClient(baseURL: live.baseURL)
            for index in 0..<4 { #expect(try await Self.sendError(client, "+9198765430\(10 + index)") == nil) }
            var samples = try await MetricsTests.scrape(client).samples
            #expect(MetricsTests.value(samples, "hearth_sms_budget_used_ratio") == 0.8)
            #expect(!logs.text.contains("The SMS budget is nearly spent"))
            #expect(try await Self.sendError(client, "+919876543020") == nil)
            #expect(logs.text.contains("The SMS budget is nearly spent"))
            #expect(try await Self.sendError(client, "+919876543021") == "QUOTA_EXCEEDED")
            samples = try await MetricsTests.scrape(client).samples
            #expect(MetricsTests.value(samples, "hearth_sms_budget_used_ratio") == 1.2)
            try await live.stop()
        } catch {
            try? await live.stop()
            throw error
        }
    }
}
