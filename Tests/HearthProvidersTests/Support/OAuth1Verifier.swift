import Crypto
import Foundation
import HearthCore
import Hummingbird

/// The fake Twitter's signature check, written independently of the library's signer: it rebuilds the
/// RFC 5849 base string from what arrived (the URL it was reached at, the query, the `Authorization` header)
/// and compares HMAC-SHA1 signatures.
enum OAuth1Verifier {
    enum Outcome {
        case success([String: JSONValue])
        case failure(String)
    }

    static let unreserved = CharacterSet(charactersIn: "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-._~")

    static func encode(_ text: String) -> String { text.addingPercentEncoding(withAllowedCharacters: unreserved) ?? "" }

    static func verify(
        request: Request, consumerKey: String, consumerSecret: String, accounts: [String: FakeState.TwitterAccount]
    ) -> Outcome {
        guard let header = request.headers[.authorization], header.hasPrefix("OAuth ") else { return .failure("no OAuth header") }
        var oauth: [String: String] = [:]
        for part in header.dropFirst("OAuth ".count).components(separatedBy: ", ") {
            let pair = part.split(separator: "=", maxSplits: 1).map(String.init)
            guard pair.count == 2, pair[1].hasPrefix("\""), pair[1].hasSuffix("\"") else { return .failure("malformed header part \(part)") }
            oauth[pair[0].removingPercentEncoding ?? pair[0]] = String(pair[1].dropFirst().dropLast()).removingPercentEncoding
        }
        guard oauth["oauth_consumer_key"] == consumerKey else { return .failure("consumer key") }
        guard oauth["oauth_signature_method"] == "HMAC-SHA1", oauth["oauth_version"] == "1.0" else { return .failure("method/version") }
        guard let nonce = oauth["oauth_nonce"], !nonce.isEmpty, nonce.allSatisfy(\.isASCII), oauth["oauth_timestamp"].flatMap(Int.init) != nil
        else { return .failure("nonce/timestamp") }
        guard let token = oauth["oauth_token"], let account = accounts[token] else { return .failure("unknown token") }
        guard let signature = oauth.removeValue(forKey: "oauth_signature") else { return .failure("no signature") }

        var parameters: [(String, String)] = oauth.map { ($0.key, $0.value) }
        for pair in (request.uri.query ?? "").split(separator: "&") {
            let kv = pair.split(separator: "=", maxSplits: 1).map { String($0).removingPercentEncoding ?? String($0) }
            parameters.append((kv[0], kv.count > 1 ? kv[1] : ""))
        }
        let normalized = parameters.map { (encode($0.0), encode($0.1)) }
            .sorted {
                $0.0 != $1.0
                    ? Array($0.0.utf8).lexicographicallyPrecedes(Array($1.0.utf8)) : Array($0.1.utf8).lexicographicallyPrecedes(Array($1.1.utf8))
            }
            .map { "\($0.0)=\($0.1)" }.joined(separator: "&")
        let baseURI = "http://\(request.head.authority ?? "")\(request.uri.path)"
        let base = "GET&\(encode(baseURI))&\(encode(normalized))"
        let key = SymmetricKey(data: Data("\(encode(consumerSecret))&\(encode(account.secret))".utf8))
        let expected = Data(HMAC<Insecure.SHA1>.authenticationCode(for: Data(base.utf8), using: key)).base64EncodedString()
        guard expected == signature else { return .failure("signature mismatch") }
        return .success(account.user)
    }
}
