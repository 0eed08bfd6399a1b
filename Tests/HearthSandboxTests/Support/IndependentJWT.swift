import Crypto
import CryptoExtras
import Foundation
import Testing

/// A JWT check written for the tests, sharing no code with the sandbox: split, base64url-decode, find the `kid`
/// in a JWKS document, verify RS256 or ES256 with swift-crypto.
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

    /// The P-256 key with this token's `kid` in `jwks` (JSON text), if any: `x || y` from the EC JWK.
    func p256Key(in jwks: Data) throws -> P256.Signing.PublicKey? {
        let keys = try #require(TestJSON.parse(jwks)?["keys"]?.array)
        guard let kid, let jwk = keys.first(where: { $0["kid"]?.string == kid }) else { return nil }
        #expect(jwk["kty"]?.string == "EC")
        #expect(jwk["crv"]?.string == "P-256")
        #expect(jwk["use"]?.string == "sig")
        #expect(jwk["alg"]?.string == "ES256")
        let x = try #require(jwk["x"]?.string.flatMap(Self.base64URL))
        let y = try #require(jwk["y"]?.string.flatMap(Self.base64URL))
        try #require(x.count == 32 && y.count == 32, "P-256 coordinates are 32 bytes each")
        return try P256.Signing.PublicKey(rawRepresentation: x + y)
    }

    /// RS256 or ES256 (raw 64-byte `r || s`) verification against the key with this token's `kid` in `jwks`.
    func verifies(against jwks: Data) throws -> Bool {
        switch alg {
        case "RS256":
            guard let key = try key(in: jwks) else { return false }
            return key.isValidSignature(
                _RSA.Signing.RSASignature(rawRepresentation: signature), for: SHA256.hash(data: signingInput),
                padding: .insecurePKCS1v1_5)
        case "ES256":
            guard signature.count == 64, let key = try p256Key(in: jwks) else { return false }
            return key.isValidSignature(
                try P256.Signing.ECDSASignature(rawRepresentation: signature), for: SHA256.hash(data: signingInput))
        default:
            return false
        }
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
