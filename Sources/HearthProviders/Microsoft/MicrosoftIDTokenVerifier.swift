import Foundation
import HearthCore

/// `microsoft.com`: a v2.0 RS256 ID token whose `iss` is the issuer template filled with the token's own
/// `tid`, whose tenant the configured rule allows, and whose federated id is `oid` (for personal accounts
/// the 16-hex-digit id inside `00000000-0000-0000-XXXX-XXXXXXXXXXXX`), never the per-app `sub`. No photo.
struct MicrosoftIDTokenVerifier: IDTokenVerifier {
    static let providerID = "microsoft.com"
    static let personalOIDPrefix = "00000000-0000-0000-"

    let configuration: ProvidersConfiguration.Microsoft
    let validator: IDTokenValidator
    let discovery: DiscoveryReader

    var rule: MicrosoftTenantRule { MicrosoftTenantRule(configuration.tenant) }

    var policy: IDTokenPolicy {
        let tenant = configuration.tenant.trimmingCharacters(in: .whitespaces)
        let jwks = configuration.jwksURLTemplate.replacingOccurrences(of: "{tenant}", with: Self.pathSafe(tenant))
        return IDTokenPolicy(
            providerName: "Microsoft", issuers: nil, audiences: Set(configuration.clientIDs), algorithms: [.rs256],
            jwksURL: URL(string: jwks) ?? URL.providerDefault("https://login.microsoftonline.com/common/discovery/v2.0/keys"))
    }

    func verify(idToken: String, credential: FederatedCredential) async throws -> FederatedProfile {
        let claims = try await validator.validate(idToken, policy: policy, rawNonce: credential.rawNonce, providerID: Self.providerID)
        func invalid(_ why: String) -> HearthError { ProviderFailure.invalid("Invalid Microsoft id_token: \(why)") }

        // Issuer: the template filled with the token's own tenant id.
        guard let tid = claims.string("tid")?.lowercased(), MicrosoftTenantRule.isGUID(tid) else {
            throw invalid("it has no tenant id (tid).")
        }
        let expectedIssuer = configuration.issuerTemplate.replacingOccurrences(of: "{tenant}", with: tid)
        guard let issuer = claims.string("iss"), issuer == expectedIssuer else {
            throw invalid("the issuer \"\((claims.string("iss") ?? "").prefix(200))\" does not match its tenant \(tid).")
        }

        // Tenant rule.
        let consumers = ProvidersConfiguration.Microsoft.consumersTenantID
        switch rule {
        case .common: break
        case .organizations:
            guard tid != consumers else { throw invalid("personal Microsoft accounts may not sign in to this app.") }
        case .consumers:
            guard tid == consumers else { throw invalid("only personal Microsoft accounts may sign in to this app.") }
        case .tenant(let allowed):
            guard tid == allowed else { throw invalid("accounts of tenant \(tid) may not sign in to this app.") }
        case .domain(let domain):
            let allowed = try await tenantID(ofDomain: domain)
            guard tid == allowed else { throw invalid("accounts of tenant \(tid) may not sign in to this app.") }
        }
        if !configuration.allowedTenantIDs.isEmpty, !configuration.allowedTenantIDs.map({ $0.lowercased() }).contains(tid) {
            throw invalid("accounts of tenant \(tid) may not sign in to this app.")
        }

        // Identity: oid, not the pairwise sub.
        guard let oid = claims.string("oid")?.lowercased() else {
            throw invalid("it has no object id (oid); request the profile scope.")
        }
        let rawID = Self.federatedID(fromOID: oid)

        // The e-mail claim, else the sign-in name when it is an address. Verified when Microsoft says the
        // domain owner verified the e-mail claim (xms_edov), or for a personal account's Microsoft-issued address.
        let emailClaim = claims.email()
        let email = emailClaim ?? claims.email("preferred_username")
        let domain = email.flatMap { $0.split(separator: "@").last.map(String.init) }
        let consumerMail = tid == consumers && domain.map { configuration.trustedEmailDomains.map { $0.lowercased() }.contains($0) } == true
        let emailVerified = (emailClaim != nil && claims.flag("xms_edov") == true) || (email != nil && consumerMail)

        return FederatedProfile(
            providerID: Self.providerID, rawID: rawID, email: email, emailVerified: emailVerified,
            displayName: claims.string("name"), firstName: claims.string("given_name"), lastName: claims.string("family_name"),
            photoURL: nil, rawUserInfo: claims.values)
    }

    /// `oid` for work/school accounts; for personal accounts (`00000000-0000-0000-XXXX-XXXXXXXXXXXX`) the
    /// 16 hex digits `XXXXXXXXXXXXXXXX`, lower-case (Microsoft Graph's `id` of a personal account).
    static func federatedID(fromOID oid: String) -> String {
        let lowered = oid.lowercased()
        guard lowered.hasPrefix(personalOIDPrefix) else { return lowered }
        let digits = lowered.replacingOccurrences(of: "-", with: "")
        return String(digits.suffix(16))
    }

    /// The GUID of a tenant named by domain, from the issuer of its discovery document.
    private func tenantID(ofDomain domain: String) async throws -> String {
        let text = configuration.discoveryURLTemplate.replacingOccurrences(of: "{tenant}", with: Self.pathSafe(domain))
        guard let url = URL(string: text) else {
            throw ProviderFailure.notAllowed("microsoft.com discovery URL template does not make a URL for \(domain)")
        }
        let document = try await discovery.document(at: url, provider: "Microsoft")
        let parts = configuration.issuerTemplate.components(separatedBy: "{tenant}")
        guard parts.count == 2, document.issuer.hasPrefix(parts[0]), document.issuer.hasSuffix(parts[1]),
            document.issuer.count > parts[0].count + parts[1].count
        else {
            throw ProviderFailure.invalid(
                "Unable to resolve the Microsoft tenant \(domain).", reason: "discovery issuer \(document.issuer) does not fit the issuer template")
        }
        let tid = String(document.issuer.dropFirst(parts[0].count).dropLast(parts[1].count)).lowercased()
        guard MicrosoftTenantRule.isGUID(tid) else {
            throw ProviderFailure.invalid("Unable to resolve the Microsoft tenant \(domain).", reason: "discovery issuer tenant \(tid) is not a GUID")
        }
        return tid
    }

    /// A tenant name safe to put in a URL path segment.
    static func pathSafe(_ text: String) -> String {
        text.addingPercentEncoding(withAllowedCharacters: .urlPathAllowed.subtracting(CharacterSet(charactersIn: "/?#"))) ?? text
    }
}
