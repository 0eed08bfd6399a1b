extension Sandbox {
    /// The URLs, issuers and credentials to configure Hearth with, for the current ``baseURL``.
    public func endpoints() -> SandboxEndpoints {
        let base = baseURL
        var values: [String: any Sendable] = [:]
        var flattened: [String: String] = [:]
        for definition in SandboxRegistry.all {
            guard let endpoints = definition.endpoints?(self, "\(base)/\(definition.pathPrefix)") else { continue }
            values[definition.id] = endpoints.value
            flattened.merge(endpoints.flattened) { first, _ in first }
        }
        let clients = withState { $0.oidcClients }
        let oidc = Dictionary(
            uniqueKeysWithValues: clients.map { name, client in
                let issuer = "\(base)/\(SandboxProvider.oidc(name).pathPrefix)"
                return (
                    name,
                    SandboxEndpoints.OIDC(
                        name: name, issuer: issuer, discoveryURL: "\(issuer)/.well-known/openid-configuration", jwksURL: "\(issuer)/jwks",
                        client: client)
                )
            })
        return SandboxEndpoints(values: values, oidc: oidc, flattenedValues: flattened)
    }
}
