/// Why the sandbox SAML IdP refused a request or could not sign.
public enum SandboxSAMLError: Error, Sendable, Hashable, CustomStringConvertible {
    /// The AuthnRequest could not be read: why.
    case invalidRequest(String)
    /// libxmlsec1 could not sign (or the key could not be made): why.
    case signingFailed(String)

    public var description: String {
        switch self {
        case .invalidRequest(let why): "the SAML AuthnRequest is invalid: \(why)"
        case .signingFailed(let why): "the sandbox SAML IdP could not sign: \(why)"
        }
    }
}
