import Foundation
import HearthCore

/// `google.com` with only an access token: `tokeninfo` proves the token is live and was issued to one of the
/// project's client ids (`aud` or `azp`), then OpenID `userinfo` gives the profile, which must be the same
/// subject.
struct GoogleAccessTokenVerifier: AccessTokenVerifier {
    let configuration: ProvidersConfiguration.Google
    let http: ProviderHTTP
    let clock: WallClock
    let clockSkew: Double

    func verify(accessToken: String, credential: FederatedCredential) async throws -> FederatedProfile {
        guard configuration.acceptsAccessTokens else {
            throw ProviderFailure.invalid("Google sign-in needs an id_token; access tokens are not accepted.")
        }
        // 1. tokeninfo: live, and for this project.
        guard let tokeninfoURL = configuration.tokeninfoURL.appendingQuery([("access_token", accessToken)]) else {
            throw ProviderFailure.notAllowed("google.com tokeninfoURL is not a URL")
        }
        let infoResponse = try await http.get(tokeninfoURL, provider: "Google")
        guard infoResponse.isSuccess else {
            throw ProviderFailure.invalid(
                "The Google access token is invalid or expired.", reason: "Google tokeninfo answered HTTP \(infoResponse.status)")
        }
        let info = ClaimSet(try infoResponse.jsonObject())
        let clientIDs = Set(configuration.clientIDs)
        let audience = [info.string("aud"), info.string("azp")].compactMap { $0 }
        guard audience.contains(where: clientIDs.contains) else {
            throw ProviderFailure.invalid("access_token audience is not for this project", reason: "Google access token aud \(audience)")
        }
        if let exp = info.number("exp"), exp + clockSkew < clock.now.timeIntervalSince1970 {
            throw ProviderFailure.invalid("The Google access token is invalid or expired.", reason: "Google access token expired")
        }
        if let remaining = info.number("expires_in"), remaining <= 0 {
            throw ProviderFailure.invalid("The Google access token is invalid or expired.", reason: "Google access token expires_in \(remaining)")
        }

        // 2. userinfo: the profile.
        let profileResponse = try await http.get(configuration.userinfoURL, bearer: accessToken, provider: "Google")
        guard profileResponse.isSuccess else {
            throw ProviderFailure.invalid(
                "The Google access token is invalid or expired.", reason: "Google userinfo answered HTTP \(profileResponse.status)")
        }
        let user = ClaimSet(try profileResponse.jsonObject())
        guard let subject = user.string("sub") ?? user.string("id") else {
            throw ProviderFailure.invalid("Google's userinfo response has no subject.")
        }
        if let tokenSubject = info.string("sub") ?? info.string("user_id"), tokenSubject != subject {
            throw ProviderFailure.invalid("Google's userinfo does not belong to the access token.", reason: "tokeninfo sub differs from userinfo sub")
        }
        var merged = user
        if merged.email() == nil, let email = info.string("email") {
            merged.values["email"] = .string(email)
            merged.values["email_verified"] = info["email_verified"] ?? .bool(false)
        }
        return GoogleProfileShape.profile(merged, subject: subject, grantedScopes: info.string("scope"))
    }
}
