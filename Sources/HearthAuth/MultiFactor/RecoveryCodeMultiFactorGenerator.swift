import Foundation
import HearthWire

/// The factor id of a recovery code (a Hearth extension): `"recovery_code"`.
public let RecoveryCodeMultiFactorID = "recovery_code"

/// A Hearth extension, not in FirebaseAuth: finishes a sign-in with one of the account's recovery codes instead of a
/// second factor, when the server allows recovery codes (`mfa.recoveryCodesEnabled`). A user makes a set with
/// ``MultiFactor/generateRecoveryCodes()``; each code works once.
///
/// ```swift
/// try await resolver.resolveSignIn(with: RecoveryCodeMultiFactorGenerator.assertion(withRecoveryCode: "ABCD-EFGH-JKLM"))
/// ```
public enum RecoveryCodeMultiFactorGenerator {
    /// The proof of a recovery code, for ``MultiFactorResolver/resolveSignIn(with:)`` only.
    public static func assertion(withRecoveryCode recoveryCode: String) -> RecoveryCodeMultiFactorAssertion {
        RecoveryCodeMultiFactorAssertion(recoveryCode: recoveryCode)
    }
}

/// The proof of a recovery code; see ``RecoveryCodeMultiFactorGenerator``.
public final class RecoveryCodeMultiFactorAssertion: MultiFactorAssertion, @unchecked Sendable {
    let recoveryCode: String

    init(recoveryCode: String) {
        self.recoveryCode = recoveryCode
        super.init(factorID: RecoveryCodeMultiFactorID)
    }

    override func signInRequest(pendingCredential: String) throws -> FinalizeMFASignInRequest {
        FinalizeMFASignInRequest(
            mfaPendingCredential: pendingCredential, recoveryCodeVerificationInfo: MFARecoveryCodeVerificationInfo(recoveryCode: recoveryCode))
    }
}
