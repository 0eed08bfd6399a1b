import Foundation

/// Thrown by ``SignInCompletion`` instead of a session when the account has second factors: the first factor
/// passed, and the client is to finish with `mfaSignIn:finalize`. Sign-in endpoints answer it with
/// `mfaPendingCredential` and `mfaInfo` (HTTP 200, no tokens); clients raise their second-factor-required error.
public struct SecondFactorRequired: Error, Sendable {
    /// The account as written by the first factor.
    public var user: UserRecord
    /// The handle `mfaSignIn:start` and `finalize` take.
    public var pendingCredential: String

    public init(user: UserRecord, pendingCredential: String) {
        self.user = user
        self.pendingCredential = pendingCredential
    }
}
