import Crypto
import CryptoExtras
import Foundation
import Testing

/// A JWT check written for the tests, sharing no code with the sandbox: split, base64url-decode, find the `kid`
/// in a JWKS document, verify RS256 with swift-crypto.
struct IndependentJWT {
    let header: TestJSON
    let claims: TestJSON
    let signingInput: Data
    let signature: Data

    init(_ token: String) throws {
        let parts = token.components(separatedBy: ".")
        try #require(parts.count == 3, "a JWS has three parts")
        header = try #require(Self.base64URL(parts[0]).flatMap(TestJSON.parse))
        claims = try #require(Self.base64URL(parts[1]).flatMap(TestJSON.parse))
        signingInput = Data("\(parts[0]).\(parts[1])".utf8)
        signature = try #require(Self.base64URL(parts[2]))
    }

    var kid: String? { header["kid"]?.string }
    var alg: String? { header["alg"]?.string }
    subscript(claim: String) -> TestJSON? { claims[claim] }

    /// The RSA key with this token's `kid` in `jwks` (JSON text), if any.
    func key(in jwks: Data) throws -> _RSA.Signing.PublicKey? {
        let keys = try #require(TestJSON.parse(jwks)?["keys"]?.array)
        guard let kid, let jwk = keys.first(where: { $0["kid"]?.string == kid }) else { return nil }
        #expect(jwk["kty"]?.string == "RSA")
        #expect(jwk["use"]?.string == "sig")
        #expect(jwk["alg"]?.string == "RS256")
        let n = try #require(jwk["n"]?.string.flatMap(Self.base64URL))
        let e = try #require(jwk["e"]?.string.flatMap(Self.base64URL))
        return try _RSA.Signing.PublicKey(n: n, e: e)
    }

    /// RS256 verification against the key with this token's `kid` in `jwks`.
    func verifies(against jwks: Data) throws -> Bool {
        guard alg == "RS256", let key = try key(in: jwks) else { return false }
        return key.isValidSignature(
            _RSA.Signing.RSASignature(rawRepresentation: signature), for: SHA256.hash(data: signingInput),
            padding: .insecurePKCS1v1_5)
    }

    static func base64URL(_ text: String) -> Data? {
        guard !text.contains("+"), !text.contains("/"), !text.contains("=") else { return nil }
        var base64 = text.replacingOccurrences(of: "-", with: "+").replacingOccurrences(of: "_", with: "/")
        while base64.count % 4 != 0 { base64 += "=" }
        return Data(base64Encoded: base64)
    }

    static func sha256Hex(_ text: String) -> String {
        SHA256.hash(data: Data(text.utf8)).map { String(format: "%02x", $0) }.joined()
    }
}
