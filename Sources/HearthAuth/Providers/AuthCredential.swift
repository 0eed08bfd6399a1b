import Foundation

/// A credential from an identity provider or an e-mail and password, to sign in, link or re-authenticate with.
///
/// Make one with a provider's `credential(…)` function (``EmailAuthProvider``, ``GoogleAuthProvider``,
/// ``OAuthProvider``, …). Credentials are immutable and may be kept and used later.
public class AuthCredential: @unchecked Sendable {
    /// The provider id: `"password"`, `"google.com"`, `"apple.com"`, …
    public let provider: String

    init(provider: String) {
        self.provider = provider
    }
}

/// An e-mail address and password (FirebaseAuth's internal `EmailAuthCredential`).
final class EmailAuthCredential: AuthCredential, @unchecked Sendable {
    let email: String
    let password: String

    init(email: String, password: String) {
        self.email = email
        self.password = password
        super.init(provider: EmailAuthProviderID)
    }
}
