import Foundation
import HearthWire

extension User {
    /// The user's second factors: what is enrolled, and enrolling and removing factors.
    public var multiFactor: MultiFactor { MultiFactor(user: self) }
}

/// A user's second factors, as FirebaseAuth's `MultiFactor` (``User/multiFactor``).
///
/// Enrolling needs a verified e-mail (``AuthErrorCode/unverifiedEmail``), a first factor other than anonymous,
/// phone or custom token (``AuthErrorCode/unsupportedFirstFactor``), a recent sign-in
/// (``AuthErrorCode/requiresRecentLogin``) and a server that allows the factor's kind
/// (``AuthErrorCode/operationNotAllowed``); an account has at most five factors
/// (``AuthErrorCode/maximumSecondFactorCountExceeded``). Once a factor is enrolled, every sign-in of the account asks
/// for one: see ``MultiFactorResolver``.
public final class MultiFactor: Sendable {
    let user: User

    init(user: User) {
        self.user = user
    }

    /// The enrolled factors, as the last sign-in or ``User/reload()`` read them.
    public var enrolledFactors: [MultiFactorInfo] {
        (user.snapshot.mfaEnrollments ?? []).compactMap(MultiFactorInfo.make)
    }

    // MARK: Sessions

    /// A session for enrolling a factor, for ``PhoneAuthProvider/verifyPhoneNumber(_:uiDelegate:multiFactorSession:)``
    /// or ``TOTPMultiFactorGenerator/generateSecret(with:)``. Makes no call.
    public func getSessionWithCompletion(_ completion: (@MainActor @Sendable (MultiFactorSession?, (any Error)?) -> Void)?) {
        complete(completion) { try await self.session() }
    }

    public func session() async throws -> MultiFactorSession {
        MultiFactorSession(.enrollment(user))
    }

    // MARK: Enrolling

    /// Enrolls the factor `assertion` proves (`mfaEnrollment:finalize`). The user takes the new tokens and is
    /// reloaded, so ``enrolledFactors`` has the factor. A wrong code fails with
    /// ``AuthErrorCode/invalidVerificationCode``.
    public func enroll(
        with assertion: MultiFactorAssertion, displayName: String?, completion: (@MainActor @Sendable ((any Error)?) -> Void)?
    ) {
        complete(completion) { try await self.enroll(with: assertion, displayName: displayName) }
    }

    public func enroll(with assertion: MultiFactorAssertion, displayName: String?) async throws {
        let engine = user.engine
        let response: MFATokensResponse = try await engine.withIDToken(of: user) { token in
            var request = try assertion.enrollmentRequest(idToken: token, displayName: displayName)
            request.tenantId = user.tenantID
            return try await engine.backend.call(.finalizeMFAEnrollment, request)
        }
        try await user.adopt(idToken: response.idToken, refreshToken: response.refreshToken, expiresIn: nil)
    }

    // MARK: Removing

    /// Removes an enrolled factor (`mfaEnrollment:withdraw`); the user takes the new tokens and is reloaded. An
    /// unknown factor fails with ``AuthErrorCode/multiFactorInfoNotFound``.
    public func unenroll(with factorInfo: MultiFactorInfo, completion: (@MainActor @Sendable ((any Error)?) -> Void)?) {
        unenroll(withFactorUID: factorInfo.uid, completion: completion)
    }

    public func unenroll(with factorInfo: MultiFactorInfo) async throws {
        try await unenroll(withFactorUID: factorInfo.uid)
    }

    /// Removes the enrolled factor whose ``MultiFactorInfo/uid`` is `factorUID`.
    public func unenroll(withFactorUID factorUID: String, completion: (@MainActor @Sendable ((any Error)?) -> Void)?) {
        complete(completion) { try await self.unenroll(withFactorUID: factorUID) }
    }

    public func unenroll(withFactorUID factorUID: String) async throws {
        let engine = user.engine
        let response: MFATokensResponse = try await engine.withIDToken(of: user) { token in
            var request = WithdrawMFARequest(idToken: token, mfaEnrollmentId: factorUID)
            request.tenantId = user.tenantID
            return try await engine.backend.call(.withdrawMFA, request)
        }
        try await user.adopt(idToken: response.idToken, refreshToken: response.refreshToken, expiresIn: nil)
    }

    // MARK: Recovery codes (Hearth extension)

    /// A Hearth extension, not in FirebaseAuth: a new set of recovery codes (`XXXX-XXXX-XXXX`), replacing any
    /// earlier set, each good for one sign-in through ``RecoveryCodeMultiFactorGenerator``. Shown this once: the
    /// server keeps only their hashes. Needs a server that allows recovery codes (else
    /// ``AuthErrorCode/operationNotAllowed``).
    public func generateRecoveryCodes(completion: (@MainActor @Sendable ([String]?, (any Error)?) -> Void)?) {
        complete(completion) { try await self.generateRecoveryCodes() }
    }

    public func generateRecoveryCodes() async throws -> [String] {
        let engine = user.engine
        let response: GenerateRecoveryCodesResponse = try await engine.withIDToken(of: user) { token in
            try await engine.backend.call(.generateRecoveryCodes, GenerateRecoveryCodesRequest(idToken: token))
        }
        return response.recoveryCodes
    }
}
