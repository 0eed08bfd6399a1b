import Foundation
import HearthBase64URL
import HearthCore

/// The tenant a request body names: its `tenantId`, and the tenant of the ID token it carries (read without checking
/// the signature: only to choose where to look; the scoped token check refuses a token of another tenant).
public struct TenantNaming: Sendable {
    public var bodyTenant: String?
    public var idTokenTenant: String?

    public init(json: Data) {
        struct Fields: Decodable {
            var tenantId: String?
            var idToken: String?
        }
        let fields = try? JSONDecoder().decode(Fields.self, from: json)
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
    public static func tenant(ofToken token: String) -> String? {
        let parts = token.split(separator: ".", omittingEmptySubsequences: false)
        guard parts.count == 3, parts[1].utf8.count <= 16_384, let payload = Base64URL.decode(String(parts[1])) else { return nil }
        struct Claims: Decodable {
            struct Firebase: Decodable { var tenant: String? }
            var firebase: Firebase?
        }
        return (try? JSONDecoder().decode(Claims.self, from: Data(payload)))?.firebase?.tenant
    }
}
