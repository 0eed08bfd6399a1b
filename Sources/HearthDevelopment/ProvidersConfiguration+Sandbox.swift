import Foundation
import HearthProviders
import HearthSandbox

extension ProvidersConfiguration {
    /// Every provider switched on and pointed at a HearthSandbox, with the client IDs and secrets the
    /// sandbox expects: development mode uses it, and so do the tests. The verification code is the
    /// production code; only the URLs and credentials differ.
    public static func sandbox(_ endpoints: SandboxEndpoints, oidcNames: [String] = []) -> ProvidersConfiguration {
        var p = ProvidersConfiguration()
        func url(_ text: String) -> URL { URL(string: text) ?? URL(fileURLWithPath: "/") }

        p.apple = Apple(
            enabled: true, bundleIDs: endpoints.apple.credentials.bundleIDs, serviceIDs: [endpoints.apple.credentials.servicesID],
            jwksURL: url(endpoints.apple.jwksURL))

        p.microsoft.enabled = true
        p.microsoft.clientIDs = [endpoints.microsoft.credentials.clientID]
        p.microsoft.tenant = "common"
        p.microsoft.jwksURLTemplate = endpoints.microsoft.loginBaseURL + "/{tenant}/discovery/v2.0/keys"
        p.microsoft.discoveryURLTemplate = endpoints.microsoft.loginBaseURL + "/{tenant}/v2.0/.well-known/openid-configuration"

        p.twitter = Twitter(
            enabled: true, consumerKey: endpoints.twitter.credentials.consumerKey,
            consumerSecret: ProviderSecret(endpoints.twitter.credentials.consumerSecret), apiBaseURL: url(endpoints.twitter.apiBaseURL))

        p.google.enabled = true
        p.google.clientIDs = endpoints.google.credentials.clientIDs
        p.google.issuers = endpoints.google.issuers
        p.google.jwksURL = url(endpoints.google.jwksURL)
        p.google.userinfoURL = url(endpoints.google.userInfoURL)
        p.google.tokeninfoURL = url(endpoints.google.tokenInfoURL)

        p.facebook.enabled = true
        p.facebook.appID = endpoints.facebook.credentials.appID
        p.facebook.appSecret = ProviderSecret(endpoints.facebook.credentials.appSecret)
        p.facebook.graphBaseURL = url(endpoints.facebook.graphBaseURL)
        p.facebook.limitedLoginIssuers = [endpoints.facebook.limitedLoginIssuer]
        p.facebook.limitedLoginJWKSURL = url(endpoints.facebook.limitedLoginJWKSURL)

        p.gitHub.enabled = true
        p.gitHub.apiBaseURL = url(endpoints.github.apiBaseURL)

        p.yahoo = Yahoo(
            enabled: true, clientIDs: [endpoints.yahoo.credentials.clientID],
            clientSecret: ProviderSecret(endpoints.yahoo.credentials.clientSecret), issuer: endpoints.yahoo.issuer,
            discoveryURL: url(endpoints.yahoo.discoveryURL))

        for (name, oidc) in endpoints.oidc where oidcNames.isEmpty || oidcNames.contains(name) {
            p.oidc[name] = OIDC(issuer: oidc.issuer, clientIDs: [oidc.client.clientID], discoveryURL: url(oidc.discoveryURL))
            p.oidc[name]?.clientSecret = ProviderSecret(oidc.client.clientSecret)
        }

        // The browser flows: the sandbox's authorization pages and token endpoints, and the secrets they check.
        p.apple.teamID = endpoints.apple.credentials.teamID
        p.apple.keyID = endpoints.apple.credentials.keyID
        p.apple.privateKey = ProviderSecret(endpoints.apple.credentials.privateKeyPEM)
        p.apple.authorizationURL = url(endpoints.apple.baseURL + "/auth/authorize")
        p.apple.tokenURL = url(endpoints.apple.tokenURL)
        p.apple.revokeURL = url(endpoints.apple.revokeURL)
        p.microsoft.clientSecret = ProviderSecret(endpoints.microsoft.credentials.clientSecret)
        p.microsoft.authorizationURLTemplate = endpoints.microsoft.loginBaseURL + "/{tenant}/oauth2/v2.0/authorize"
        p.microsoft.tokenURLTemplate = endpoints.microsoft.loginBaseURL + "/{tenant}/oauth2/v2.0/token"
        p.google.clientSecret = ProviderSecret(endpoints.google.credentials.webClientSecret)
        p.google.authorizationURL = url(endpoints.google.baseURL + "/o/oauth2/v2/auth")
        p.google.tokenURL = url(endpoints.google.baseURL + "/token")
        p.facebook.dialogURL = url(endpoints.facebook.graphBaseURL + "/v24.0/dialog/oauth")
        p.gitHub.clientID = endpoints.github.credentials.clientID
        p.gitHub.clientSecret = ProviderSecret(endpoints.github.credentials.clientSecret)
        p.gitHub.authorizationURL = url(endpoints.github.apiBaseURL + "/login/oauth/authorize")
        p.gitHub.tokenURL = url(endpoints.github.apiBaseURL + "/login/oauth/access_token")
        return p
    }
}
