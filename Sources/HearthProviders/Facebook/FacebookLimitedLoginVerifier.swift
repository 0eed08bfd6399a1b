import HearthCore

/// `facebook.com` Limited Login: an RS256 ID token from the Limited Login keys, `iss`
/// `https://www.facebook.com`, `aud` the app id, and a nonce that is required (the request must carry the raw
/// nonce whose SHA-256 the token holds). The e-mail is reported unverified.
struct FacebookLimitedLoginVerifier: IDTokenVerifier {
    let configuration: ProvidersConfiguration.Facebook
    let validator: IDTokenValidator

    var policy: IDTokenPolicy {
        IDTokenPolicy(
            providerName: "Facebook", issuers: Set(configuration.limitedLoginIssuers), audiences: [configuration.appID],
            algorithms: [.rs256], jwksURL: configuration.limitedLoginJWKSURL, nonceRequired: true)
    }

    func verify(idToken: String, credential: FederatedCredential) async throws -> FederatedProfile {
        guard configuration.limitedLoginEnabled else {
            throw ProviderFailure.notAllowed("facebook.com Limited Login is switched off")
        }
        let claims = try await validator.validate(idToken, policy: policy, rawNonce: credential.rawNonce, providerID: "facebook.com")
        let id = claims.string("sub") ?? ""
        // Shaped like Graph's /me, which a Limited Login token cannot call.
        var info = claims.picking(["name", "email"])
        info["id"] = .string(id)
        if let first = claims["given_name"] { info["first_name"] = first }
        if let last = claims["family_name"] { info["last_name"] = last }
        if let picture = claims.string("picture") {
            info["picture"] = .object(["data": .object(["url": .string(picture)])])
        }
        return FederatedProfile(
            providerID: "facebook.com", rawID: id, email: claims.email(), emailVerified: false, displayName: claims.string("name"),
            firstName: claims.string("given_name"), lastName: claims.string("family_name"),
            photoURL: configuration.pictureURL(forUserID: id), rawUserInfo: info)
    }
}
