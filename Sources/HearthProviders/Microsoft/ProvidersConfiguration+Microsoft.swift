import Foundation

extension ProvidersConfiguration {
    /// Microsoft identity platform v2.0 (`microsoft.com`): RS256 ID tokens, the tenant rule, `oid` as the id.
    public struct Microsoft: Sendable, Equatable, CustomStringConvertible {
        /// The tenant id of personal Microsoft accounts (MSA).
        public static let consumersTenantID = "9188040d-6c67-4c5b-b112-36a304b66dad"

        /// Whether `microsoft.com` sign-in is accepted.
        public var enabled: Bool
        /// Application (client) ids; the token's `aud` must be one of them.
        public var clientIDs: [String]
        /// Which accounts may sign in, enforced on every token:
        /// `common` (any work/school tenant or a personal account), `organizations` (work/school only),
        /// `consumers` (personal accounts only), a tenant GUID, or a tenant's verified domain
        /// (for example `contoso.onmicrosoft.com`, resolved to its GUID through the tenant's discovery document).
        public var tenant: String
        /// Optional allow-list of tenant GUIDs (`tid`), applied on top of ``tenant``. Empty: no extra restriction.
        public var allowedTenantIDs: [String]
        /// The JWKS; `{tenant}` is replaced by ``tenant``.
        public var jwksURLTemplate: String
        /// The OpenID discovery document, used to resolve a domain ``tenant`` to its GUID; `{tenant}` is replaced.
        public var discoveryURLTemplate: String
        /// The v2.0 issuer; `{tenant}` is replaced by the token's `tid`, and `iss` must equal the result.
        public var issuerTemplate: String
        /// Mail domains Microsoft issues itself: a personal account's address there counts as verified.
        public var trustedEmailDomains: [String]

        // Browser sign-in: the authorization-code flow with PKCE, in the tenant the app asks for with the
        // `tenant` custom parameter (``tenant`` by default).

        /// The client secret of the first client id, for the code exchange. Never printed.
        public var clientSecret: ProviderSecret = ""
        /// The authorization page; `{tenant}` is replaced by the tenant of the sign-in.
        public var authorizationURLTemplate: String = "https://login.microsoftonline.com/{tenant}/oauth2/v2.0/authorize"
        /// The token endpoint; `{tenant}` is replaced by the tenant of the sign-in.
        public var tokenURLTemplate: String = "https://login.microsoftonline.com/{tenant}/oauth2/v2.0/token"

        /// Whether the browser flow can run: switched on, a client id and its secret.
        public var supportsBrowserSignIn: Bool { isUsable && !clientSecret.isEmpty }

        /// Every parameter defaults to the provider's real value; the provider stays off until `enabled` is set.
        public init(
            enabled: Bool = false, clientIDs: [String] = [], tenant: String = "common", allowedTenantIDs: [String] = [],
            jwksURLTemplate: String = "https://login.microsoftonline.com/{tenant}/discovery/v2.0/keys",
            discoveryURLTemplate: String = "https://login.microsoftonline.com/{tenant}/v2.0/.well-known/openid-configuration",
            issuerTemplate: String = "https://login.microsoftonline.com/{tenant}/v2.0",
            trustedEmailDomains: [String] = ["outlook.com", "hotmail.com", "live.com", "msn.com"]
        ) {
            self.enabled = enabled
            self.clientIDs = clientIDs
            self.tenant = tenant
            self.allowedTenantIDs = allowedTenantIDs
            self.jwksURLTemplate = jwksURLTemplate
            self.discoveryURLTemplate = discoveryURLTemplate
            self.issuerTemplate = issuerTemplate
            self.trustedEmailDomains = trustedEmailDomains
        }

        /// Switched on, with at least one client id and a tenant.
        public var isUsable: Bool { enabled && !clientIDs.isEmpty && !tenant.isEmpty }

        /// The settings, with secrets shown as `<redacted>` (or `<unset>`).
        public var description: String {
            "Microsoft(enabled: \(enabled), clientIDs: \(clientIDs), tenant: \(tenant), allowedTenantIDs: \(allowedTenantIDs), "
                + "jwksURLTemplate: \(jwksURLTemplate), discoveryURLTemplate: \(discoveryURLTemplate), issuerTemplate: \(issuerTemplate), "
                + "clientSecret: \(clientSecret), authorizationURLTemplate: \(authorizationURLTemplate), tokenURLTemplate: \(tokenURLTemplate))"
        }
    }
}

extension ProvidersConfiguration.Microsoft: ProviderSettings {
    public static var providerID: String { "microsoft.com" }
    public static var defaults: Self { Self() }
}

extension ProvidersConfiguration {
    /// Microsoft identity platform v2.0 (`microsoft.com`).
    public var microsoft: Microsoft {
        get { self[Microsoft.self] }
        set { self[Microsoft.self] = newValue }
    }
}
