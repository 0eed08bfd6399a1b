import Foundation
import HearthCore
import NIOHTTP1

/// `twitter.com`: the user's OAuth 1.0a token and secret are proven by a `GET
/// 1.1/account/verify_credentials.json?include_email=true&skip_status=true` signed (HMAC-SHA1) with the
/// app's consumer key and secret. A token issued to another app, or a wrong secret, fails the signature
/// at Twitter (401).
struct TwitterAccessTokenVerifier: AccessTokenVerifier {
    static let providerID = "twitter.com"

    let configuration: ProvidersConfiguration.Twitter
    let http: ProviderHTTP
    let clock: WallClock

    func verify(accessToken: String, credential: FederatedCredential) async throws -> FederatedProfile {
        guard let tokenSecret = credential.tokenSecret, !tokenSecret.isEmpty else {
            throw ProviderFailure.invalid("The Twitter credential needs both oauth_token and oauth_token_secret.")
        }
        guard let url = configuration.verifyCredentialsURL.appendingQuery([("include_email", "true"), ("skip_status", "true")]) else {
            throw ProviderFailure.notAllowed("twitter.com apiBaseURL does not make a URL")
        }
        let signer = OAuth1Signer(consumerKey: configuration.consumerKey, consumerSecret: configuration.consumerSecret.value)
        let authorization = signer.authorizationHeader(
            method: "GET", url: url, token: accessToken, tokenSecret: tokenSecret, nonce: OAuth1Signer.makeNonce(),
            timestamp: Int(clock.now.timeIntervalSince1970))
        let response = try await http.send(.GET, url, headers: [("Authorization", authorization)], provider: "Twitter")
        guard response.isSuccess else {
            if response.status == 401 || response.status == 403 {
                throw ProviderFailure.invalid(
                    "Twitter did not accept the OAuth 1.0a token and secret for this app.",
                    reason: "Twitter verify_credentials answered HTTP \(response.status)")
            }
            throw ProviderFailure.invalid("Twitter answered with HTTP \(response.status).")
        }
        let user = ClaimSet(try response.jsonObject())
        guard let id = user.string("id_str") ?? user.string("id") else {
            throw ProviderFailure.invalid("Twitter's verify_credentials response has no id_str.")
        }
        // Twitter only returns confirmed addresses, but it is not the mail issuer: not a trusted provider.
        return FederatedProfile(
            providerID: Self.providerID, rawID: id, email: user.email(), emailVerified: false, displayName: user.string("name"),
            photoURL: user.string("profile_image_url_https"), screenName: user.string("screen_name"), rawUserInfo: user.values)
    }
}
