import Foundation
import Hummingbird

extension SandboxProvider {
    /// Microsoft identity platform v2.0.
    public static let microsoft = SandboxProvider(id: "microsoft.com")
}

extension SandboxCredentials {
    /// Microsoft identity platform app registration.
    public struct Microsoft: Sendable {
        /// Application (client) id GUID: the ID token `aud`.
        public var clientID: String
        public var clientSecret: String
        /// Another registration's client id, for wrong-audience tests.
        public var otherClientID: String
    }

    /// The app registered with Microsoft.
    public var microsoft: Microsoft {
        get { app(.microsoft, as: Microsoft.self) }
        set { apps[SandboxProvider.microsoft.firebaseProviderID] = newValue }
    }
}

extension SandboxEndpoints {
    public struct Microsoft: Sendable {
        /// Stand-in for `https://login.microsoftonline.com` (then `/{tenant}/discovery/v2.0/keys` etc.).
        public var loginBaseURL: String
        /// `https://login.microsoftonline.com/{tenantid}/v2.0`: substitute the token's `tid`.
        public var issuerTemplate: String
        /// `9188040d-6c67-4c5b-b112-36a304b66dad`.
        public var personalAccountsTenantID: String
        /// The tenant Hearth is configured with (`common`).
        public var tenant: String
        /// `<loginBaseURL>/common/discovery/v2.0/keys`.
        public var jwksURL: String
        /// `<loginBaseURL>/common/v2.0/.well-known/openid-configuration`.
        public var discoveryURL: String
        public var credentials: SandboxCredentials.Microsoft
    }

    public var microsoft: Microsoft { value(.microsoft, as: Microsoft.self) }
}

extension SandboxIdentity {
    /// A work account in ``SandboxMicrosoftTenant/contoso``.
    public static let microsoftWork = SandboxIdentity(
        provider: .microsoft, subject: "8d0a4f3e-2b1c-4d5e-9f60-718293a4b5c6", email: "adele@contoso.com",
        emailVerified: true, displayName: "Adele Vance", givenName: "Adele", familyName: "Vance",
        tenantID: SandboxMicrosoftTenant.contoso.id, preferredUsername: "adele@contoso.onmicrosoft.com")
    /// A personal Microsoft account: consumers tenant, `oid` `00000000-0000-0000-fde9-26f844473904`
    /// (Graph / Firebase id `fde926f844473904`).
    public static let microsoftPersonal = SandboxIdentity(
        provider: .microsoft, subject: microsoftPersonalObjectID(federatedID: "fde926f844473904"),
        email: "abe.lincoln@outlook.com", emailVerified: true, displayName: "Abe Lincoln", givenName: "Abe",
        familyName: "Lincoln", tenantID: SandboxMicrosoftTenant.personalAccountsTenantID,
        preferredUsername: "abe.lincoln@outlook.com")
    /// A work account in ``SandboxMicrosoftTenant/fabrikam`` whose email domain is not verified (no `xms_edov`).
    public static let microsoftUnverifiedEmail = SandboxIdentity(
        provider: .microsoft, subject: "5e6f7081-92a3-4b4c-8d5e-6f708192a3b4", email: "megan@gmail.com",
        emailVerified: false, displayName: "Megan Bowen", tenantID: SandboxMicrosoftTenant.fabrikam.id,
        preferredUsername: "megan@fabrikam.onmicrosoft.com")
}

extension SandboxProviderDefinition {
    /// Microsoft: per-tenant discovery and keys, the consent page `{tenant}/oauth2/v2.0/authorize` (the
    /// tenant's accounts) and the token endpoint, with Microsoft's `AADSTS` errors.
    static let microsoft = SandboxProviderDefinition(
        id: "microsoft.com", pathPrefix: "microsoft", name: "Microsoft", accent: "#2f6fb5", keyIDStyle: .thumbprint,
        routes: { [MicrosoftRoutes(sandbox: $0)] },
        authorization: SandboxAuthorization(
            authorizePaths: [":tenant/oauth2/v2.0/authorize"], tokenPaths: [":tenant/oauth2/v2.0/token"],
            clientSecret: { sandbox, _, clientID in
                clientID == sandbox.credentials.microsoft.clientID ? sandbox.credentials.microsoft.clientSecret : nil
            },
            refusal: { sandbox, tenant in
                guard let tenant, case .failure = sandbox.microsoftTenant(tenant) else { return nil }
                return ("AADSTS90002", "Tenant '\(tenant)' not found.")
            },
            identities: { sandbox, all, tenant in
                guard let tenant else { return all }
                switch tenant.lowercased() {
                case "common": return all
                case "organizations": return all.filter { !$0.isMicrosoftPersonalAccount }
                default:
                    guard case .success(let id?) = sandbox.microsoftTenant(tenant) else { return [] }
                    return all.filter { $0.tenantID?.lowercased() == id.lowercased() }
                }
            },
            issue: { sandbox, grant, _ in
                let accessToken = sandbox.issueAccessToken(
                    "EwB\(SandboxRandom.alphanumeric(120))", provider: .microsoft, identity: grant.identity, clientID: grant.clientID,
                    scopes: grant.scopes, expiresIn: 3599)
                let idToken = try sandbox.microsoftIDToken(for: grant.identity, clientID: grant.clientID, nonce: grant.nonce.map(SandboxNonce.claim))
                return SandboxHTTP.json([
                    "token_type": "Bearer", "scope": .string(grant.scopes.joined(separator: " ")), "expires_in": 3599, "ext_expires_in": 3599,
                    "access_token": .string(accessToken), "id_token": .string(idToken),
                ])
            },
            tokenError: { error, description, status in
                let prefix =
                    error == "invalid_client"
                    ? "AADSTS7000215: Invalid client secret provided."
                    : "AADSTS70008: The provided authorization code or refresh token has expired due to inactivity."
                return SandboxHTTP.json(["error": .string(error), "error_description": .string("\(prefix) \(description ?? "")")], status: status)
            }),
        makeCredentials: {
            SandboxCredentials.Microsoft(
                clientID: SandboxRandom.uuid(), clientSecret: "\(SandboxRandom.alphanumeric(3))8Q~\(SandboxRandom.alphanumeric(36))",
                otherClientID: SandboxRandom.uuid())
        },
        endpoints: { sandbox, microsoft in
            let value = SandboxEndpoints.Microsoft(
                loginBaseURL: microsoft, issuerTemplate: Sandbox.microsoftIssuerTemplate,
                personalAccountsTenantID: SandboxMicrosoftTenant.personalAccountsTenantID, tenant: "common",
                jwksURL: "\(microsoft)/common/discovery/v2.0/keys", discoveryURL: "\(microsoft)/common/v2.0/.well-known/openid-configuration",
                credentials: sandbox.credentials.microsoft)
            return (
                value,
                [
                    "microsoft.loginBaseURL": value.loginBaseURL, "microsoft.issuerTemplate": value.issuerTemplate, "microsoft.tenant": value.tenant,
                    "microsoft.jwksURL": value.jwksURL, "microsoft.discoveryURL": value.discoveryURL,
                    "microsoft.clientID": value.credentials.clientID, "microsoft.clientSecret": value.credentials.clientSecret,
                ]
            )
        },
        presets: [.microsoftWork, .microsoftPersonal, .microsoftUnverifiedEmail],
        nativeCredential: { sandbox, identity, rawNonce in
            .init(idToken: try sandbox.microsoftIDToken(for: identity, nonce: rawNonce.map(SandboxNonce.raw)))
        })
}

extension MicrosoftRoutes: SandboxRoutes {}
