/// A Microsoft Entra tenant the sandbox knows: its GUID and verified domain.
public struct SandboxMicrosoftTenant: Sendable, Hashable {
    /// The tenant of all personal Microsoft accounts (MSA), also reachable as `consumers`.
    public static let personalAccountsTenantID = "9188040d-6c67-4c5b-b112-36a304b66dad"

    /// A work/school tenant used by the ready-made identities.
    public static let contoso = SandboxMicrosoftTenant(
        id: "3f2a9c1e-5b7d-4e8a-9c0f-1a2b3c4d5e6f", domain: "contoso.onmicrosoft.com")
    /// A second work tenant, e.g. for a guest or a tenant allow-list test.
    public static let fabrikam = SandboxMicrosoftTenant(
        id: "b4c7e2d1-8a3f-4c6b-9e5d-7f1a2b3c4d5e", domain: "fabrikam.onmicrosoft.com")

    /// Tenant GUID (`tid`).
    public var id: String
    /// Verified domain usable in place of the GUID in URLs.
    public var domain: String?

    public init(id: String, domain: String? = nil) {
        self.id = id
        self.domain = domain
    }
}
