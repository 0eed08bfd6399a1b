/// Why the redirect handler could not finish a browser sign-in, in the terms the app is told
/// (`firebaseError` on its return URL; see docs/browser-sign-in.md).
public enum AuthorizationFailure: Error, Sendable, Equatable {
    /// The person cancelled or declined at the provider (`access_denied`, Apple's `user_cancelled_authorize`,
    /// Twitter's `denied`). The app shows nothing alarming: `auth/web-context-cancelled`.
    case cancelled
    /// The provider did not accept Hearth's client id or secret (`invalid_client`): a configuration problem.
    case invalidClient(String)
    /// The provider could not be reached or answered nonsense.
    case network(String)
    /// The provider's answer itself cannot be trusted (a SAML response that fails verification): what Firebase answers
    /// `INVALID_IDP_RESPONSE` for, `auth/invalid-credential` to the app.
    case invalidResponse(String)
    /// Anything else the provider refused (an expired code, a PKCE mismatch, an error redirect), with its words.
    case refused(String)

    /// The Firebase web error code the app receives.
    public var firebaseCode: String {
        switch self {
        case .cancelled: "auth/web-context-cancelled"
        case .invalidClient: "auth/invalid-oauth-client-id"
        case .network: "auth/network-request-failed"
        case .invalidResponse: "auth/invalid-credential"
        case .refused: "auth/internal-error"
        }
    }

    /// A message for the app's developer; never holds a secret.
    public var message: String {
        switch self {
        case .cancelled: "The interaction was cancelled by the user."
        case .invalidClient(let detail): "The OAuth client ID provided is either invalid or does not match the specified API key. \(detail)"
        case .network(let detail): "A network error occurred while contacting the identity provider. \(detail)"
        case .invalidResponse(let detail): "The supplied auth credential is malformed or has expired. \(detail)"
        case .refused(let detail): "The identity provider refused the sign-in. \(detail)"
        }
    }
}
