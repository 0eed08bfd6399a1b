import Crypto
import Foundation
import HearthCore

/// `facebook.com` classic login: Graph `debug_token`, asked with the app token `APPID|APPSECRET`, must say
/// the user token is valid, issued to the configured app and not expired; then `/me` is read with
/// `appsecret_proof` (hex HMAC-SHA256 of the user token keyed by the app secret). Facebook is not a
/// trusted e-mail provider: the address is reported unverified.
struct FacebookAccessTokenVerifier: AccessTokenVerifier {
    static let providerID = "facebook.com"
    static let fields = "id,name,email,first_name,last_name,picture"

    let configuration: ProvidersConfiguration.Facebook
    let http: ProviderHTTP
    let clock: WallClock

    func verify(accessToken: String, credential: FederatedCredential) async throws -> FederatedProfile {
        guard !configuration.appSecret.isEmpty else {
            throw ProviderFailure.notAllowed("facebook.com has no app secret: classic access tokens cannot be checked")
        }
        // 1. debug_token: valid, this app, not expired.
        let appToken = "\(configuration.appID)|\(configuration.appSecret.value)"
        let debugURL = try url(configuration.graphURL("/debug_token"), [("input_token", accessToken), ("access_token", appToken)])
        let debugResponse = try await http.get(debugURL, provider: "Facebook")
        guard debugResponse.isSuccess else {
            throw ProviderFailure.invalid(
                "Facebook could not check the access token.", reason: "Facebook debug_token answered HTTP \(debugResponse.status)")
        }
        guard let data = ClaimSet(try debugResponse.jsonObject()).object("data") else {
            throw ProviderFailure.invalid("Facebook's debug_token response has no data.")
        }
        guard data.flag("is_valid") == true else {
            throw ProviderFailure.invalid("The Facebook access token is invalid or expired.", reason: "debug_token is_valid is not true")
        }
        guard data.string("app_id") == configuration.appID else {
            throw ProviderFailure.invalid(
                "The Facebook access token was not issued for this app.", reason: "debug_token app_id \(data.string("app_id") ?? "none")")
        }
        if let expiresAt = data.number("expires_at"), expiresAt > 0, expiresAt <= clock.now.timeIntervalSince1970 {
            throw ProviderFailure.invalid("The Facebook access token is invalid or expired.", reason: "debug_token expires_at has passed")
        }
        if let type = data.string("type"), type != "USER" {
            throw ProviderFailure.invalid("The Facebook access token is not a user token.", reason: "debug_token type \(type)")
        }

        // 2. /me with appsecret_proof.
        let meURL = try url(
            configuration.graphURL("/me"),
            [
                ("fields", Self.fields), ("access_token", accessToken),
                ("appsecret_proof", Self.appSecretProof(accessToken, secret: configuration.appSecret)),
            ])
        let meResponse = try await http.get(meURL, provider: "Facebook")
        guard meResponse.isSuccess else {
            throw ProviderFailure.invalid(
                "The Facebook access token is invalid or expired.", reason: "Facebook /me answered HTTP \(meResponse.status)")
        }
        let me = ClaimSet(try meResponse.jsonObject())
        guard let id = me.string("id") else { throw ProviderFailure.invalid("Facebook's /me response has no id.") }
        if let tokenUser = data.string("user_id"), tokenUser != id {
            throw ProviderFailure.invalid(
                "Facebook's profile does not belong to the access token.", reason: "debug_token user_id differs from /me id")
        }
        return FederatedProfile(
            providerID: Self.providerID, rawID: id, email: me.email(), emailVerified: false, displayName: me.string("name"),
            firstName: me.string("first_name"), lastName: me.string("last_name"), photoURL: configuration.pictureURL(forUserID: id),
            rawUserInfo: me.values)
    }

    /// `hex(HMAC-SHA256(key: app secret, message: access token))`.
    static func appSecretProof(_ accessToken: String, secret: ProviderSecret) -> String {
        let key = SymmetricKey(data: Data(secret.value.utf8))
        return HMAC<SHA256>.authenticationCode(for: Data(accessToken.utf8), using: key).lowercaseHex
    }

    private func url(_ base: URL, _ query: [(String, String)]) throws -> URL {
        guard let url = base.appendingQuery(query) else { throw ProviderFailure.notAllowed("facebook.com graphBaseURL does not make a URL") }
        return url
    }
}
