import Foundation

/// E-mail and password credentials.
public enum EmailAuthProvider {
    /// `"password"`
    public static let id = EmailAuthProviderID

    /// A credential to sign in with, link, or re-authenticate with an e-mail address and password.
    public static func credential(withEmail email: String, password: String) -> AuthCredential {
        EmailAuthCredential(email: email, password: password)
    }

    /// A credential to sign in with, link, or re-authenticate with an e-mail sign-in link, the link the user
    /// received from ``Auth/sendSignInLink(toEmail:actionCodeSettings:)``. Linking it makes an anonymous user an
    /// e-mail user with a verified address.
    public static func credential(withEmail email: String, link: String) -> AuthCredential {
        EmailAuthCredential(email: email, link: link)
    }
}

/// Google Sign-In credentials.
public enum GoogleAuthProvider {
    /// `"google.com"`
    public static let id = GoogleAuthProviderID

    /// A credential from Google Sign-In's ID token and access token.
    public static func credential(withIDToken idToken: String, accessToken: String) -> AuthCredential {
        OAuthCredential(providerID: id, idToken: idToken, accessToken: accessToken.isEmpty ? nil : accessToken)
    }
}

/// Facebook Login credentials.
public enum FacebookAuthProvider {
    /// `"facebook.com"`
    public static let id = FacebookAuthProviderID

    /// A credential from a Facebook access token.
    public static func credential(withAccessToken accessToken: String) -> AuthCredential {
        OAuthCredential(providerID: id, accessToken: accessToken)
    }
}

/// Twitter (X) credentials: an OAuth 1.0a token and its secret.
public enum TwitterAuthProvider {
    /// `"twitter.com"`
    public static let id = TwitterAuthProviderID

    /// A credential from a Twitter access token and token secret.
    public static func credential(withToken token: String, secret: String) -> AuthCredential {
        OAuthCredential(providerID: id, accessToken: token, secret: secret)
    }
}

/// GitHub credentials.
public enum GitHubAuthProvider {
    /// `"github.com"`
    public static let id = GitHubAuthProviderID

    /// A credential from a GitHub OAuth access token.
    public static func credential(withToken token: String) -> AuthCredential {
        OAuthCredential(providerID: id, accessToken: token)
    }
}
