import Foundation
import HearthAdmin
import HearthCore
import HearthTesting
import Testing

/// HearthAdmin's `multiFactor` against a live server: users created with phone factors, read back as
/// `multiFactor.enrolledFactors`, updated (a TOTP factor kept by its uid), cleared with an empty list; imports.
@Suite("HearthAdmin: second factors")
struct MultiFactorTests {
    @Test("create with phone factors, read them, replace them keeping a TOTP factor, clear them with an empty list; the errors")
    func enrolledFactors() async throws {
        try await withLiveHearth { live in
            let admin = try makeAdmin(live)
            let enrolled = Date(timeIntervalSince1970: 1_506_044_998)
            let ada = try await admin.createUser(
                NewUser(
                    uid: "ada", email: "ada@example.com", emailVerified: true,
                    multiFactor: MultiFactorUpdate(enrolledFactors: [
                        .phone("+15555550100", displayName: "Work phone"), .phone("+15555550101", uid: "home", enrollmentTime: enrolled),
                    ])))
            let factors = try #require(ada.multiFactor?.enrolledFactors)
            #expect(factors.map(\.phoneNumber) == ["+15555550100", "+15555550101"])
            #expect(factors.map(\.factorID) == ["phone", "phone"])
            #expect(factors[0].displayName == "Work phone" && factors[0].uid.count == 28 && factors[0].enrollmentTime != nil)
            #expect(factors[1].uid == "home" && factors[1].enrollmentTime == enrolled)
            #expect(try await admin.createUser(NewUser(uid: "plain")).multiFactor == nil)

            // A TOTP factor the user enrolled: an update keeps it by its uid, without its secret ever leaving the server.
            let totp = SecondFactorEnrollment(id: "app", displayName: "Authenticator", enrolledAt: enrolled, factor: .totp(sealedSecret: "SEALED"))
            try await live.services.store.updateUser(uid: "ada", session: nil) { $0.secondFactors.append(totp) }
            let read = try #require(try await admin.user(uid: "ada").multiFactor?.enrolledFactors)
            #expect(read.map(\.factorID) == ["phone", "phone", "totp"])
            #expect(read[2].uid == "app" && read[2].phoneNumber == nil && read[2].displayName == "Authenticator")

            // Keep the home phone and the app, drop the work phone, add one.
            let kept = read.filter { $0.uid != factors[0].uid }.map(MultiFactorInfoRequest.init)
            let updated = try await admin.updateUser(
                uid: "ada", UserUpdate(multiFactor: MultiFactorUpdate(enrolledFactors: kept + [.phone("+15555550102", uid: "new")])))
            #expect(updated.multiFactor?.enrolledFactors.map(\.uid) == ["home", "app", "new"])
            #expect(updated.multiFactor?.enrolledFactors.first?.enrollmentTime == enrolled)
            #expect(try await live.services.store.user(uid: "ada")?.secondFactors.contains(totp) == true)

            #expect(
                await adminError {
                    try await admin.updateUser(
                        uid: "ada", UserUpdate(multiFactor: MultiFactorUpdate(enrolledFactors: [.phone("555-0100", uid: "x")])))
                } == .invalidPhoneNumber)
            #expect(
                await adminError {
                    try await admin.updateUser(
                        uid: "ada",
                        UserUpdate(
                            multiFactor: MultiFactorUpdate(enrolledFactors: [.phone("+15555550103", uid: "x"), .phone("+15555550104", uid: "x")])))
                } == .secondFactorUIDAlreadyExists)
            #expect(
                await adminError {
                    try await admin.updateUser(uid: "ada", UserUpdate(multiFactor: MultiFactorUpdate(enrolledFactors: [.totp(uid: "nothing")])))
                } == .multiFactorInfoNotFound)
            #expect(
                await adminError {
                    try await admin.createUser(NewUser(multiFactor: MultiFactorUpdate(enrolledFactors: [.totp(uid: "app")])))
                } == .unsupportedSecondFactor)
            let six = (0..<6).map { MultiFactorInfoRequest.phone("+1555555011\($0)") }
            #expect(
                await adminError { try await admin.createUser(NewUser(multiFactor: MultiFactorUpdate(enrolledFactors: six))) }
                    == .secondFactorLimitExceeded)

            // An empty list removes them all.
            let cleared = try await admin.updateUser(uid: "ada", UserUpdate(multiFactor: MultiFactorUpdate(enrolledFactors: [])))
            #expect(cleared.multiFactor == nil)
            #expect(try await live.services.store.user(uid: "ada")?.secondFactors.isEmpty == true)
        }
    }

    @Test("importUsers with phone factors; a user without a verified e-mail address is refused with Identity Toolkit's message")
    func importUsers() async throws {
        try await withLiveHearth { live in
            let admin = try makeAdmin(live)
            let factors = MultiFactorUpdate(enrolledFactors: [.phone("+15555550100", displayName: "Work", uid: "w1")])
            let result = try await admin.importUsers([
                ImportedUser(uid: "imp-1", email: "imp@example.com", emailVerified: true, multiFactor: factors),
                ImportedUser(uid: "imp-2", email: "imp2@example.com", multiFactor: factors),
            ])
            #expect(result.successCount == 1)
            #expect(result.errors.map(\.index) == [1])
            #expect(result.errors.map(\.message) == ["Second factor account requires email to be verified."])
            let imported = try await admin.user(uid: "imp-1")
            #expect(imported.multiFactor?.enrolledFactors.map(\.uid) == ["w1"])
            #expect(imported.multiFactor?.enrolledFactors.first?.phoneNumber == "+15555550100")
        }
    }
}
