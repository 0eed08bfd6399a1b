import Crypto
import Foundation
import HearthBase64URL

/// Compact JWS encoding and parsing, written here rather than borrowed so that the sandbox shares no JWT code
/// with the verifiers it tests.
enum SandboxJWT {
    /// A token split into its parts.
    struct Parsed: Sendable {
        let header: SandboxJSON
        let claims: SandboxJSON
        /// `base64url(header) + "." + base64url(payload)` as received.
        let signingInput: Data
        let signature: Data
    }

    static func segment(_ json: SandboxJSON) -> String { Base64URL.encode(json.jsonData) }

    /// `header.payload.signature` with `signature = sign(header.payload)`.
    static func encode(header: SandboxJSON, claims: SandboxJSON, sign: (Data) throws -> Data) rethrows -> String {
        let input = "\(segment(header)).\(segment(claims))"
        return "\(input).\(Base64URL.encode(try sign(Data(input.utf8))))"
    }

    /// Splits and decodes a compact JWS; `nil` if it is not three base64url parts with JSON objects.
    static func parse(_ token: String) -> Parsed? {
        let parts = token.split(separator: ".", omittingEmptySubsequences: false)
        guard parts.count == 3, let headerData = Base64URL.decode(parts[0]).map({ Data($0) }),
            let claimsData = Base64URL.decode(parts[1]).map({ Data($0) }), let signature = Base64URL.decode(parts[2]).map({ Data($0) }),
            let header = SandboxJSON(jsonData: headerData), header.objectValue != nil,
            let claims = SandboxJSON(jsonData: claimsData), claims.objectValue != nil
        else { return nil }
        return Parsed(header: header, claims: claims, signingInput: Data("\(parts[0]).\(parts[1])".utf8), signature: signature)
    }
}
