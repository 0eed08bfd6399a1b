extension Sandbox {
    /// The URLs, issuers and credentials to configure Hearth with, for the current ``baseURL``.
    public func endpoints() -> SandboxEndpoints {
        let base = baseURL
        func url(_ provider: SandboxProvider) -> String { "\(base)/\(provider.pathPrefix)" }
        let apple = url(.apple)
        let microsoft = url(.microsoft)
        let google = url(.google)
        let facebook = url(.facebook)
        let twitter = url(.twitter)
        let yahoo = url(.yahoo)
        let clients = withState { $0.oidcClients }
        return SandboxEndpoints(
            apple: .init(
                baseURL: apple, issuer: Self.appleIssuer, jwksURL: "\(apple)/auth/keys", tokenURL: "\(apple)/auth/token",
                revokeURL: "\(apple)/auth/revoke", discoveryURL: "\(apple)/.well-known/openid-configuration",
                credentials: credentials.apple),
            microsoft: .init(
                loginBaseURL: microsoft, issuerTemplate: Self.microsoftIssuerTemplate,
                personalAccountsTenantID: SandboxMicrosoftTenant.personalAccountsTenantID, tenant: "common",
                jwksURL: "\(microsoft)/common/discovery/v2.0/keys",
                discoveryURL: "\(microsoft)/common/v2.0/.well-known/openid-configuration",
                credentials: credentials.microsoft),
            google: .init(
                baseURL: google, issuers: [Self.googleIssuer, Self.googleLegacyIssuer], jwksURL: "\(google)/oauth2/v3/certs",
                tokenInfoURL: "\(google)/tokeninfo", userInfoURL: "\(google)/oauth2/v3/userinfo",
                discoveryURL: "\(google)/.well-known/openid-configuration", credentials: credentials.google),
            facebook: .init(
                graphBaseURL: facebook, limitedLoginIssuer: Self.facebookLimitedLoginIssuer,
                limitedLoginJWKSURL: "\(facebook)/.well-known/oauth/openid/jwks/",
                limitedLoginDiscoveryURL: "\(facebook)/.well-known/openid-configuration/",
                credentials: credentials.facebook),
            github: .init(apiBaseURL: url(.github), credentials: credentials.github),
            twitter: .init(
                apiBaseURL: twitter, verifyCredentialsURL: "\(twitter)/1.1/account/verify_credentials.json",
                credentials: credentials.twitter),
            yahoo: .init(
                baseURL: yahoo, issuer: Self.yahooIssuer, discoveryURL: "\(yahoo)/.well-known/openid-configuration",
                jwksURL: "\(yahoo)/openid/v1/certs", authorizationURL: "\(yahoo)/oauth2/request_auth",
                tokenURL: "\(yahoo)/oauth2/get_token", userInfoURL: "\(yahoo)/openid/v1/userinfo",
                credentials: credentials.yahoo),
            oidc: Dictionary(
                uniqueKeysWithValues: clients.map { name, client in
                    let issuer = "\(base)/\(SandboxProvider.oidc(name).pathPrefix)"
                    return (
                        name,
                        SandboxEndpoints.OIDC(
                            name: name, issuer: issuer, discoveryURL: "\(issuer)/.well-known/openid-configuration",
                            jwksURL: "\(issuer)/jwks", client: client)
                    )
                }))
    }
}
