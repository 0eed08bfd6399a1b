import Foundation

/// One of Identity Platform's tenants: a user pool of its own inside the project (one customer organisation, say).
/// Its users, their e-mails and provider identities, its identity-provider settings and its sign-in settings are
/// its own; a token, code or session of one tenant is worth nothing in another.
public struct TenantRecord: Sendable, Equatable {
    /// The tenant's id, as Identity Platform makes them: the display name's letters in lower case, a hyphen and five
    /// random letters or digits (``newID(displayName:)``).
    public var id: String
    public var displayName: String
    /// `disableAuth`: nobody signs in or up; administrators still manage the users.
    public var disabled: Bool
    /// The tenant's sign-in settings over the tenant defaults (``ProjectSettings/tenantDefaults(_:)``): which sign-ins are
    /// on, second factors, test phone numbers, SMS regions, e-mail enumeration protection.
    public var settings: ProjectSettings.Overrides
    public var createdAt: Date

    public init(id: String, displayName: String, disabled: Bool = false, settings: ProjectSettings.Overrides = .init(), createdAt: Date) {
        self.id = id
        self.displayName = displayName
        self.disabled = disabled
        self.settings = settings
        self.createdAt = createdAt
    }

    /// Whether `displayName` is one Identity Platform accepts: 4 to 20 characters, a letter first, then letters, digits
    /// and hyphens.
    public static func isValidDisplayName(_ displayName: String) -> Bool {
        let characters = Array(displayName.unicodeScalars)
        guard (4...20).contains(characters.count), let first = characters.first, isASCIILetter(first) else { return false }
        return characters.allSatisfy { isASCIILetter($0) || ("0"..."9").contains($0) || $0 == "-" }
    }

    /// `displayName` when ``isValidDisplayName(_:)`` takes it; otherwise `INVALID_ARGUMENT` with the rule in words.
    public static func checkedDisplayName(_ displayName: String) throws -> String {
        guard isValidDisplayName(displayName) else {
            throw HearthError(.invalidArgument, detail: "displayName must be 4 to 20 characters: a letter first, then letters, digits and hyphens.")
        }
        return displayName
    }

    /// Whether `id` can name a tenant: 1 to 64 ASCII letters, digits and hyphens (what ``newID(displayName:)`` makes,
    /// and nothing that could reach a path, a query or a token's separator).
    public static func isValidID(_ id: String) -> Bool {
        let characters = Array(id.unicodeScalars)
        guard (1...64).contains(characters.count) else { return false }
        return characters.allSatisfy { isASCIILetter($0) || ("0"..."9").contains($0) || $0 == "-" }
    }

    /// A new tenant id for `displayName`: its letters, digits and hyphens in lower case (at most 20), a hyphen, and five
    /// random lower-case letters or digits.
    public static func newID(displayName: String) -> String {
        let stem = String(displayName.lowercased().unicodeScalars.filter { isASCIILetter($0) || ("0"..."9").contains($0) || $0 == "-" }.prefix(20))
        let alphabet = Array("abcdefghijklmnopqrstuvwxyz0123456789")
        let suffix = String((0..<5).map { _ in alphabet.randomElement()! })
        return stem.isEmpty ? "tenant-\(suffix)" : "\(stem)-\(suffix)"
    }

    private static func isASCIILetter(_ scalar: Unicode.Scalar) -> Bool {
        ("a"..."z").contains(scalar) || ("A"..."Z").contains(scalar)
    }
}

/// The project's tenants. Tenants are the project's: these calls are the same whatever tenant a store is scoped to.
public protocol TenantStore: Sendable {
    /// Adds `tenant`; throws ``StoreConflict/uid`` when the id is taken.
    func createTenant(_ tenant: TenantRecord) async throws
    func tenant(id: String) async throws -> TenantRecord?
    /// Up to `limit` tenants in id order, those after `id` when given: one page of a listing.
    func tenants(after id: String?, limit: Int) async throws -> [TenantRecord]
    /// Reads the tenant, lets `mutate` change it (not its id) and writes it back, in one transaction. Throws
    /// `TENANT_NOT_FOUND` when there is none.
    @discardableResult
    func updateTenant(id: String, _ mutate: @escaping @Sendable (inout TenantRecord) throws -> Void) async throws -> TenantRecord
    /// Deletes the tenant with its users, their links, sessions and codes, its settings and its pending steps, in one
    /// transaction (its audit events stay: they are the operator's record). Returns whether there was such a tenant.
    @discardableResult
    func deleteTenant(id: String) async throws -> Bool
}

extension TenantStore {
    /// Every pool of users, as the tenant id a store is scoped to: `nil` (the project's) first, then each tenant's, the
    /// tenants read a page of 1,000 at a time.
    public func poolIDs() async throws -> [String?] {
        var ids: [String?] = [nil]
        var after: String?
        while true {
            let page = try await tenants(after: after, limit: 1_000)
            ids += page.map(\.id)
            guard page.count == 1_000 else { return ids }
            after = page.last?.id
        }
    }
}
