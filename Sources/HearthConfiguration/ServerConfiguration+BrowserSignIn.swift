import Configuration
import Foundation
import HearthProviders

extension ServerConfiguration {
    /// Reads the keys of browser sign-in (docs/configuration.md, "Browser sign-in"): `browserSignIn.*`. Each
    /// provider's client secret, signing key and endpoints are in its own section (``readProviders(_:)``).
    static func readBrowserSignIn(_ r: ConfigValues, into p: inout ProvidersConfiguration) throws {
        p.browserSignIn.handlerURL = try r.url("browserSignIn.handlerURL") ?? p.browserSignIn.handlerURL
        p.browserSignIn.returnURLs = try r.stringArray("browserSignIn.returnURLs") ?? p.browserSignIn.returnURLs
        for returnURL in p.browserSignIn.returnURLs where ReturnURL(returnURL) == nil {
            throw ConfigurationError(
                key: "browserSignIn.returnURLs",
                problem: "\(returnURL) is not an absolute URL Hearth can compare (scheme:…, no user info, backslashes, dot segments or spaces)")
        }
        p.browserSignIn.callbackURLs = try r.stringArray("browserSignIn.callbackURLs") ?? p.browserSignIn.callbackURLs
        for callbackURL in p.browserSignIn.callbackURLs where ReturnURL(callbackURL) == nil {
            throw ConfigurationError(
                key: "browserSignIn.callbackURLs",
                problem: "\(callbackURL) is not an absolute URL Hearth can compare (scheme:…, no user info, backslashes, dot segments or spaces)")
        }
        if let seconds = try r.int("browserSignIn.sessionLifetimeSeconds", in: 30...3_600) {
            p.browserSignIn.sessionLifetime = TimeInterval(seconds)
        }
    }
}
