import Crypto
import Foundation
import HearthBase64URL

extension Sandbox {
    /// The host Microsoft ID tokens name in `iss`.
    public static let microsoftLoginHost = "https://login.microsoftonline.com"
    /// The issuer `common` and `organizations` discovery documents report, with a literal `{tenantid}`.
    public static let microsoftIssuerTemplate = "https://login.microsoftonline.com/{tenantid}/v2.0"

    /// `https://login.microsoftonline.com/<tenantID>/v2.0`.
    public static func microsoftIssuer(tenantID: String) -> String { "\(microsoftLoginHost)/\(tenantID)/v2.0" }

    /// A Microsoft identity platform v2.0 ID token (header `typ`, `alg` RS256, `kid`).
    ///
    /// Claims: `ver` "2.0", `iss` `https://login.microsoftonline.com/<tid>/v2.0`, `tid`, `oid` (the identity's
    /// subject; personal accounts `00000000-0000-0000-XXXX-XXXXXXXXXXXX` in tenant
    /// `9188040d-6c67-4c5b-b112-36a304b66dad`), `sub` (pairwise per application, never equal to `oid`), `aud`,
    /// `iat`, `nbf`, `exp`, `name`, `preferred_username`, `email` and `xms_edov` (when the identity has an email),
    /// `nonce` (when given; verbatim for ``SandboxNonce/claim(_:)``, hashed for ``SandboxNonce/raw(_:)``),
    /// and the opaque `aio`, `rh`, `uti`, `sid`.
    /// - Parameters:
    ///   - clientID: the application id (`aud`); ``SandboxCredentials/Microsoft/clientID`` by default.
    ///   - tenantID: overrides the identity's tenant (e.g. a guest signing in to another tenant).
    public func microsoftIDToken(
        for identity: SandboxIdentity, clientID: String? = nil, tenantID: String? = nil, nonce: SandboxNonce? = nil,
        expiresIn: TimeInterval = 3600, defect: SandboxTokenDefect? = nil, extraClaims: [String: SandboxJSON] = [:],
        omittedClaims: Set<String> = []
    ) throws -> String {
        try require(identity, is: .microsoft)
        guard let tid = tenantID ?? identity.tenantID else {
            throw SandboxError.incompleteIdentity("a Microsoft identity needs a tenantID")
        }
        add(identity)
        if tenantID != nil, case .failure = microsoftTenant(tid) { addMicrosoftTenant(SandboxMicrosoftTenant(id: tid)) }
        let audience = clientID ?? credentials.microsoft.clientID
        let times = tokenTimes(expiresIn: expiresIn)
        var claims: [String: SandboxJSON] = [
            "ver": "2.0", "iss": .string(Self.microsoftIssuer(tenantID: tid)), "tid": .string(tid),
            "oid": .string(identity.subject), "sub": .string(microsoftPairwiseSubject(for: identity, clientID: audience)),
            "aud": .string(audience), "iat": .int(times.iat), "nbf": .int(times.iat), "exp": .int(times.exp),
            "aio": .string(SandboxRandom.base64URL(bytes: 60)),
            "rh": .string("0.A\(SandboxRandom.base64URL(bytes: 40)).".replacingOccurrences(of: "_", with: "-")),
            "uti": .string(SandboxRandom.base64URL(bytes: 16)), "sid": .string(SandboxRandom.uuid()),
        ]
        if let name = identity.displayName { claims["name"] = .string(name) }
        if let username = identity.preferredUsername ?? identity.email { claims["preferred_username"] = .string(username) }
        if let email = identity.email {
            claims["email"] = .string(email)
            claims["xms_edov"] = .bool(identity.emailVerified)
        }
        if let nonce { claims["nonce"] = .string(nonce.claimValue) }
        let otherTenant = tid == SandboxMicrosoftTenant.contoso.id ? SandboxMicrosoftTenant.fabrikam.id : SandboxMicrosoftTenant.contoso.id
        return try signIDToken(
            provider: .microsoft, includeType: true, claims: claims, expiresIn: expiresIn, defect: defect,
            extraClaims: extraClaims, omittedClaims: omittedClaims,
            mismatchedIssuer: Self.microsoftIssuer(tenantID: otherTenant))
    }

    /// The `sub` Microsoft gives `identity` in tokens for `clientID`: 43 base64url characters, different per
    /// application (so never usable as the account key).
    public func microsoftPairwiseSubject(for identity: SandboxIdentity, clientID: String) -> String {
        let input = "\(identity.tenantID ?? "")|\(identity.subject)|\(clientID)"
        return Base64URL.encode(SHA256.hash(data: Data(input.utf8)))
    }

    /// The tenant GUID behind a URL tenant segment, `nil` for `common`/`organizations` (the `{tenantid}`
    /// template), or `.failure` for an unknown tenant.
    func microsoftTenant(_ segment: String) -> Result<String?, MicrosoftUnknownTenant> {
        let lowered = segment.lowercased()
        switch lowered {
        case "common", "organizations": return .success(nil)
        case "consumers", SandboxMicrosoftTenant.personalAccountsTenantID: return .success(SandboxMicrosoftTenant.personalAccountsTenantID)
        default:
            let tenants = withState { $0.microsoftTenants }
            if let tenant = tenants.first(where: { $0.id.lowercased() == lowered || $0.domain?.lowercased() == lowered }) {
                return .success(tenant.id)
            }
            return .failure(MicrosoftUnknownTenant(segment: segment))
        }
    }

    /// A Microsoft tenant segment the sandbox does not know.
    struct MicrosoftUnknownTenant: Error {
        let segment: String
    }
}
