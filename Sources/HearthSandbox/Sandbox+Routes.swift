import Hummingbird

extension Sandbox {
    /// A router serving every provider at its prefix: `/apple/…`, `/microsoft/…`, `/google/…`, `/facebook/…`,
    /// `/github/…`, `/twitter/…`, `/yahoo/…`, `/oidc/<name>/…`. Set ``baseURL`` to where it is reachable.
    public func router() -> Router<BasicRequestContext> {
        let router = Router(context: BasicRequestContext.self)
        addRoutes(to: router.group())
        return router
    }

    /// Adds the sandbox's routes to `group`, e.g. `sandbox.addRoutes(to: router.group("/sandbox"))` in Hearth's
    /// development mode (then ``baseURL`` is `http://host:port/sandbox`).
    ///
    /// Besides the endpoints that verify credentials, every provider's authorization (consent) page and code
    /// exchange are served, and Twitter's OAuth 1.0a request-token, authenticate and access-token endpoints.
    public func addRoutes<Context: RequestContext>(to group: RouterGroup<Context>) {
        AppleRoutes(sandbox: self).add(to: group.group(RouterPath(SandboxProvider.apple.pathPrefix)))
        MicrosoftRoutes(sandbox: self).add(to: group.group(RouterPath(SandboxProvider.microsoft.pathPrefix)))
        GoogleRoutes(sandbox: self).add(to: group.group(RouterPath(SandboxProvider.google.pathPrefix)))
        FacebookRoutes(sandbox: self).add(to: group.group(RouterPath(SandboxProvider.facebook.pathPrefix)))
        GitHubRoutes(sandbox: self).add(to: group.group(RouterPath(SandboxProvider.github.pathPrefix)))
        TwitterRoutes(sandbox: self).add(to: group.group(RouterPath(SandboxProvider.twitter.pathPrefix)))
        YahooRoutes(sandbox: self).add(to: group.group(RouterPath(SandboxProvider.yahoo.pathPrefix)))
        OIDCRoutes(sandbox: self).add(to: group.group("oidc"))
        // The browser flows: authorization/consent pages and code exchanges (Twitter: OAuth 1.0a).
        for provider in [SandboxProvider.apple, .microsoft, .google, .facebook, .github, .yahoo] {
            AuthorizationRoutes(sandbox: self, provider: provider).add(to: group.group(RouterPath(provider.pathPrefix)))
        }
        AuthorizationRoutes(sandbox: self, provider: .oidc("")).add(to: group.group("oidc"))
        TwitterOAuthRoutes(sandbox: self).add(to: group.group(RouterPath(SandboxProvider.twitter.pathPrefix)))
        ConsoleRoutes(sandbox: self).add(to: group)
    }
}
