import HearthCore
import HearthProviders
import HearthWire

/// Where the action page sends a person once the action is done: the `continueUrl` of `sendOobCode`.
///
/// It ends up as the `href` of a button on Hearth's own page and as a redirect target, so it is read as
/// strictly as a browser sign-in's return URL (``ReturnURL``), must be `http` or `https`, and its host must
/// be authorized (the configuration's `authorizedContinueHosts`). Hosts are compared parsed, never as text.
public enum ContinueURL {
    /// `text` when it is an absolute http(s) URL to one of `authorizedHosts`. Throws `INVALID_CONTINUE_URI` for a
    /// URL Hearth cannot read safely and `UNAUTHORIZED_DOMAIN` for a host not authorized.
    public static func check(_ text: String, authorizedHosts: Set<String>) throws -> String {
        guard let url = ReturnURL(text), url.scheme == "http" || url.scheme == "https", let host = url.host else {
            throw HearthError(.invalidContinueURI)
        }
        guard authorizedHosts.contains(host) else {
            throw HearthError(.unauthorizedDomain, detail: WireErrorMessage.domainNotAuthorized, reason: "continue URL host \(host.prefix(100))")
        }
        return text
    }

    /// Throws `INVALID_HOSTING_LINK_DOMAIN` unless `domain` (an action code's `linkDomain`, a bare host name) is one of
    /// `authorizedHosts`: Firebase refuses a Hosting domain the project does not own, and Hearth's own are those it
    /// serves or was told of. The link itself stays on `email.actionURL` (or the public URL).
    public static func checkLinkDomain(_ domain: String, authorizedHosts: Set<String>) throws {
        guard !domain.contains(":"), !domain.contains("/"), let host = ReturnURL("https://\(domain)/")?.host, authorizedHosts.contains(host)
        else { throw HearthError(.invalidHostingLinkDomain, reason: "linkDomain \(domain.prefix(100))") }
    }
}
