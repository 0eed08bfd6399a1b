import Foundation
import HearthCore

/// The browser sign-in of OpenID Connect providers: endpoints from the issuer's discovery document.
extension AuthorizationFlows {
    /// The start of an OpenID Connect code flow (PKCE and nonce) at the discovery document's
    /// `authorization_endpoint`.
    func discoveredCodeFlowStart(
        _ request: AuthorizationRequest, _ oidc: ProvidersConfiguration.OIDC, custom: [String: String]
    ) async throws -> AuthorizationStart {
        let endpoints = try await oidcEndpoints(oidc, providerID: request.providerID)
        return try codeFlowStart(
            request, endpoint: endpoints.authorization, clientID: oidc.clientIDs.first ?? "",
            defaultScopes: ["openid", "email", "profile"], custom: custom, extra: [:])
    }

    /// The code exchange at the discovery document's `token_endpoint`, with the client secret.
    func finishDiscoveredCodeFlow(_ callback: AuthorizationCallback, _ oidc: ProvidersConfiguration.OIDC) async throws -> FederatedCredential {
        try await finishCodeFlow(callback) { code in
            // The discovery document is read only once the provider has answered with a code.
            let endpoint = try await failing { try await oidcEndpoints(oidc, providerID: callback.providerID).token }
            return try await exchangeCode(
                code, callback: callback, endpoint: endpoint,
                credentials: [("client_id", oidc.clientIDs.first ?? ""), ("client_secret", oidc.clientSecret.value)])
        }
    }

    /// `authorization_endpoint` and `token_endpoint` from the issuer's discovery document (the shared cache's).
    func oidcEndpoints(_ oidc: ProvidersConfiguration.OIDC, providerID: String) async throws -> (authorization: URL, token: URL) {
        guard let url = oidc.resolvedDiscoveryURL else { throw ProviderFailure.invalid("The \(providerID) discovery URL is invalid.") }
        let document = try await discovery.document(at: url, provider: providerID)
        guard let authorization = document.authorizationEndpoint, let token = document.tokenEndpoint else {
            throw ProviderFailure.invalid("The \(providerID) discovery document names no authorization and token endpoints.")
        }
        return (authorization, token)
    }

}
