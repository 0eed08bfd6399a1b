import Foundation
import HearthWire
import NIOHTTP1

/// A tenant of the project: a pool of users of its own, with its own sign-in settings (Identity Platform's
/// multi-tenancy, firebase-admin's `Tenant`).
public struct Tenant: Sendable, Equatable {
    /// The server-made id (`acme-x7k2p`): what `auth.tenantID` is set to in the app.
    public let tenantID: String
    public let displayName: String
    /// E-mail and password sign-up and sign-in.
    public let allowPasswordSignUp: Bool
    public let enableEmailLinkSignIn: Bool
    public let enableAnonymousUser: Bool
    /// Nobody signs in or up while set (administrators still manage the users).
    public let disableAuth: Bool
    /// Test phone numbers (E.164) and their fixed codes.
    public let testPhoneNumbers: [String: String]

    init(_ resource: TenantResource) throws {
        guard let id = resource.tenantId ?? resource.name?.split(separator: "/").last.map(String.init) else {
            throw HearthAdminError(.internalError, "The server's answer names no tenant.")
        }
        tenantID = id
        displayName = resource.displayName ?? ""
        allowPasswordSignUp = resource.allowPasswordSignup ?? false
        enableEmailLinkSignIn = resource.enableEmailLinkSignin ?? false
        enableAnonymousUser = resource.enableAnonymousUser ?? false
        disableAuth = resource.disableAuth ?? false
        testPhoneNumbers = resource.testPhoneNumbers ?? [:]
    }
}

/// What to set on a new tenant, or to change on one (`nil`: leave as it is). A new tenant has every sign-in off
/// until one is turned on, as Identity Platform's have.
public struct TenantSettings: Sendable, Equatable {
    /// 4 to 20 characters: a letter first, then letters, digits and hyphens. Required to create a tenant.
    public var displayName: String?
    public var allowPasswordSignUp: Bool?
    public var enableEmailLinkSignIn: Bool?
    public var enableAnonymousUser: Bool?
    public var disableAuth: Bool?
    /// Replaces the tenant's test phone numbers (E.164 → six-digit code); an empty dictionary removes them.
    public var testPhoneNumbers: [String: String]?

    public init(
        displayName: String? = nil, allowPasswordSignUp: Bool? = nil, enableEmailLinkSignIn: Bool? = nil, enableAnonymousUser: Bool? = nil,
        disableAuth: Bool? = nil, testPhoneNumbers: [String: String]? = nil
    ) {
        self.displayName = displayName
        self.allowPasswordSignUp = allowPasswordSignUp
        self.enableEmailLinkSignIn = enableEmailLinkSignIn
        self.enableAnonymousUser = enableAnonymousUser
        self.disableAuth = disableAuth
        self.testPhoneNumbers = testPhoneNumbers
    }

    var resource: TenantResource {
        TenantResource(
            displayName: displayName, allowPasswordSignup: allowPasswordSignUp, enableEmailLinkSignin: enableEmailLinkSignIn,
            enableAnonymousUser: enableAnonymousUser, disableAuth: disableAuth, testPhoneNumbers: testPhoneNumbers)
    }

    /// The fields set, as `updateMask` names them.
    var updateMask: [String] {
        [
            displayName.map { _ in "displayName" }, allowPasswordSignUp.map { _ in "allowPasswordSignup" },
            enableEmailLinkSignIn.map { _ in "enableEmailLinkSignin" }, enableAnonymousUser.map { _ in "enableAnonymousUser" },
            disableAuth.map { _ in "disableAuth" }, testPhoneNumbers.map { _ in "testPhoneNumbers" },
        ].compactMap { $0 }
    }
}

/// One page of tenants, in id order.
public struct TenantPage: Sendable, Equatable {
    public let tenants: [Tenant]
    /// Pass to the next call for the following page; `nil` after the last.
    public let nextPageToken: String?
}

/// The project's tenants (`/v2/projects/{project}/tenants`), and an admin instance for each: firebase-admin's
/// `TenantManager`.
///
/// ```swift
/// let acme = try await admin.tenantManager.createTenant(TenantSettings(displayName: "Acme", allowPasswordSignUp: true))
/// let acmeAdmin = try admin.tenantManager.auth(forTenant: acme.tenantID)
/// let user = try await acmeAdmin.createUser(NewUser(email: "ada@example.com", password: "correct horse"))
/// let token = try await acmeAdmin.verifyIDToken(idToken)   // refuses tokens of the project and of other tenants
/// ```
///
/// Managing tenants takes a credential of the whole project: a service-account key bound to one tenant is refused
/// (`auth/insufficient-permission`); it works through `auth(forTenant:)` of its tenant.
public struct TenantManager: Sendable {
    let admin: HearthAdmin

    /// An instance that works in `tenantID`: user management, custom tokens (naming the tenant), e-mail action links,
    /// session cookies and the audit trail under `…/tenants/{tenant}`, and verification that requires the token's
    /// `firebase.tenant` to be `tenantID`. It shares this instance's credential and key caches.
    /// - Throws: `auth/invalid-tenant-id` for an empty id.
    public func auth(forTenant tenantID: String) throws -> HearthAdmin {
        guard !tenantID.isEmpty else { throw HearthAdminError(.invalidTenantID, "A tenant id must not be empty.") }
        return HearthAdmin(scoping: admin, toTenant: tenantID)
    }

    /// The tenant with this id. Throws `auth/tenant-not-found`, `auth/invalid-tenant-id`.
    public func tenant(id: String) async throws -> Tenant {
        try Tenant(try await admin.send(.GET, path(id), as: TenantResource.self))
    }

    /// Creates a tenant; the server makes its id from the display name. Throws `auth/argument-error` for a missing
    /// or malformed display name (4 to 20 characters, a letter first, then letters, digits and hyphens).
    public func createTenant(_ settings: TenantSettings) async throws -> Tenant {
        guard settings.displayName != nil else { throw HearthAdminError(.argumentError, "A new tenant needs a display name.") }
        let body = try HearthAdmin.encoder.encode(settings.resource)
        return try Tenant(try await admin.send(.POST, path(nil), body: body, as: TenantResource.self))
    }

    /// Changes the fields `settings` sets (sent as `updateMask`) and returns the tenant as stored. Throws
    /// `auth/tenant-not-found`, `auth/argument-error` (nothing to change, a malformed display name).
    public func updateTenant(id: String, _ settings: TenantSettings) async throws -> Tenant {
        let mask = settings.updateMask
        guard !mask.isEmpty else { throw HearthAdminError(.argumentError, "An update must change at least one field.") }
        let body = try HearthAdmin.encoder.encode(settings.resource)
        let query = "?updateMask=" + mask.joined(separator: ",")
        return try Tenant(try await admin.send(.PATCH, path(id) + query, body: body, as: TenantResource.self))
    }

    /// Deletes a tenant with its users, their sessions and its settings. Throws `auth/tenant-not-found`.
    public func deleteTenant(id: String) async throws {
        _ = try await admin.send(.DELETE, path(id), as: ClaimValue.self)
    }

    /// One page of tenants in id order, at most `pageSize` (1…1000).
    public func listTenants(pageSize: Int = 1_000, pageToken: String? = nil) async throws -> TenantPage {
        guard (1...1_000).contains(pageSize) else { throw HearthAdminError(.argumentError, "pageSize must be between 1 and 1000.") }
        var components = URLComponents()
        components.queryItems = [URLQueryItem(name: "pageSize", value: String(pageSize))]
        if let pageToken { components.queryItems?.append(URLQueryItem(name: "pageToken", value: pageToken)) }
        let query = (components.percentEncodedQuery ?? "").replacingOccurrences(of: "+", with: "%2B")
        let page = try await admin.send(.GET, path(nil) + "?" + query, as: ListTenantsResponse.self)
        return TenantPage(tenants: try (page.tenants ?? []).map(Tenant.init), nextPageToken: page.nextPageToken.flatMap { $0.isEmpty ? nil : $0 })
    }

    /// `v2/projects/<project>/tenants[/<id>]`; an id is percent-encoded and must not be empty.
    private func path(_ id: String?) throws -> String {
        let base = "v2/projects/\(admin.projectID)/tenants"
        guard let id else { return base }
        guard !id.isEmpty, let encoded = id.addingPercentEncoding(withAllowedCharacters: .urlPathAllowed.subtracting(["/"])) else {
            throw HearthAdminError(.invalidTenantID, "A tenant id must not be empty.")
        }
        return base + "/" + encoded
    }
}

extension HearthAdmin {
    /// The project's tenants and a tenant-scoped instance for each (``TenantManager/auth(forTenant:)``).
    public var tenantManager: TenantManager { TenantManager(admin: self) }
}
