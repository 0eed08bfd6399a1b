import Hummingbird

extension Sandbox {
    /// A router serving every provider at its prefix: `/apple/…`, `/microsoft/…`, `/google/…`, `/facebook/…`,
    /// `/github/…`, `/twitter/…`, `/oidc/<name>/…`. Set ``baseURL`` to where it is reachable.
    public func router() -> Router<BasicRequestContext> {
        let router = Router(context: BasicRequestContext.self)
        addRoutes(to: router.group())
        return router
    }

    /// Adds the sandbox's routes to `group`, e.g. `sandbox.addRoutes(to: router.group("/sandbox"))` in Hearth's
    /// development mode (then ``baseURL`` is `http://host:port/sandbox`).
    ///
    /// Only the endpoints that verify credentials are served so far; the browser-facing authorize/consent pages
    /// and code exchanges come with a later issue.
    public func addRoutes<Context: RequestContext>(to group: RouterGroup<Context>) {
        AppleRoutes(sandbox: self).add(to: group.group(RouterPath(SandboxProvider.apple.pathPrefix)))
        MicrosoftRoutes(sandbox: self).add(to: group.group(RouterPath(SandboxProvider.microsoft.pathPrefix)))
        GoogleRoutes(sandbox: self).add(to: group.group(RouterPath(SandboxProvider.google.pathPrefix)))
        FacebookRoutes(sandbox: self).add(to: group.group(RouterPath(SandboxProvider.facebook.pathPrefix)))
        GitHubRoutes(sandbox: self).add(to: group.group(RouterPath(SandboxProvider.github.pathPrefix)))
        TwitterRoutes(sandbox: self).add(to: group.group(RouterPath(SandboxProvider.twitter.pathPrefix)))
        OIDCRoutes(sandbox: self).add(to: group.group("oidc"))
        ConsoleRoutes(sandbox: self).add(to: group)
    }
}
