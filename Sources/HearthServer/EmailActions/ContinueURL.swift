import Foundation
import HearthConfiguration
import HearthCore
import HearthProviders
import HearthWire
import HearthWireMapping

/// Where the action page sends a person once the action is done: the `continueUrl` of `sendOobCode`.
///
/// It ends up as the `href` of a button on Hearth's own page and as a redirect target, so it is read as
/// strictly as a browser sign-in's return URL (``ReturnURL``), must be `http` or `https`, and its host must
/// be authorized: `localhost`, the hosts of `server.publicURL`, `email.actionURL` and
/// `browserSignIn.returnURLs` and `browserSignIn.callbackURLs`, and `email.authorizedDomains`. Hosts are compared parsed, never as text.
enum ContinueURL {
    /// The hosts a continue URL may point at.
    static func authorizedHosts(_ configuration: ServerConfiguration) -> Set<String> {
        var hosts: Set<String> = ["localhost", "127.0.0.1", "[::1]"]
        let browser = configuration.providers.browserSignIn
        let urls = [configuration.publicBaseURL, configuration.email.actionURL].compactMap { $0 } + browser.returnURLs + browser.callbackURLs
        for url in urls { if let host = ReturnURL(url)?.host { hosts.insert(host) } }
        for domain in configuration.email.authorizedDomains { if let host = ReturnURL("https://\(domain)/")?.host { hosts.insert(host) } }
        return hosts
    }

    /// `text` when it is an absolute http(s) URL to an authorized host. Throws `INVALID_CONTINUE_URI` for a
    /// URL Hearth cannot read safely and `UNAUTHORIZED_DOMAIN` for a host not authorized.
    static func check(_ text: String, configuration: ServerConfiguration) throws -> String {
        guard let url = ReturnURL(text), url.scheme == "http" || url.scheme == "https", let host = url.host else {
            throw HearthError(.invalidContinueURI)
        }
        guard authorizedHosts(configuration).contains(host) else {
            throw HearthError(.unauthorizedDomain, detail: WireErrorMessage.domainNotAuthorized, reason: "continue URL host \(host.prefix(100))")
        }
        return text
    }

    /// Throws `INVALID_HOSTING_LINK_DOMAIN` unless `domain` (an action code's `linkDomain`, a bare host name) is one of
    /// the ``authorizedHosts(_:)``: Firebase refuses a Hosting domain the project does not own, and Hearth's own are
    /// those it serves or was told of. The link itself stays on `email.actionURL` (or the public URL).
    static func checkLinkDomain(_ domain: String, configuration: ServerConfiguration) throws {
        guard !domain.contains(":"), !domain.contains("/"), let host = ReturnURL("https://\(domain)/")?.host,
            authorizedHosts(configuration).contains(host)
        else { throw HearthError(.invalidHostingLinkDomain, reason: "linkDomain \(domain.prefix(100))") }
    }
}
