import Foundation
import HTTPTypes
import Hummingbird
import Logging

/// The Microsoft identity platform's key and discovery endpoints at `login.microsoftonline.com`:
/// `/{tenant}/discovery/v2.0/keys` and `/{tenant}/v2.0/.well-known/openid-configuration`, for `common`,
/// `organizations`, `consumers`, tenant GUIDs and tenant domains. (The authorize page and token endpoint are
/// ``AuthorizationRoutes``.)
struct MicrosoftRoutes: Sendable {
    let sandbox: Sandbox

    func add<Context: RequestContext>(to router: RouterGroup<Context>) {
        router.get(":tenant/discovery/v2.0/keys") { _, context in
            self.keys(tenant: context.parameters.get("tenant") ?? "")
        }
        router.get(":tenant/v2.0/.well-known/openid-configuration") { _, context in
            self.discovery(tenant: context.parameters.get("tenant") ?? "")
        }
    }

    func keys(tenant: String) -> Response {
        if case .failure(let unknown) = sandbox.microsoftTenant(tenant) { return invalidTenant(unknown.segment) }
        guard let jwks = try? sandbox.servedJWKS(.microsoft) else { return SandboxHTTP.json(["error": "server_error"], status: .internalServerError) }
        var headers: HTTPFields = [:]
        if let maxAge = sandbox.settings.jwksMaxAge { headers[.cacheControl] = "max-age=\(maxAge), private" }
        return SandboxHTTP.json(jwks, headers: headers)
    }

    func discovery(tenant: String) -> Response {
        let issuer: String
        switch sandbox.microsoftTenant(tenant) {
        case .failure(let unknown): return invalidTenant(unknown.segment)
        case .success(let tid): issuer = tid.map(Sandbox.microsoftIssuer(tenantID:)) ?? Sandbox.microsoftIssuerTemplate
        }
        sandbox.countDiscoveryFetch(.microsoft)
        let base = "\(sandbox.baseURL)/\(SandboxProvider.microsoft.pathPrefix)/\(tenant)"
        return SandboxHTTP.json([
            "token_endpoint": .string("\(base)/oauth2/v2.0/token"),
            "token_endpoint_auth_methods_supported": ["client_secret_post", "private_key_jwt", "client_secret_basic"],
            "jwks_uri": .string("\(base)/discovery/v2.0/keys"),
            "response_modes_supported": ["query", "fragment", "form_post"],
            "subject_types_supported": ["pairwise"],
            "id_token_signing_alg_values_supported": ["RS256"],
            "response_types_supported": ["code", "id_token", "code id_token", "id_token token"],
            "scopes_supported": ["openid", "profile", "email", "offline_access"],
            "issuer": .string(issuer),
            "request_uri_parameter_supported": false,
            "userinfo_endpoint": "https://graph.microsoft.com/oidc/userinfo",
            "authorization_endpoint": .string("\(base)/oauth2/v2.0/authorize"),
            "device_authorization_endpoint": .string("\(base)/oauth2/v2.0/devicecode"),
            "http_logout_supported": true,
            "frontchannel_logout_supported": true,
            "end_session_endpoint": .string("\(base)/oauth2/v2.0/logout"),
            "claims_supported": [
                "sub", "iss", "cloud_instance_name", "cloud_instance_host_name", "cloud_graph_host_name", "msgraph_host",
                "aud", "exp", "iat", "auth_time", "acr", "nonce", "preferred_username", "name", "tid", "ver", "at_hash",
                "c_hash", "email",
            ],
            "kerberos_endpoint": .string("\(base)/kerberos"),
            "tenant_region_scope": .null,
            "cloud_instance_name": "microsoftonline.com",
            "cloud_graph_host_name": "graph.windows.net",
            "msgraph_host": "graph.microsoft.com",
            "rbac_url": "https://pas.windows.net",
        ])
    }

    /// AADSTS90002, in Microsoft's error shape.
    private func invalidTenant(_ tenant: String) -> Response {
        let trace = SandboxRandom.uuid()
        let correlation = SandboxRandom.uuid()
        let formatter = DateFormatter()
        formatter.locale = Locale(identifier: "en_US_POSIX")
        formatter.timeZone = TimeZone(identifier: "UTC")
        formatter.dateFormat = "yyyy-MM-dd HH:mm:ss'Z'"
        let timestamp = formatter.string(from: sandbox.now)
        sandbox.logger.info("microsoft rejected an unknown tenant", metadata: ["tenant": "\(tenant)"])
        return SandboxHTTP.json(
            [
                "error": "invalid_tenant",
                "error_description": .string(
                    "AADSTS90002: Tenant '\(tenant)' not found. Check to make sure you have the correct tenant ID and are signing into the correct cloud. Check with your subscription administrator, this may happen if there are no active subscriptions for the tenant.\r\nTrace ID: \(trace)\r\nCorrelation ID: \(correlation)\r\nTimestamp: \(timestamp)"
                ),
                "error_codes": [90002], "timestamp": .string(timestamp), "trace_id": .string(trace),
                "correlation_id": .string(correlation),
                "error_uri": "https://login.microsoftonline.com/error?code=90002",
            ], status: .badRequest)
    }
}
