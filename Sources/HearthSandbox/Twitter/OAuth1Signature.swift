import Crypto
import Foundation
import HearthFormEncoding

/// OAuth 1.0a HMAC-SHA1 signatures exactly as RFC 5849 §3.4 and providers.md §4.2 define them.
enum OAuth1Signature {
    /// §3.4.1.3.2: percent-encode every name and value, sort by name then value (byte order), join with `&`.
    static func normalizedParameters(_ parameters: [(name: String, value: String)]) -> String {
        parameters
            .map { (FormEncoding.percentEncode($0.name), FormEncoding.percentEncode($0.value)) }
            .sorted {
                $0.0 == $1.0
                    ? Array($0.1.utf8).lexicographicallyPrecedes(Array($1.1.utf8)) : Array($0.0.utf8).lexicographicallyPrecedes(Array($1.0.utf8))
            }
            .map { "\($0.0)=\($0.1)" }
            .joined(separator: "&")
    }

    /// §3.4.1: `METHOD&enc(base URI)&enc(normalized parameters)`. `parameters` must exclude `oauth_signature`
    /// and `realm`.
    static func baseString(method: String, baseURI: String, parameters: [(name: String, value: String)]) -> String {
        [method.uppercased(), FormEncoding.percentEncode(baseURI), FormEncoding.percentEncode(normalizedParameters(parameters))]
            .joined(separator: "&")
    }

    /// §3.4.2: base64 HMAC-SHA1 keyed with `enc(consumer secret)&enc(token secret)`.
    static func signature(baseString: String, consumerSecret: String, tokenSecret: String) -> String {
        let key = "\(FormEncoding.percentEncode(consumerSecret))&\(FormEncoding.percentEncode(tokenSecret))"
        let mac = HMAC<Insecure.SHA1>.authenticationCode(for: Data(baseString.utf8), using: SymmetricKey(data: Data(key.utf8)))
        return Data(mac).base64EncodedString()
    }

    /// §3.4.1.2: scheme and host in lower case, default port omitted, then the path as sent.
    static func baseURI(scheme: String, authority: String, path: String) -> String {
        let scheme = scheme.lowercased()
        var authority = authority.lowercased()
        let defaultPort = scheme == "https" ? ":443" : ":80"
        if authority.hasSuffix(defaultPort), authority.last(where: { $0 == "]" || $0 == ":" }) == ":" {
            authority.removeLast(defaultPort.count)
        }
        return "\(scheme)://\(authority)\(path.isEmpty ? "/" : path)"
    }
}
