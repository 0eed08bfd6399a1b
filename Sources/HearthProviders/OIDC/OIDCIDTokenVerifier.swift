import Foundation
import HearthCore

/// `oidc.<name>`: the issuer's discovery document (cached) must name the configured issuer exactly and gives
/// the JWKS; the ID token's `iss` must be the issuer and `aud` a configured client id; the algorithm must be
/// both configured and listed by the discovery document.
struct OIDCIDTokenVerifier: IDTokenVerifier {
    let providerID: String
    let configuration: ProvidersConfiguration.OIDC
    let validator: IDTokenValidator
    let discovery: DiscoveryReader

    func verify(idToken: String, credential: FederatedCredential) async throws -> FederatedProfile {
        guard let discoveryURL = configuration.resolvedDiscoveryURL else {
            throw ProviderFailure.notAllowed("\(providerID) has no usable discovery URL")
        }
        let name = providerID
        let document = try await discovery.document(at: discoveryURL, provider: name)
        guard document.issuer == configuration.issuer else {
            throw ProviderFailure.invalid(
                "The \(name) discovery document names another issuer.",
                reason: "\(name) discovery issuer \(document.issuer) is not the configured \(configuration.issuer)")
        }
        var algorithms = Set(configuration.algorithms)
        if let listed = document.signingAlgorithms { algorithms.formIntersection(listed.compactMap(IDTokenAlgorithm.init(rawValue:))) }
        let policy = IDTokenPolicy(
            providerName: name, issuers: [configuration.issuer], audiences: Set(configuration.clientIDs), algorithms: algorithms,
            jwksURL: document.jwksURI)
        let claims = try await validator.validate(idToken, policy: policy, rawNonce: credential.rawNonce, providerID: providerID)
        let email = claims.email()
        return FederatedProfile(
            providerID: providerID, rawID: claims.string("sub") ?? "", email: email,
            emailVerified: email != nil && claims.flag("email_verified") == true, displayName: claims.string("name"),
            firstName: claims.string("given_name"), lastName: claims.string("family_name"), photoURL: claims.string("picture"),
            rawUserInfo: claims.values)
    }
}
