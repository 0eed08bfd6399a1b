import Foundation
import HearthCore
import NIOHTTP1

/// `github.com`: optionally `POST /applications/{client_id}/token` (when the OAuth app's client id and secret
/// are configured) to prove the token was issued to this app; then `GET /user` for the identity and
/// `GET /user/emails` for the primary verified address. GitHub is not the mail issuer: the address is
/// reported unverified.
struct GitHubAccessTokenVerifier: AccessTokenVerifier {
    static let providerID = "github.com"
    static let apiHeaders = [("Accept", "application/vnd.github+json"), ("X-GitHub-Api-Version", "2022-11-28")]

    let configuration: ProvidersConfiguration.GitHub
    let http: ProviderHTTP

    func verify(accessToken: String, credential: FederatedCredential) async throws -> FederatedProfile {
        try await checkIssuedToThisApp(accessToken)

        let userResponse = try await http.get(
            configuration.apiBaseURL.appendingProviderPath("/user"), bearer: accessToken, headers: Self.apiHeaders, provider: "GitHub")
        guard userResponse.isSuccess else {
            if userResponse.status == 401 {
                throw ProviderFailure.invalid("The GitHub access token is invalid or expired.", reason: "GitHub /user answered HTTP 401")
            }
            throw ProviderFailure.invalid(
                "GitHub answered with HTTP \(userResponse.status).", reason: "GitHub /user answered HTTP \(userResponse.status)")
        }
        let user = ClaimSet(try userResponse.jsonObject())
        guard let id = user.string("id") else { throw ProviderFailure.invalid("GitHub's /user response has no id.") }

        return FederatedProfile(
            providerID: Self.providerID, rawID: id, email: try await primaryVerifiedEmail(accessToken), emailVerified: false,
            displayName: user.string("name"), photoURL: user.string("avatar_url"), screenName: user.string("login"),
            rawUserInfo: user.values)
    }

    /// The primary address if GitHub has verified it; `nil` when there is none or the token may not read addresses.
    private func primaryVerifiedEmail(_ accessToken: String) async throws -> String? {
        let response = try await http.get(
            configuration.apiBaseURL.appendingProviderPath("/user/emails"), bearer: accessToken, headers: Self.apiHeaders, provider: "GitHub")
        guard response.isSuccess, case .array(let entries) = try response.json() else { return nil }
        for case .object(let fields) in entries {
            let entry = ClaimSet(fields)
            if entry.flag("primary") == true, entry.flag("verified") == true, let email = entry.email() { return email }
        }
        return nil
    }

    /// With the OAuth app's credentials configured, GitHub's "check a token" must know the token.
    private func checkIssuedToThisApp(_ accessToken: String) async throws {
        guard let clientID = configuration.clientID, !clientID.isEmpty, let secret = configuration.clientSecret, !secret.isEmpty else { return }
        let url = configuration.apiBaseURL.appendingProviderPath("/applications/\(OAuth1Signer.percentEncode(clientID))/token")
        let basic = Data("\(clientID):\(secret.value)".utf8).base64EncodedString()
        let body = JSONValue.object(["access_token": .string(accessToken)]).jsonText
        let response = try await http.send(
            .POST, url, headers: Self.apiHeaders + [("Authorization", "Basic \(basic)"), ("Content-Type", "application/json")],
            body: Data(body.utf8), provider: "GitHub")
        switch response.status {
        case 200: return
        case 404, 422:
            throw ProviderFailure.invalid(
                "The GitHub access token is invalid or was not issued for this app.", reason: "GitHub check-token answered HTTP \(response.status)")
        default:
            throw ProviderFailure.invalid(
                "GitHub could not check the access token.", reason: "GitHub check-token answered HTTP \(response.status) (client credentials?)")
        }
    }
}
