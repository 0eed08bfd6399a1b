import Foundation

/// Which Microsoft accounts may sign in, read from ``ProvidersConfiguration/Microsoft/tenant``.
enum MicrosoftTenantRule: Sendable, Equatable {
    /// Any work/school tenant, and personal accounts.
    case common
    /// Work/school tenants only.
    case organizations
    /// Personal accounts only (tenant `9188040d-6c67-4c5b-b112-36a304b66dad`).
    case consumers
    /// One tenant, by GUID (lower-case).
    case tenant(String)
    /// One tenant, by a verified domain; its GUID comes from the tenant's discovery document.
    case domain(String)

    init(_ tenant: String) {
        let value = tenant.trimmingCharacters(in: .whitespaces).lowercased()
        switch value {
        case "common": self = .common
        case "organizations": self = .organizations
        case "consumers", ProvidersConfiguration.Microsoft.consumersTenantID: self = .consumers
        default: self = Self.isGUID(value) ? .tenant(value) : .domain(value)
        }
    }

    /// `xxxxxxxx-xxxx-xxxx-xxxx-xxxxxxxxxxxx` in hexadecimal digits.
    static func isGUID(_ text: String) -> Bool {
        let groups = text.split(separator: "-", omittingEmptySubsequences: false)
        guard groups.map(\.count) == [8, 4, 4, 4, 12] else { return false }
        return groups.allSatisfy { $0.allSatisfy(\.isHexDigit) }
    }

    /// A tenant rule an administrator may store: `common`, `organizations`, `consumers`, a tenant ID, or a
    /// domain name.
    static func isValid(_ text: String) -> Bool {
        let value = text.lowercased()
        if ["common", "organizations", "consumers"].contains(value) || isGUID(value) { return true }
        let labels = value.split(separator: ".", omittingEmptySubsequences: false)
        return labels.count >= 2
            && labels.allSatisfy { label in
                !label.isEmpty && label.count <= 63 && label.first != "-" && label.last != "-"
                    && label.allSatisfy { ($0.isASCII && ($0.isLetter || $0.isNumber)) || $0 == "-" }
            }
    }
}
