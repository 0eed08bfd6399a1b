import Hummingbird

extension Sandbox {
    /// A router serving every provider at its prefix: `/apple/…`, `/microsoft/…`, `/google/…`, `/facebook/…`,
    /// `/github/…`, `/twitter/…`, `/yahoo/…`, `/oidc/<name>/…`, and the SAML IdP at `/saml/…`. Set ``baseURL`` to where it is reachable.
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
        for definition in SandboxRegistry.all {
            let prefix = group.group(RouterPath(definition.pathPrefix))
            for routes in definition.routes(self) { routes.add(to: prefix) }
            // The browser flow: the consent page and code exchange (a family's: one route for every member).
            if definition.authorization != nil {
                AuthorizationRoutes(sandbox: self, provider: SandboxProvider(id: definition.id)).add(to: prefix)
            }
        }
        // The SAML IdP: not a SandboxProviderDefinition (no JWTs, no OAuth), its own routes under `saml/`.
        SAMLRoutes(sandbox: self).add(to: group.group("saml"))
        ConsoleRoutes(sandbox: self).add(to: group)
    }
}
