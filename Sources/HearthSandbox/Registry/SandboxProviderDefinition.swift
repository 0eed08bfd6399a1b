import Foundation
import HTTPTypes
import Hummingbird

/// A provider's routes: the endpoints it serves under its prefix.
protocol SandboxRoutes: Sendable {
    func add<Context: RequestContext>(to router: RouterGroup<Context>)
}

/// What the sandbox knows of one provider it stands in for, declared once in the provider's folder and
/// listed in ``SandboxRegistry``: its id and prefix, its keys, its own routes, its consent page and code
/// exchange (``SandboxAuthorization``), the app registered with it, its endpoints, its test accounts and
/// what its native SDK would hand an app.
struct SandboxProviderDefinition: Sendable {
    /// The Firebase provider id (`yahoo.com`), or a family's prefix (`oidc.`).
    let id: String
    /// The path segment the provider is served under (a family's members: `<prefix>/<name>`).
    let pathPrefix: String
    /// The provider's name on the consent page ("Yahoo").
    let name: String
    /// The consent page's accent colour.
    let accent: String
    /// How its keys' `kid`s look, and what they sign with.
    let keyIDStyle: SandboxSigningKey.KeyIDStyle
    var algorithm: SandboxSigningKey.Algorithm = .rs256
    /// The provider's own endpoints, mounted at ``pathPrefix``.
    let routes: @Sendable (Sandbox) -> [any SandboxRoutes]
    /// The consent page and code exchange, if the provider has an OAuth 2.0 browser flow.
    var authorization: SandboxAuthorization?
    /// The app registered with the provider, made fresh for each ``SandboxCredentials/generate()``.
    var makeCredentials: (@Sendable () -> any Sendable)?
    /// The URLs and credentials to configure Hearth with (``SandboxEndpoints``), with their flat names.
    var endpoints: (@Sendable (_ sandbox: Sandbox, _ base: String) -> (value: any Sendable, flattened: [String: String]))?
    /// The ready-made test accounts.
    var presets: [SandboxIdentity] = []
    /// The credential the provider's native SDK hands an app for an identity (``Sandbox/signInCredential(for:rawNonce:)``).
    let nativeCredential: @Sendable (_ sandbox: Sandbox, _ identity: SandboxIdentity, _ rawNonce: String?) throws -> NativeCredential

    /// Whether ``id`` is a family's prefix.
    var isFamily: Bool { id.hasSuffix(".") }

    /// The tokens of a native sign-in.
    struct NativeCredential {
        var idToken: String?
        var accessToken: String?
        var tokenSecret: String?
        /// The raw nonce the ID token carries, when the provider always sets one.
        var rawNonce: String?
    }
}

/// How a provider's consent page (authorize) and code exchange (token) behave in ``AuthorizationRoutes``.
struct SandboxAuthorization: Sendable {
    /// The authorize paths (GET and POST) and token paths (POST; also GET with ``tokenAcceptsGET``), under the
    /// provider's prefix; `:tenant` in a path is Microsoft's tenant, `:issuer` a family member's name.
    let authorizePaths: [String]
    var tokenPaths: [String] = []
    var tokenAcceptsGET = false
    /// The secret of a registered client, `nil` when the client id is unknown (`""`: a client without one).
    let clientSecret: @Sendable (_ sandbox: Sandbox, _ provider: SandboxProvider, _ clientID: String) -> String?
    /// Whether authorize requires `response_type=code` and the token endpoint `grant_type=authorization_code`.
    var requiresResponseType = true
    var requiresGrantType = true
    /// Refuses the request before anything else (a tenant that does not exist): the refusal page's title
    /// and detail.
    var refusal: (@Sendable (_ sandbox: Sandbox, _ tenant: String?) -> (title: String, detail: String)?)?
    /// Checks the parameters once the client and redirect URI are known: the `error` and
    /// `error_description` to send back.
    var check: (@Sendable (_ parameters: [String: String], _ scopes: [String], _ formPost: Bool) -> (error: String, description: String)?)?
    /// The accounts the page offers (Microsoft: those of the tenant in the path).
    var identities: (@Sendable (_ sandbox: Sandbox, _ all: [SandboxIdentity], _ tenant: String?) -> [SandboxIdentity])?
    /// The fields sent back when the person cancels; `nil`: `access_denied`.
    var cancelFields: [(String, String)]?
    /// Approves in the provider's own way (Apple: its own codes, the `user` JSON); `nil`: an
    /// ``AuthorizationGrant`` redeemed at the token paths.
    var approve: (@Sendable (_ sandbox: Sandbox, _ approval: Approval) -> [(String, String)])?
    /// The token response for a redeemed grant.
    var issue: (@Sendable (_ sandbox: Sandbox, _ grant: AuthorizationGrant, _ request: Request) throws -> Response)?
    /// The provider's error shape at the token endpoint; `nil`: OAuth 2.0's JSON.
    var tokenError: (@Sendable (_ error: String, _ description: String?, _ status: HTTPResponse.Status) -> Response)?

    /// What the person approved.
    struct Approval: Sendable {
        let identity: SandboxIdentity
        let clientID: String
        let redirectURI: String
        let scopes: [String]
        let parameters: [String: String]
    }
}
