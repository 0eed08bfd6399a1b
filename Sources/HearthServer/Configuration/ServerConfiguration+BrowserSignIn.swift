import Configuration
import Crypto
import Foundation
import HearthProviders

extension ServerConfiguration {
    /// Reads the keys of browser sign-in (docs/configuration.md, "Browser sign-in"): `browserSignIn.*` and each
    /// provider's client secret, signing key and authorization/token endpoints.
    static func readBrowserSignIn(_ r: ConfigValues, into p: inout ProvidersConfiguration) throws {
        func url(_ key: String) throws -> URL? {
            guard let text = try r.string(key) else { return nil }
            guard let url = URL(string: text), url.scheme == "https" || url.scheme == "http", url.host != nil else {
                throw ConfigurationError(key: key, problem: "expected an absolute http(s) URL, got \(text)")
            }
            return url
        }
        func template(_ key: String) throws -> String? {
            guard let text = try r.string(key) else { return nil }
            guard text.contains("{tenant}"), URL(string: text.replacingOccurrences(of: "{tenant}", with: "common"))?.host != nil else {
                throw ConfigurationError(key: key, problem: "expected an absolute URL containing {tenant}, got \(text)")
            }
            return text
        }
        func secret(_ key: String) throws -> ProviderSecret? { try r.string(key, isSecret: true).map { ProviderSecret($0) } }

        p.browserSignIn.handlerURL = try url("browserSignIn.handlerURL") ?? p.browserSignIn.handlerURL
        p.browserSignIn.returnURLs = try r.stringArray("browserSignIn.returnURLs") ?? p.browserSignIn.returnURLs
        for returnURL in p.browserSignIn.returnURLs where ReturnURL(returnURL) == nil {
            throw ConfigurationError(
                key: "browserSignIn.returnURLs",
                problem: "\(returnURL) is not an absolute URL Hearth can compare (scheme:…, no user info, backslashes, dot segments or spaces)")
        }
        if let seconds = try r.int("browserSignIn.sessionLifetimeSeconds", in: 30...3_600) {
            p.browserSignIn.sessionLifetime = TimeInterval(seconds)
        }

        p.apple.teamID = try r.string("providers.apple.teamID") ?? p.apple.teamID
        p.apple.keyID = try r.string("providers.apple.keyID") ?? p.apple.keyID
        if let pem = try secret("providers.apple.privateKey") { p.apple.privateKey = pem }
        if let path = try r.string("providers.apple.privateKeyFile") {
            p.apple.privateKey = ProviderSecret(try SettingFiles.text(atPath: path, key: "providers.apple.privateKeyFile"))
            guard (try? P256.Signing.PrivateKey(pemRepresentation: p.apple.privateKey.value)) != nil else {
                throw ConfigurationError(
                    key: "providers.apple.privateKeyFile",
                    problem: "\(path) is not the .p8 key Apple gives (a PEM P-256 private key, BEGIN PRIVATE KEY)")
            }
        } else if !p.apple.privateKey.isEmpty, (try? P256.Signing.PrivateKey(pemRepresentation: p.apple.privateKey.value)) == nil {
            throw ConfigurationError(key: "providers.apple.privateKey", problem: "not the .p8 key Apple gives (a PEM P-256 private key, BEGIN PRIVATE KEY)")
        }
        if let seconds = try r.int("providers.apple.clientSecretLifetimeSeconds", in: 3_600...15_777_000) {
            p.apple.clientSecretLifetime = TimeInterval(seconds)
        }
        p.apple.authorizationURL = try url("providers.apple.authorizationURL") ?? p.apple.authorizationURL
        p.apple.tokenURL = try url("providers.apple.tokenURL") ?? p.apple.tokenURL
        if !p.apple.privateKey.isEmpty, p.apple.teamID.isEmpty || p.apple.keyID.isEmpty {
            throw ConfigurationError(key: "providers.apple.keyID", problem: "the .p8 key needs the team ID and key ID that go with it")
        }

        if let value = try secret("providers.google.clientSecret") { p.google.clientSecret = value }
        p.google.authorizationURL = try url("providers.google.authorizationURL") ?? p.google.authorizationURL
        p.google.tokenURL = try url("providers.google.tokenURL") ?? p.google.tokenURL

        if let value = try secret("providers.microsoft.clientSecret") { p.microsoft.clientSecret = value }
        p.microsoft.authorizationURLTemplate = try template("providers.microsoft.authorizationURLTemplate") ?? p.microsoft.authorizationURLTemplate
        p.microsoft.tokenURLTemplate = try template("providers.microsoft.tokenURLTemplate") ?? p.microsoft.tokenURLTemplate

        p.facebook.dialogURL = try url("providers.facebook.dialogURL") ?? p.facebook.dialogURL

        p.gitHub.authorizationURL = try url("providers.github.authorizationURL") ?? p.gitHub.authorizationURL
        p.gitHub.tokenURL = try url("providers.github.tokenURL") ?? p.gitHub.tokenURL

        for name in p.oidc.keys {
            if let value = try secret("providers.oidc.\(name).clientSecret") { p.oidc[name]?.clientSecret = value }
        }
    }
}
