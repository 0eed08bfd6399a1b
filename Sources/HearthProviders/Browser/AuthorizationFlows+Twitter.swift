import Foundation
import HearthCore
import HearthFormEncoding
import NIOHTTP1

/// Twitter's three-legged OAuth 1.0a (providers.md §4.1): a request token signed with the consumer secret,
/// the person's approval at `/oauth/authenticate`, then an access token signed with the request token's
/// secret. Twitter has no `state`; Hearth's rides in the callback URL registered with the request token (the
/// app's own callback URL goes as it is: there the request token names the sign-in).
/// Every `oauth_*` parameter, `oauth_callback` and `oauth_verifier` included, goes in the `Authorization`
/// header (RFC 5849 §3.5: one transmission method per request); the POSTs have no body.
extension AuthorizationFlows {
    func startTwitter(_ request: AuthorizationRequest, custom: [String: String]) async throws -> AuthorizationStart {
        let twitter = configuration.twitter
        let state = request.twitterCallbackCarriesState ? [("state", request.state)] : []
        guard let callback = request.redirectURI.appendingQuery(state) else {
            throw HearthError(.internalError, reason: "cannot build the Twitter callback URL")
        }
        let signer = OAuth1Signer(consumerKey: twitter.consumerKey, consumerSecret: twitter.consumerSecret.value)
        let header = signer.authorizationHeader(
            method: "POST", url: twitter.requestTokenURL, protocolParameters: [("oauth_callback", callback.absoluteString)], token: nil,
            tokenSecret: nil, nonce: OAuth1Signer.makeNonce(), timestamp: Int(clock.now.timeIntervalSince1970))
        let response = try await http.send(.POST, twitter.requestTokenURL, headers: [("Authorization", header)], provider: "Twitter")
        let fields = Self.formFields(response.body)
        guard response.isSuccess, let token = fields["oauth_token"], let secret = fields["oauth_token_secret"],
            fields["oauth_callback_confirmed"] == "true"
        else {
            throw ProviderFailure.invalid(
                "Twitter refused the request token.", reason: "request_token answered HTTP \(response.status)")
        }
        var query = [("oauth_token", token)]
        query += custom.sorted { $0.key < $1.key }.map { ($0.key, $0.value) }
        return AuthorizationStart(
            url: try url(twitter.authenticateURL, query), pendingValues: ["request_token": token, "request_token_secret": secret])
    }

    func finishTwitter(callback: [String: String], pending: [String: String]) async throws -> FederatedCredential {
        if callback["denied"] != nil { throw AuthorizationFailure.cancelled }
        guard let token = callback["oauth_token"], let verifier = callback["oauth_verifier"], !verifier.isEmpty else {
            throw AuthorizationFailure.refused("Twitter's answer has no oauth_token and oauth_verifier.")
        }
        guard token == pending["request_token"], let requestSecret = pending["request_token_secret"] else {
            throw AuthorizationFailure.refused("Twitter answered for another request token.")
        }
        let twitter = configuration.twitter
        let signer = OAuth1Signer(consumerKey: twitter.consumerKey, consumerSecret: twitter.consumerSecret.value)
        let header = signer.authorizationHeader(
            method: "POST", url: twitter.accessTokenURL, protocolParameters: [("oauth_verifier", verifier)], token: token,
            tokenSecret: requestSecret, nonce: OAuth1Signer.makeNonce(), timestamp: Int(clock.now.timeIntervalSince1970))
        let response = try await call {
            try await http.send(.POST, twitter.accessTokenURL, headers: [("Authorization", header)], provider: "Twitter")
        }
        let fields = Self.formFields(response.body)
        if response.status == 401 || response.status == 403 {
            throw AuthorizationFailure.invalidClient("Twitter refused the access-token request (HTTP \(response.status)).")
        }
        guard response.isSuccess, let accessToken = fields["oauth_token"], let secret = fields["oauth_token_secret"] else {
            throw AuthorizationFailure.refused("Twitter did not issue an access token (HTTP \(response.status)).")
        }
        return FederatedCredential(providerID: "twitter.com", accessToken: accessToken, tokenSecret: secret)
    }

    static func formBody(_ pairs: [(String, String)]) -> String { FormEncoding.encode(pairs) }

    /// A provider's form-encoded answer, read leniently (the first value of a name wins).
    static func formFields(_ body: Data) -> [String: String] { BrowserCallback.formFields(String(decoding: body, as: UTF8.self)) }
}
