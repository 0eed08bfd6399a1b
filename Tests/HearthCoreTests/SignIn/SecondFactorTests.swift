import Foundation
import HearthCore
import Testing

/// The completion step with second factors, without HTTP or SQL: which sign-ins stop at the first factor, what they
/// write, and the TOTP, recovery-code and masking rules.
@Suite struct SecondFactorCompletionTests {
    static func enrolled(_ kit: SignInKit) async throws -> UserRecord {
        let signedIn = try await kit.signUp(.init(email: "ada@example.com", password: "secret1"), from: kit.origin)
        return try await kit.store.updateUser(uid: signedIn.user.uid, session: nil) {
            $0.secondFactors = [SecondFactorEnrollment(id: "e1", displayName: nil, enrolledAt: kit.clock.now, factor: .phone("+919876543210"))]
        }
    }

    @Test("a password sign-in of an account with a factor: no session, the last sign-in unchanged, a pending credential stored")
    func passwordStops() async throws {
        let kit = SignInKit()
        let user = try await Self.enrolled(kit)
        let sessions = kit.store.sessionCount
        kit.clock.advance(by: 60)
        do {
            _ = try await kit.passwordSignIn(email: "ada@example.com", password: "secret1", from: kit.origin)
            Issue.record("signed in without the second factor")
        } catch let pending as SecondFactorRequired {
            #expect(pending.user.uid == user.uid && pending.user.lastLoginAt == user.lastLoginAt)
            let record = try #require(try await kit.store.multiFactorSession(key: VerificationCode.key(pending.pendingCredential)))
            #expect(record.kind == .signIn && record.uid == user.uid && record.attemptsLeft == SignInCompletion.pendingAttempts)
            #expect(record.payload.contains("\"provider\":\"password\""))
        }
        #expect(kit.store.sessionCount == sessions)
    }

    @Test("what does not stop: a custom token, a link to a signed-in account, a sign-in that passed a factor, an account without one")
    func exemptions() {
        let user = UserRecord(
            uid: "u", createdAt: Date(), validSince: Date(),
            secondFactors: [SecondFactorEnrollment(id: "e1", displayName: nil, enrolledAt: Date(), factor: .totp(sealedSecret: "s"))])
        let origin = AuditOrigin(address: "203.0.113.7")
        #expect(SignInCompletion.needsSecondFactor(user, .init(provider: "password", origin: origin)))
        #expect(SignInCompletion.needsSecondFactor(user, .init(provider: "google.com", origin: origin)))
        #expect(!SignInCompletion.needsSecondFactor(user, .init(provider: "custom", origin: origin)))
        #expect(!SignInCompletion.needsSecondFactor(user, .init(provider: "google.com", event: .linked, origin: origin)))
        #expect(!SignInCompletion.needsSecondFactor(user, .init(provider: "password", origin: origin, continuesSession: true)))
        #expect(
            !SignInCompletion.needsSecondFactor(
                user, .init(provider: "password", origin: origin, secondFactor: SecondFactorUse(kind: .totp, enrollmentID: "e1"))))
        var plain = user
        plain.secondFactors = []
        #expect(!SignInCompletion.needsSecondFactor(plain, .init(provider: "password", origin: origin)))
    }

    @Test("masking, enrolment ids, a session's stored factor, recovery-code normalising")
    func rules() {
        #expect(SecondFactorEnrollment.masked("+16505551234") == "+*******1234")
        #expect(SecondFactorEnrollment.masked("+1234") == "+1234")
        #expect(SecondFactorEnrollment.makeID().count == 28)
        #expect(SecondFactorUse(stored: "totp:abc") == SecondFactorUse(kind: .totp, enrollmentID: "abc"))
        #expect(SecondFactorUse(stored: "sms:abc") == nil && SecondFactorUse(stored: "totp") == nil)
        let codes = RecoveryCodes.make()
        let hashes = codes.compactMap { RecoveryCodes.hash($0, uid: "u") }
        #expect(hashes.count == RecoveryCodes.count)
        #expect(RecoveryCodes.matchingHash(codes[3].lowercased().replacingOccurrences(of: "-", with: " "), uid: "u", in: hashes) == hashes[3])
        #expect(RecoveryCodes.matchingHash(codes[3], uid: "someone-else", in: hashes) == nil)
        #expect(RecoveryCodes.hash("0000-0000-0000", uid: "u") == nil)  // 0 is not in the alphabet
        #expect(RecoveryCodes.hash("AAAA-AAAA-AAA\u{0}", uid: "u") == nil)
    }

    /// A fixed TOTP: the code is the step's last six digits, so the window's arithmetic is visible.
    struct StepCodes: TOTPAlgorithm {
        func code(secret: String, step: Int64) -> String { String(format: "%06d", step % 1_000_000) }
        func sharedSecretKey(for secret: String) -> String { secret }
        func authenticatorURL(secret: String, accountName: String, issuer: String) -> String { "" }
    }

    @Test("TOTP window: the current period and the adjacent ones, no further; malformed codes never match")
    func totpWindow() {
        let codes = TOTPCodes(algorithm: StepCodes())
        let now = Date(timeIntervalSince1970: 30 * 1_000_100 + 7)
        let current = TOTPCodes.step(at: now)
        #expect(codes.matchingStep(String(format: "%06d", current % 1_000_000), secret: "s", at: now, adjacentIntervals: 0) == current)
        #expect(codes.matchingStep(String(format: "%06d", (current - 2) % 1_000_000), secret: "s", at: now, adjacentIntervals: 2) == current - 2)
        #expect(codes.matchingStep(String(format: "%06d", (current - 3) % 1_000_000), secret: "s", at: now, adjacentIntervals: 2) == nil)
        #expect(codes.matchingStep("12345", secret: "s", at: now, adjacentIntervals: 10) == nil)
        #expect(codes.matchingStep("١٢٣٤٥٦", secret: "s", at: now, adjacentIntervals: 10) == nil)
        #expect(TOTPCodes.makeSecret().count == TOTPCodes.secretLength)
    }
}
