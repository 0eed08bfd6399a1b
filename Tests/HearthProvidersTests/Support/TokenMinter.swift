import Crypto
import Foundation
import HearthCore

/// Makes compact JWS tokens, well-formed or deliberately not.
enum TokenMinter {
    /// A token signed by `key`, with header `alg`/`kid` from the key unless `header` overrides them.
    static func mint(_ claims: [String: JSONValue], key: TestKey, header: [String: JSONValue] = [:]) -> String {
        var fields: [String: JSONValue] = ["alg": .string(key.algorithm), "kid": .string(key.kid), "typ": "JWT"]
        for (name, value) in header { fields[name] = value }
        let input = encode(.object(fields)) + "." + encode(.object(claims))
        return input + "." + TestKey.base64url(key.sign(Data(input.utf8)))
    }

    /// `alg: none`, no signature.
    static func unsigned(_ claims: [String: JSONValue], kid: String) -> String {
        encode(.object(["alg": "none", "kid": .string(kid), "typ": "JWT"])) + "." + encode(.object(claims)) + "."
    }

    /// `alg: HS256` with the provider's *public* key as the HMAC secret (the classic key-confusion attack).
    static func hmacWithPublicKey(_ claims: [String: JSONValue], key: TestKey) -> String {
        let input = encode(.object(["alg": "HS256", "kid": .string(key.kid), "typ": "JWT"])) + "." + encode(.object(claims))
        let mac = HMAC<SHA256>.authenticationCode(for: Data(input.utf8), using: SymmetricKey(data: Data(key.publicPEM.utf8)))
        return input + "." + TestKey.base64url(Data(mac))
    }

    static func encode(_ value: JSONValue) -> String { TestKey.base64url(Data(value.jsonText.utf8)) }

    /// Lower-case hex SHA-256, as clients hash their raw nonce.
    static func nonceHash(_ raw: String) -> String {
        SHA256.hash(data: Data(raw.utf8)).map { String(format: "%02x", $0) }.joined()
    }
}
