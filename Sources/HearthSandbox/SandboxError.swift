/// Mistakes in how a test or the server uses the sandbox (never returned to HTTP clients).
public enum SandboxError: Error, Sendable, Hashable, CustomStringConvertible {
    /// A token was asked for an identity of another provider.
    case wrongProvider(expected: SandboxProvider, got: SandboxProvider)
    /// No generic OIDC issuer with this name was registered (see ``Sandbox/addOIDCIssuer(name:)``).
    case unknownOIDCIssuer(String)
    /// The identity lacks a field this token needs (e.g. a Microsoft identity without a tenant).
    case incompleteIdentity(String)

    public var description: String {
        switch self {
        case .wrongProvider(let expected, let got): "identity is for \(got), expected \(expected)"
        case .unknownOIDCIssuer(let name): "no OIDC issuer named \(name) is registered in the sandbox"
        case .incompleteIdentity(let detail): "incomplete identity: \(detail)"
        }
    }
}
