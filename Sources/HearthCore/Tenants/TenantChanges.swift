import Foundation

/// An administrator's changes to the project's tenants, from the admin API (`…/tenants`) or the console's tenant
/// settings: each written in one transaction with its audit event (which tenant, what operation, which fields, who),
/// and this replica told to drop what it holds of the tenant.
public struct TenantChanges: Sendable {
    public let store: any TenantStore
    public let audit: any AuditRecording
    public let clock: WallClock
    /// Called with a tenant's id after it changed or went, so that this replica's cached controllers of it are rebuilt.
    public let changed: @Sendable (String) -> Void

    public init(store: any TenantStore, audit: any AuditRecording, clock: WallClock, changed: @escaping @Sendable (String) -> Void) {
        self.store = store
        self.audit = audit
        self.clock = clock
        self.changed = changed
    }

    /// Tenant `id`: `INVALID_TENANT_ID` when it cannot name one, `TENANT_NOT_FOUND` when there is none.
    public func tenant(_ id: String) async throws -> TenantRecord {
        guard TenantRecord.isValidID(id) else { throw HearthError(.invalidTenantID) }
        guard let tenant = try await store.tenant(id: id) else { throw HearthError(.tenantNotFound) }
        return tenant
    }

    /// Makes a tenant named `displayName` (a new random id; another one if that is taken), with `apply`'s settings.
    /// `INVALID_ARGUMENT` for a display name Identity Platform refuses (``TenantRecord/checkedDisplayName(_:)``).
    public func create(displayName: String, from origin: AuditOrigin, _ apply: (inout TenantRecord) throws -> Void) async throws -> TenantRecord {
        let displayName = try TenantRecord.checkedDisplayName(displayName)
        var tenant = TenantRecord(id: TenantRecord.newID(displayName: displayName), displayName: displayName, createdAt: clock.now)
        try apply(&tenant)
        while true {
            do {
                try await store.createTenant(tenant)
                break
            } catch StoreConflict.uid {
                tenant.id = TenantRecord.newID(displayName: displayName)
            }
        }
        await record(tenant.id, ["operation": "create"], origin)
        return tenant
    }

    /// Changes tenant `id` by `apply` (which refuses what may not be set: nothing is written then); `fields` names
    /// what was asked for the audit event. `INVALID_TENANT_ID`, `TENANT_NOT_FOUND`.
    @discardableResult
    public func update(id: String, fields: [String], from origin: AuditOrigin, _ apply: @escaping @Sendable (inout TenantRecord) throws -> Void)
        async throws -> TenantRecord
    {
        guard TenantRecord.isValidID(id) else { throw HearthError(.invalidTenantID) }
        let updated = try await store.updateTenant(id: id, apply)
        changed(id)
        await record(id, ["operation": "update", "fields": fields.joined(separator: ",")], origin)
        return updated
    }

    /// Gives tenant `id` the display name `displayName` (recorded as an update of `displayName`): `INVALID_ARGUMENT`,
    /// `INVALID_TENANT_ID`, `TENANT_NOT_FOUND`.
    @discardableResult
    public func rename(id: String, to displayName: String, from origin: AuditOrigin) async throws -> TenantRecord {
        let displayName = try TenantRecord.checkedDisplayName(displayName)
        return try await update(id: id, fields: ["displayName"], from: origin) { $0.displayName = displayName }
    }

    /// Deletes tenant `id` with its users: `TENANT_NOT_FOUND` when there is none.
    public func delete(id: String, from origin: AuditOrigin) async throws {
        guard TenantRecord.isValidID(id) else { throw HearthError(.invalidTenantID) }
        guard try await store.deleteTenant(id: id) else { throw HearthError(.tenantNotFound) }
        changed(id)
        await record(id, ["operation": "delete"], origin)
    }

    private func record(_ tenantID: String, _ details: [String: String], _ origin: AuditOrigin) async {
        await audit.record(
            AuditEvent(
                time: clock.now, kind: .adminTenantChanged, actor: .administrator, actorID: origin.actorID, clientAddress: origin.address,
                details: details.merging(["tenant": tenantID]) { $1 }))
    }
}
