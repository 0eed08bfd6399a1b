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
        // Split and decoded as bytes: walking the String (by Characters, or through its generic views) cost more
        // than the decoding.
        var token = token
        guard
            let (header, payload, signature, signingInput) = token.withUTF8({ utf8 -> ([UInt8], [UInt8], [UInt8], Data)? in
                let dot = UInt8(ascii: ".")
                guard let first = utf8.firstIndex(of: dot), let second = utf8[(first + 1)...].firstIndex(of: dot),
                    !utf8[(second + 1)...].contains(dot),
                    let header = Base64URL.decode(utf8: UnsafeBufferPointer(rebasing: utf8[..<first])),
                    let payload = Base64URL.decode(utf8: UnsafeBufferPointer(rebasing: utf8[(first + 1)..<second])),
                    let signature = Base64URL.decode(utf8: UnsafeBufferPointer(rebasing: utf8[(second + 1)...]))
                else { return nil }
                return (header, payload, signature, Data(utf8[..<second]))
            }),
            let headerFields = ClaimJSON.object(header), let payloadFields = ClaimJSON.object(payload)
        else { return nil }
        self.header = headerFields
        self.payload = payloadFields
        self.signingInput = signingInput
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
