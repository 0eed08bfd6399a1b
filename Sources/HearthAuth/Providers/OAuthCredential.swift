import Foundation
import HearthWire

/// A credential of an OAuth or OpenID Connect provider: what the provider issued (ID token, access token,
/// OAuth 1 secret), or a pending credential that the server handed back with an error.
public final class OAuthCredential: AuthCredential, @unchecked Sendable {
    /// The provider's OpenID Connect ID token.
    public let idToken: String?
    /// The provider's OAuth access token.
    public let accessToken: String?
    /// The OAuth 1.0a token secret (Twitter).
    public let secret: String?
    /// The raw nonce whose SHA-256 the ID token carries (Sign in with Apple, OpenID Connect).
    let rawNonce: String?
    /// Given and family name to send with an Apple credential (Apple tells them only on the first sign-in).
    let givenName: String?
    let familyName: String?
    /// A credential the server issued earlier (`needConfirmation`, already linked): signs in without the provider.
    let pendingToken: String?
    /// A finished browser sign-in: the `link` the server's handler returned, and the session it belongs to.
    let requestURI: String?
    let sessionID: String?

    init(
        providerID: String, idToken: String? = nil, accessToken: String? = nil, secret: String? = nil,
        rawNonce: String? = nil, givenName: String? = nil, familyName: String? = nil, pendingToken: String? = nil,
        requestURI: String? = nil, sessionID: String? = nil
    ) {
        self.idToken = idToken
        self.accessToken = accessToken
        self.secret = secret
        self.rawNonce = rawNonce
        self.givenName = givenName
        self.familyName = familyName
        self.pendingToken = pendingToken
        self.requestURI = requestURI
        self.sessionID = sessionID
        super.init(provider: providerID)
    }

    /// The credential a signInWithIdp response returns, or nil if it has none of the provider's tokens and no
    /// pending token.
    convenience init?(response: SignInWithIdpResponse) {
        func nonEmpty(_ value: String?) -> String? { value.flatMap { $0.isEmpty ? nil : $0 } }
        let idToken = nonEmpty(response.oauthIdToken)
        let accessToken = nonEmpty(response.oauthAccessToken)
        let secret = nonEmpty(response.oauthTokenSecret)
        let pendingToken = nonEmpty(response.pendingToken)
        guard idToken != nil || accessToken != nil || secret != nil || pendingToken != nil else { return nil }
        self.init(
            providerID: nonEmpty(response.providerId) ?? "OAuth", idToken: idToken, accessToken: accessToken,
            secret: secret, pendingToken: pendingToken)
    }

    /// The signInWithIdp request for this credential. A pending token is sent alone: it stands for the
    /// credential the server has already verified.
    func request(idToken linkTo: String?, autoCreate: Bool, tenantID: String?) -> SignInWithIdpRequest {
        var request = SignInWithIdpRequest(idToken: linkTo, returnIdpCredential: true, returnSecureToken: true, autoCreate: autoCreate)
        request.tenantId = tenantID
        if let pendingToken {
            request.pendingToken = pendingToken
            return request
        }
        if let requestURI {
            // The provider's answer waits on the server; the link names it and the session proves it is ours.
            request.requestUri = requestURI
            request.sessionId = sessionID
            request.postBody = "providerId=\(FormEncoding.escape(provider))"
            return request
        }
        var fields: [(String, String)] = [("providerId", provider)]
        if let idToken { fields.append(("id_token", idToken)) }
        if let rawNonce { fields.append(("nonce", rawNonce)) }
        if let accessToken { fields.append(("access_token", accessToken)) }
        if let secret { fields.append(("oauth_token_secret", secret)) }
        if givenName != nil || familyName != nil {
            var name: [String: String] = [:]
            if let givenName { name["firstName"] = givenName }
            if let familyName { name["lastName"] = familyName }
            let encoder = JSONEncoder()
            encoder.outputFormatting = .sortedKeys
            if let data = try? encoder.encode(["name": name]) {
                fields.append(("user", String(decoding: data, as: UTF8.self)))
            }
        }
        request.postBody = fields.map { "\($0.0)=\(FormEncoding.escape($0.1))" }.joined(separator: "&")
        return request
    }
}

enum FormEncoding {
    private static let allowed: CharacterSet = {
        var set = CharacterSet(charactersIn: "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789")
        set.insert(charactersIn: "-._~")
        return set
    }()

    static func escape(_ value: String) -> String {
        value.addingPercentEncoding(withAllowedCharacters: allowed) ?? value
    }
}
