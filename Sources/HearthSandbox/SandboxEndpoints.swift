/// Everything Hearth must be configured with to use a sandbox instead of the real providers: the URL of each
/// endpoint it calls, the issuers it must accept, and the relying-party credentials the sandbox expects.
///
/// Obtain it from ``Sandbox/endpoints()`` after ``Sandbox/baseURL`` is final. Every `baseURL` field is the
/// stand-in for the provider's real host (e.g. `https://api.github.com` → `<sandbox>/github`); the real paths
/// follow it unchanged. Each provider's folder declares its type and accessor (`endpoints.yahoo`).
public struct SandboxEndpoints: Sendable {
    public struct OIDC: Sendable {
        /// The name in `oidc.<name>`.
        public var name: String
        public var issuer: String
        /// `<issuer>/.well-known/openid-configuration`.
        public var discoveryURL: String
        public var jwksURL: String
        public var client: SandboxCredentials.OIDCClient
    }

    /// Each provider's endpoints, by provider id.
    var values: [String: any Sendable]
    /// Generic OIDC issuers by name.
    public var oidc: [String: OIDC]
    /// Each provider's flat pairs (see ``flattened``).
    var flattenedValues: [String: String]

    /// The endpoints of `provider`, of the type its folder declares.
    func value<Value>(_ provider: SandboxProvider, as type: Value.Type) -> Value {
        guard let value = values[provider.firebaseProviderID] as? Value else {
            preconditionFailure("no \(Value.self) for \(provider) (SandboxRegistry.all)")
        }
        return value
    }

    /// The endpoints as flat `provider.setting` → value pairs (URLs, issuers, ids and secrets), e.g.
    /// `apple.jwksURL`, `google.clientIDs`, `oidc.sandbox.issuer`; lists are comma-separated.
    public var flattened: [String: String] {
        var values = flattenedValues
        for (name, issuer) in oidc {
            values["oidc.\(name).issuer"] = issuer.issuer
            values["oidc.\(name).discoveryURL"] = issuer.discoveryURL
            values["oidc.\(name).jwksURL"] = issuer.jwksURL
            values["oidc.\(name).clientID"] = issuer.client.clientID
            values["oidc.\(name).clientSecret"] = issuer.client.clientSecret
        }
        return values
    }
}
