import Foundation

/// What identifies a second factor's enrolment or sign-in to the server, as FirebaseAuth's `MultiFactorSession`:
/// from ``MultiFactor/session()`` (an enrolment by a signed-in user) or ``MultiFactorResolver/session`` (a sign-in
/// waiting for its second factor). Hand it to ``PhoneAuthProvider/verifyPhoneNumber(_:uiDelegate:multiFactorSession:)``
/// or ``TOTPMultiFactorGenerator/generateSecret(with:)``.
public final class MultiFactorSession: Sendable {
    enum Kind: Sendable {
        /// An enrolment: the user's ID token goes with each call.
        case enrollment(User)
        /// A sign-in: the first factor's `mfaPendingCredential`.
        case signIn(pendingCredential: String, engine: AuthEngine)
    }

    let kind: Kind

    init(_ kind: Kind) {
        self.kind = kind
    }

    var engine: AuthEngine {
        switch kind {
        case .enrollment(let user): user.engine
        case .signIn(_, let engine): engine
        }
    }
}
