import Crypto
import Foundation
import HearthFormEncoding

/// Signs requests with OAuth 1.0a HMAC-SHA1 (RFC 5849 §3.4–3.5), as Twitter requires.
///
/// The signature covers the method, the base URI (scheme and host lower-cased, default port dropped, no
/// query or fragment), and every query, form-body and `oauth_*` parameter, each percent-encoded with only
/// `A–Z a–z 0–9 - . _ ~` left as is, sorted by name then value. The key is
/// `enc(consumer secret)&enc(token secret)`.
struct OAuth1Signer: Sendable {
    let consumerKey: String
    let consumerSecret: String

    /// The `Authorization` header value for a request. Every protocol parameter travels in it, as RFC 5849 §3.5
    /// requires of a request that uses the header: servers refuse `oauth_*` parameters sent two ways.
    ///
    /// - Parameters:
    ///   - formParameters: the body's parameters when it is `application/x-www-form-urlencoded`.
    ///   - protocolParameters: further `oauth_*` parameters (`oauth_callback`, `oauth_verifier`), signed and sent
    ///     in the header.
    ///   - nonce: a fresh ASCII nonce; timestamp: Unix seconds.
    func authorizationHeader(
        method: String, url: URL, formParameters: [(String, String)] = [], protocolParameters: [(String, String)] = [], token: String?,
        tokenSecret: String?, nonce: String, timestamp: Int
    ) -> String {
        var oauth: [(String, String)] = [
            ("oauth_consumer_key", consumerKey),
            ("oauth_nonce", nonce),
            ("oauth_signature_method", "HMAC-SHA1"),
            ("oauth_timestamp", String(timestamp)),
            ("oauth_version", "1.0"),
        ]
        if let token { oauth.append(("oauth_token", token)) }
        oauth += protocolParameters
        let parameters = Self.queryParameters(of: url) + formParameters + oauth
        let base = Self.signatureBaseString(method: method, url: url, parameters: parameters)
        let signature = Self.signature(baseString: base, consumerSecret: consumerSecret, tokenSecret: tokenSecret ?? "")
        let fields = (oauth + [("oauth_signature", signature)]).sorted { $0.0 < $1.0 }
        return "OAuth " + fields.map { "\(Self.percentEncode($0.0))=\"\(Self.percentEncode($0.1))\"" }.joined(separator: ", ")
    }

    /// RFC 3986 percent-encoding of the UTF-8 bytes, leaving only unreserved characters, upper-case hex.
    static func percentEncode(_ text: String) -> String { FormEncoding.percentEncode(text) }

    /// `METHOD&enc(base URI)&enc(normalized parameters)`.
    static func signatureBaseString(method: String, url: URL, parameters: [(String, String)]) -> String {
        let encoded: [(name: String, value: String)] = parameters.map { (percentEncode($0.0), percentEncode($0.1)) }
        // Encoded text is ASCII, so comparing UTF-8 bytes is the byte order RFC 5849 asks for.
        let sorted = encoded.sorted { lhs, rhs in
            lhs.name == rhs.name ? lhs.value.utf8.lexicographicallyPrecedes(rhs.value.utf8) : lhs.name.utf8.lexicographicallyPrecedes(rhs.name.utf8)
        }
        let normalized: String = sorted.map { $0.name + "=" + $0.value }.joined(separator: "&")
        let parts: [String] = [method.uppercased(), percentEncode(baseURI(url)), percentEncode(normalized)]
        return parts.joined(separator: "&")
    }

    /// Scheme and host lower-cased, the port only when it is not the scheme's default, the path as is.
    static func baseURI(_ url: URL) -> String {
        let components = URLComponents(url: url, resolvingAgainstBaseURL: false)
        let scheme = (components?.scheme ?? "https").lowercased()
        let host = (components?.host ?? "").lowercased()
        var authority = host
        if let port = components?.port, !(scheme == "http" && port == 80), !(scheme == "https" && port == 443) {
            authority += ":\(port)"
        }
        let path = components?.percentEncodedPath ?? ""
        return "\(scheme)://\(authority)\(path.isEmpty ? "/" : path)"
    }

    /// The URL's query parameters, decoded (`+` stays `+`, as RFC 5849 §3.4.1.3.1 reads the query).
    static func queryParameters(of url: URL) -> [(String, String)] {
        guard let items = URLComponents(url: url, resolvingAgainstBaseURL: false)?.queryItems else { return [] }
        return items.map { ($0.name, $0.value ?? "") }
    }

    /// `base64(HMAC-SHA1(enc(consumer secret)&enc(token secret), base string))`.
    static func signature(baseString: String, consumerSecret: String, tokenSecret: String) -> String {
        let key = SymmetricKey(data: Data((percentEncode(consumerSecret) + "&" + percentEncode(tokenSecret)).utf8))
        let mac = HMAC<Insecure.SHA1>.authenticationCode(for: Data(baseString.utf8), using: key)
        return Data(mac).base64EncodedString()
    }

    /// A random ASCII nonce (32 hex digits).
    static func makeNonce() -> String {
        var generator = SystemRandomNumberGenerator()
        return (0..<16).map { _ in UInt8.random(in: 0...255, using: &generator) }.lowercaseHex
    }
}
