import Foundation
import HearthCore
import Testing

/// An administrator's second factors without HTTP: created, replaced (a TOTP factor kept), imported.
@Suite struct AdministeredSecondFactorsTests {
    static let now = Date(timeIntervalSince1970: 1_700_000_000)
    static let totp = SecondFactorEnrollment(
        id: "t1", displayName: "App", enrolledAt: Date(timeIntervalSince1970: 1_600_000_000), factor: .totp(sealedSecret: "SEALED"))
    static let phone = SecondFactorEnrollment(
        id: "p1", displayName: "Work", enrolledAt: Date(timeIntervalSince1970: 1_600_000_000), factor: .phone("+15555550100"))

    @Test("created: phone factors only, a number once, ids made when absent, RFC 3339 times, the limit")
    func created() throws {
        let factors = try AdministeredSecondFactors.created(
            [
                .init(phoneNumber: "+15555550100"), .init(displayName: "again", phoneNumber: "+15555550100"),
                .init(enrollmentID: "e2", enrolledAt: "2020-01-02T03:04:05Z", phoneNumber: "+15555550101"),
            ], now: Self.now)
        #expect(factors.map(\.phoneNumber) == ["+15555550100", "+15555550101"])
        #expect(factors[0].id.count == 28 && factors[0].enrolledAt == Self.now && factors[0].displayName == nil)
        #expect(factors[1].id == "e2" && factors[1].enrolledAt == Date(timeIntervalSince1970: 1_577_934_245))
        #expect(code { try AdministeredSecondFactors.created([.init(isTOTP: true)], now: Self.now) } == .invalidMFAPhoneNumber)
        #expect(
            code { try AdministeredSecondFactors.created([.init(enrolledAt: "yesterday", phoneNumber: "+15555550100")], now: Self.now) }
                == .invalidArgument)
        let six = (0..<6).map { AdministeredSecondFactors.Entry(phoneNumber: "+1555555011\($0)") }
        #expect(code { try AdministeredSecondFactors.created(six, now: Self.now) } == .secondFactorLimitExceeded)
    }

    @Test("replacing: a listed TOTP factor kept as it is, a phone factor's time kept, ids required and unique, nothing listed is nothing left")
    func replacing() throws {
        let existing = [Self.phone, Self.totp]
        let replaced = try AdministeredSecondFactors.replacing(
            existing, with: [.init(enrollmentID: "t1", isTOTP: true), .init(enrollmentID: "p1", phoneNumber: "+15555550100")], now: Self.now)
        #expect(
            replaced == [Self.totp, SecondFactorEnrollment(id: "p1", displayName: nil, enrolledAt: Self.phone.enrolledAt, factor: Self.phone.factor)])
        #expect(try AdministeredSecondFactors.replacing(existing, with: [], now: Self.now).isEmpty)
        func refused(_ entries: [AdministeredSecondFactors.Entry]) -> HearthError.Code? {
            code { try AdministeredSecondFactors.replacing(existing, with: entries, now: Self.now) }
        }
        #expect(refused([.init(phoneNumber: "+15555550102")]) == .invalidMFAEnrollmentID)
        #expect(refused([.init(enrollmentID: "", phoneNumber: "+15555550102")]) == .invalidMFAEnrollmentID)
        #expect(refused([.init(enrollmentID: "x", phoneNumber: "15555550102")]) == .invalidMFAPhoneNumber)
        #expect(refused([.init(enrollmentID: "p1", isTOTP: true)]) == .mfaEnrollmentNotFound)
        #expect(refused([.init(isTOTP: true)]) == .invalidMFAEnrollmentID)
        #expect(
            refused([.init(enrollmentID: "x", phoneNumber: "+15555550102"), .init(enrollmentID: "x", phoneNumber: "+15555550103")])
                == .duplicateMFAEnrollmentID)
    }

    @Test("imported: Identity Toolkit's per-user messages")
    func imported() {
        func message(_ entries: [AdministeredSecondFactors.Entry], email: String? = "a@example.com", verified: Bool = true) -> String? {
            if case .failure(let failure) = AdministeredSecondFactors.imported(entries, email: email, emailVerified: verified, now: Self.now) {
                return failure.message
            }
            return nil
        }
        let one = [AdministeredSecondFactors.Entry(phoneNumber: "+15555550100")]
        #expect(message(one) == nil)
        #expect(message([], email: nil, verified: false) == nil)
        #expect(message(one, email: nil) == "Second factor account requires email to be presented.")
        #expect(message(one, verified: false) == "Second factor account requires email to be verified.")
        #expect(message([.init(enrollmentID: "t", isTOTP: true)]) == "Second factor not supported.")
        #expect(message([.init(phoneNumber: "0100")]) == "Phone number format is invalid")
        #expect(
            message([.init(enrollmentID: "a", phoneNumber: "+15555550100"), .init(enrollmentID: "a", phoneNumber: "+15555550101")])
                == "Enrollment id already exists.")
    }

    private func code(_ body: () throws -> [SecondFactorEnrollment]) -> HearthError.Code? {
        do {
            _ = try body()
            return nil
        } catch let error as HearthError {
            return error.code
        } catch {
            return nil
        }
    }
}
