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

/// An e-mail address with a password or a sign-in link (FirebaseAuth's internal `EmailAuthCredential`).
final class EmailAuthCredential: AuthCredential, @unchecked Sendable {
    enum Proof: Sendable {
        case password(String)
        /// An e-mail sign-in link (``Auth/sendSignInLink(toEmail:actionCodeSettings:)``).
        case link(String)
    }

    let email: String
    let proof: Proof

    init(email: String, password: String) {
        self.email = email
        proof = .password(password)
        super.init(provider: EmailAuthProviderID)
    }

    init(email: String, link: String) {
        self.email = email
        proof = .link(link)
        super.init(provider: EmailAuthProviderID)
    }
}
