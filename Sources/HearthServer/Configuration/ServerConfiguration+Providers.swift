import Configuration
import Foundation
import HearthProviders

extension ServerConfiguration {
    /// Reads `providers.*`: each identity provider switched on or off, its client IDs and secrets, and every
    /// endpoint (real URLs by default; point them at HearthSandbox or a proxy).
    static func readProviders(_ r: ConfigValues) throws -> ProvidersConfiguration {
        var p = ProvidersConfiguration()
        func url(_ key: String) throws -> URL? {
            guard let text = try r.string(key) else { return nil }
            guard let url = URL(string: text), url.scheme == "https" || url.scheme == "http", url.host != nil else {
                throw ConfigurationError(key: key, problem: "expected an absolute http(s) URL, got \(text)")
            }
            return url
        }

        p.apple.enabled = try r.bool("providers.apple.enabled") ?? p.apple.enabled
        p.apple.bundleIDs = try r.stringArray("providers.apple.bundleIDs") ?? p.apple.bundleIDs
        p.apple.serviceIDs = try r.stringArray("providers.apple.serviceIDs") ?? p.apple.serviceIDs
        p.apple.jwksURL = try url("providers.apple.jwksURL") ?? p.apple.jwksURL
        if p.apple.enabled, p.apple.audiences.isEmpty {
            throw ConfigurationError(key: "providers.apple.bundleIDs", problem: "Sign in with Apple needs at least one bundle ID or services ID")
        }

        p.microsoft.enabled = try r.bool("providers.microsoft.enabled") ?? p.microsoft.enabled
        p.microsoft.clientIDs = try r.stringArray("providers.microsoft.clientIDs") ?? p.microsoft.clientIDs
        p.microsoft.tenant = try r.string("providers.microsoft.tenant") ?? p.microsoft.tenant
        p.microsoft.allowedTenantIDs = try r.stringArray("providers.microsoft.allowedTenantIDs") ?? p.microsoft.allowedTenantIDs
        p.microsoft.jwksURLTemplate = try r.string("providers.microsoft.jwksURLTemplate") ?? p.microsoft.jwksURLTemplate
        p.microsoft.discoveryURLTemplate = try r.string("providers.microsoft.discoveryURLTemplate") ?? p.microsoft.discoveryURLTemplate
        if p.microsoft.enabled, p.microsoft.clientIDs.isEmpty {
            throw ConfigurationError(key: "providers.microsoft.clientIDs", problem: "Microsoft sign-in needs the application (client) ID")
        }

        p.twitter.enabled = try r.bool("providers.twitter.enabled") ?? p.twitter.enabled
        p.twitter.consumerKey = try r.string("providers.twitter.consumerKey") ?? p.twitter.consumerKey
        if let secret = try r.string("providers.twitter.consumerSecret", isSecret: true) { p.twitter.consumerSecret = ProviderSecret(secret) }
        p.twitter.apiBaseURL = try url("providers.twitter.apiBaseURL") ?? p.twitter.apiBaseURL
        if p.twitter.enabled, p.twitter.consumerKey.isEmpty || p.twitter.consumerSecret.isEmpty {
            throw ConfigurationError(key: "providers.twitter.consumerSecret", problem: "Twitter sign-in needs the API key and API secret")
        }

        p.google.enabled = try r.bool("providers.google.enabled") ?? p.google.enabled
        p.google.clientIDs = try r.stringArray("providers.google.clientIDs") ?? p.google.clientIDs
        p.google.jwksURL = try url("providers.google.jwksURL") ?? p.google.jwksURL
        p.google.userinfoURL = try url("providers.google.userinfoURL") ?? p.google.userinfoURL
        p.google.tokeninfoURL = try url("providers.google.tokeninfoURL") ?? p.google.tokeninfoURL
        if p.google.enabled, p.google.clientIDs.isEmpty {
            throw ConfigurationError(key: "providers.google.clientIDs", problem: "Google sign-in needs at least one OAuth client ID")
        }

        p.facebook.enabled = try r.bool("providers.facebook.enabled") ?? p.facebook.enabled
        p.facebook.appID = try r.string("providers.facebook.appID") ?? p.facebook.appID
        if let secret = try r.string("providers.facebook.appSecret", isSecret: true) { p.facebook.appSecret = ProviderSecret(secret) }
        p.facebook.graphBaseURL = try url("providers.facebook.graphBaseURL") ?? p.facebook.graphBaseURL
        p.facebook.limitedLoginJWKSURL = try url("providers.facebook.limitedLoginJWKSURL") ?? p.facebook.limitedLoginJWKSURL
        if p.facebook.enabled, p.facebook.appID.isEmpty {
            throw ConfigurationError(key: "providers.facebook.appID", problem: "Facebook sign-in needs the app ID (and the app secret for access tokens)")
        }

        p.gitHub.enabled = try r.bool("providers.github.enabled") ?? p.gitHub.enabled
        p.gitHub.apiBaseURL = try url("providers.github.apiBaseURL") ?? p.gitHub.apiBaseURL
        p.gitHub.clientID = try r.string("providers.github.clientID") ?? p.gitHub.clientID
        if let secret = try r.string("providers.github.clientSecret", isSecret: true) { p.gitHub.clientSecret = ProviderSecret(secret) }

        for name in try r.stringArray("providers.oidc.names") ?? [] {
            let prefix = "providers.oidc.\(name)"
            guard name.range(of: #"^[a-z0-9][a-z0-9._-]*$"#, options: .regularExpression) != nil else {
                throw ConfigurationError(key: "providers.oidc.names", problem: "\(name) is not a valid provider name (oidc.<name>)")
            }
            guard let issuer = try r.string("\(prefix).issuer") else {
                throw ConfigurationError(key: "\(prefix).issuer", problem: "an OpenID Connect provider needs its issuer URL")
            }
            guard let clientIDs = try r.stringArray("\(prefix).clientIDs"), !clientIDs.isEmpty else {
                throw ConfigurationError(key: "\(prefix).clientIDs", problem: "an OpenID Connect provider needs at least one client ID")
            }
            var oidc = ProvidersConfiguration.OIDC(issuer: issuer, clientIDs: clientIDs)
            oidc.discoveryURL = try url("\(prefix).discoveryURL")
            p.oidc[name] = oidc
        }

        if let timeout = try r.int("providers.requestTimeoutSeconds", in: 1...120) { p.network.requestTimeout = TimeInterval(timeout) }
        try readBrowserSignIn(r, into: &p)
        return p
    }
}
