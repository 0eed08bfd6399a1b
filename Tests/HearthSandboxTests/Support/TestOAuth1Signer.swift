import Crypto
import Foundation

/// An RFC 5849 HMAC-SHA1 signer written for the tests (independently of the sandbox's verifier), checked against
/// X's documented example in `TwitterTests`.
struct TestOAuth1Signer {
    var consumerKey: String
    var consumerSecret: String
    var token: String
    var tokenSecret: String

    static func encode(_ text: String) -> String {
        let unreserved = CharacterSet(charactersIn: "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-._~")
        return text.addingPercentEncoding(withAllowedCharacters: unreserved) ?? text
    }

    static func baseString(method: String, url: String, parameters: [(String, String)]) -> String {
        let encoded: [(name: String, value: String)] = parameters.map { (encode($0.0), encode($0.1)) }
        let sorted = encoded.sorted { left, right in
            left.name != right.name ? left.name < right.name : left.value < right.value
        }
        let normalized = sorted.map { "\($0.name)=\($0.value)" }.joined(separator: "&")
        return "\(method)&\(encode(url))&\(encode(normalized))"
    }

    static func sign(_ baseString: String, consumerSecret: String, tokenSecret: String) -> String {
        let key = SymmetricKey(data: Data("\(encode(consumerSecret))&\(encode(tokenSecret))".utf8))
        return Data(HMAC<Insecure.SHA1>.authenticationCode(for: Data(baseString.utf8), using: key)).base64EncodedString()
    }

    /// The `Authorization` header for `method url` (the URL without query) with `query` parameters.
    func authorization(
        method: String = "GET", url: String, query: [(String, String)], nonce: String = UUID().uuidString.replacingOccurrences(of: "-", with: ""),
        timestamp: Int = Int(Date().timeIntervalSince1970)
    ) -> String {
        let oauth: [(String, String)] = [
            ("oauth_consumer_key", consumerKey), ("oauth_nonce", nonce), ("oauth_signature_method", "HMAC-SHA1"),
            ("oauth_timestamp", String(timestamp)), ("oauth_token", token), ("oauth_version", "1.0"),
        ]
        let signature = Self.sign(
            Self.baseString(method: method, url: url, parameters: oauth + query), consumerSecret: consumerSecret,
            tokenSecret: tokenSecret)
        return "OAuth "
            + (oauth + [("oauth_signature", signature)]).map { "\(Self.encode($0.0))=\"\(Self.encode($0.1))\"" }
            .joined(separator: ", ")
    }
}
