import Foundation
import HearthCore

/// Microsoft's browser sign-in: the tenant the `tenant` custom parameter asks for, checked against the rule.
extension AuthorizationFlows {
    /// The tenant segment of the sign-in: the `tenant` custom parameter, else the configured one; refused
    /// when the configured rule (``ProvidersConfiguration/Microsoft/tenant`` and
    /// ``ProvidersConfiguration/Microsoft/allowedTenantIDs``) could never accept its accounts.
    func microsoftTenant(_ requested: String?) throws -> String {
        let configured = configuration.microsoft.tenant
        guard let requested = requested?.trimmingCharacters(in: .whitespaces).lowercased(), !requested.isEmpty else { return configured }
        func refuse() -> HearthError {
            HearthError(
                .invalidProviderID, detail: "The Microsoft tenant \(requested) is not allowed for this app.",
                reason: "tenant custom parameter \(requested) against tenant rule \(configured)")
        }
        guard requested.allSatisfy({ $0.isLetter || $0.isNumber || $0 == "-" || $0 == "." }) else { throw refuse() }
        let requestedRule = MicrosoftTenantRule(requested)
        let consumers = ProvidersConfiguration.Microsoft.consumersTenantID
        switch MicrosoftTenantRule(configured) {
        case .common: break
        case .organizations:
            if requestedRule == .consumers { throw refuse() }
        case .consumers:
            if requestedRule != .consumers { throw refuse() }
        case .tenant(let allowed):
            if requested != allowed { throw refuse() }
        case .domain(let domain):
            if requested != domain { throw refuse() }
        }
        let allowedTenants = configuration.microsoft.allowedTenantIDs.map { $0.lowercased() }
        if !allowedTenants.isEmpty {
            switch requestedRule {
            case .tenant(let id): if !allowedTenants.contains(id) { throw refuse() }
            case .consumers: if !allowedTenants.contains(consumers) { throw refuse() }
            default: break
            }
        }
        return requested
    }

}
