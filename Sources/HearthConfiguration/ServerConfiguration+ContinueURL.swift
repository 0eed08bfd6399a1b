import HearthProviders

extension ServerConfiguration {
    /// The hosts an e-mail action's continue URL may point at (``ContinueURL`` in HearthWireMapping): `localhost`, the
    /// hosts of `server.publicURL`, `email.actionURL`, `browserSignIn.returnURLs` and `browserSignIn.callbackURLs`, and
    /// `email.authorizedDomains`, each as ``ReturnURL`` parses it.
    public var authorizedContinueHosts: Set<String> {
        var hosts: Set<String> = ["localhost", "127.0.0.1", "[::1]"]
        let browser = providers.browserSignIn
        let urls = [publicBaseURL, email.actionURL].compactMap { $0 } + browser.returnURLs + browser.callbackURLs
        for url in urls { if let host = ReturnURL(url)?.host { hosts.insert(host) } }
        for domain in email.authorizedDomains { if let host = ReturnURL("https://\(domain)/")?.host { hosts.insert(host) } }
        return hosts
    }
}
