import HearthCore

/// `google.com` with an ID token: RS256 from Google's keys, `iss` either `https://accounts.google.com` or
/// `accounts.google.com`, `aud` a configured client id.
struct GoogleIDTokenVerifier: IDTokenVerifier {
    static let providerID = "google.com"

    let configuration: ProvidersConfiguration.Google
    let validator: IDTokenValidator

    var policy: IDTokenPolicy {
        IDTokenPolicy(
            providerName: "Google", issuers: Set(configuration.issuers), audiences: Set(configuration.clientIDs),
            algorithms: [.rs256], jwksURL: configuration.jwksURL)
    }

    func verify(idToken: String, credential: FederatedCredential) async throws -> FederatedProfile {
        let claims = try await validator.validate(idToken, policy: policy, rawNonce: credential.rawNonce, providerID: Self.providerID)
        // The browser flow's token response names the scopes granted; a credential the app sends has none.
        return GoogleProfileShape.profile(claims, subject: claims.string("sub") ?? "", grantedScopes: credential.providerFields["scope"])
    }
}
