import Foundation
import HearthBase64URL
import HearthCore
import HearthWire

/// The tenant a request body names: its `tenantId`, and the tenant of the ID token it carries (read without checking
/// the signature: only to choose where to look; the scoped token check refuses a token of another tenant).
public struct TenantNaming: Sendable {
    public var bodyTenant: String?
    public var idTokenTenant: String?

    /// The tenant `json` names. Most bodies name none (a sign-up, a password sign-in): the decoder runs only when the
    /// bytes could hold a member called `tenantId` or `idToken` (they hold the word, or an escape).
    public init(json: Data) {
        guard Self.mayName(json) else { return }
        struct Fields: Decodable {
            var tenantId: String?
            var idToken: String?
        }
        let fields = FlatJSONDecoder.decode(Fields.self, from: json) ?? (try? JSONDecoder().decode(Fields.self, from: json))
        bodyTenant = fields?.tenantId
        idTokenTenant = fields?.idToken.flatMap(Self.tenant(ofToken:))
    }

    /// The one tenant named; `TENANT_ID_MISMATCH` when the body's and the token's differ.
    public func tenantID() throws -> String? {
        let body = bodyTenant.flatMap { $0.isEmpty ? nil : $0 }
        if let body, let idTokenTenant, body != idTokenTenant { throw HearthError(.tenantIDMismatch) }
        return body ?? idTokenTenant
    }

    /// `firebase.tenant` of a JWT's payload, unchecked.
    ///
    /// Every client call with an ID token asks this, so the payload is only decoded as JSON when its bytes could hold
    /// the claim: without the bytes `"tenant"` and without a `\` (a key may be written with escapes), no member of
    /// it is named `tenant`.
    public static func tenant(ofToken token: String) -> String? {
        var token = token
        return token.withUTF8 { bytes -> String? in
            guard let first = bytes.firstIndex(of: UInt8(ascii: ".")),
                let second = bytes[(first + 1)...].firstIndex(of: UInt8(ascii: ".")),
                bytes[(second + 1)...].firstIndex(of: UInt8(ascii: ".")) == nil,
                second - first - 1 <= 16_384,
                let payload = Base64URL.decode(utf8: UnsafeBufferPointer(rebasing: bytes[(first + 1)..<second])),
                mayNameTenant(payload)
            else { return nil }
            struct Claims: Decodable {
                struct Firebase: Decodable { var tenant: String? }
                var firebase: Firebase?
            }
            return (try? JSONDecoder().decode(Claims.self, from: Data(payload)))?.firebase?.tenant
        }
    }

    /// Whether the JSON body `json` may have a member named `tenantId` or `idToken`: its bytes hold either word or an
    /// escape (`\u0069dToken` is `idToken`).
    private static func mayName(_ json: Data) -> Bool {
        json.withUnsafeBytes { raw in
            let bytes = raw.bindMemory(to: UInt8.self)
            return bytes.contains(UInt8(ascii: "\\")) || contains(bytes, Array("tenantId".utf8)) || contains(bytes, Array("idToken".utf8))
        }
    }

    /// Whether `word` occurs in `bytes`.
    private static func contains(_ bytes: UnsafeBufferPointer<UInt8>, _ word: [UInt8]) -> Bool {
        guard bytes.count >= word.count else { return false }
        for start in 0...(bytes.count - word.count) where bytes[start] == word[0] {
            if bytes[start..<(start + word.count)].elementsEqual(word) { return true }
        }
        return false
    }

    /// Whether JSON `bytes` may have a member named `tenant`: they hold `"tenant"` or an escape.
    private static func mayNameTenant(_ bytes: [UInt8]) -> Bool {
        bytes.withUnsafeBufferPointer { $0.contains(UInt8(ascii: "\\")) || contains($0, Array(#""tenant""#.utf8)) }
    }
}
