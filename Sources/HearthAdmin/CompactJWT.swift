import Foundation
import HearthBase64URL

/// A JWS in compact form, split and decoded but not yet trusted.
struct CompactJWT {
    let header: [String: ClaimValue]
    let payload: [String: ClaimValue]
    /// `header.payload`, the bytes the signature covers.
    let signingInput: Data
    let signature: Data

    /// Longer tokens are refused before any decoding: ID tokens are a few kilobytes.
    static let maximumLength = 16_384

    init?(_ token: String) {
        guard token.utf8.count <= Self.maximumLength else { return nil }
        let parts = token.split(separator: ".", omittingEmptySubsequences: false)
        guard parts.count == 3, let header = Base64URL.decode(parts[0]), let payload = Base64URL.decode(parts[1]),
            let signature = Base64URL.decode(parts[2]),
            let headerFields = ClaimJSON.object(header), let payloadFields = ClaimJSON.object(payload)
        else { return nil }
        self.header = headerFields
        self.payload = payloadFields
        self.signingInput = Data("\(parts[0]).\(parts[1])".utf8)
        self.signature = Data(signature)
    }

    /// `header.payload.signature` of JSON objects; an empty signature for `alg: none`.
    static func encode(header: [String: ClaimValue], payload: [String: ClaimValue], sign: (Data) throws -> Data) throws -> String {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
        let input = Base64URL.encode(try encoder.encode(header)) + "." + Base64URL.encode(try encoder.encode(payload))
        let signature = try sign(Data(input.utf8))
        return input + "." + Base64URL.encode(signature)
    }
}
