import Foundation
import HearthConfiguration
import HearthCore
import Hummingbird

/// The server side of abuse protection: finds the client's address (see ``ClientAddressResolver``) and hands it
/// to the counting rules of HearthCore (``AbuseCounter``), which keep their counts in the shared store.
struct AbuseGuard: Sendable {
    let services: HearthServices

    private var resolver: ClientAddressResolver {
        ClientAddressResolver(trustedProxies: services.configuration.abuse.trustedProxies.compactMap(IPAddressRange.init))
    }

    /// The client's address as a counter key (see ``ClientAddressResolver``).
    func clientAddress(_ request: Request, context: some RequestContext) -> String {
        resolver.resolve(request, context: context)
    }

    /// The client's full address for audit events; `nil` when the peer is unknown.
    func auditAddress(_ request: Request, context: some RequestContext) -> String? {
        resolver.client(request, context: context)
    }

    /// Counts one hit of `limit` for `address` (see ``AbuseCounter/count(_:address:)``).
    func count(_ limit: KeyPath<AbuseLimits, RateLimit>, address: String) async throws {
        try await services.abuseCounter.count(limit, address: address)
    }
}

extension HearthServices {
    /// The per-address limits and the password lockout of `abuse.*`, counted in this server's store.
    var abuseCounter: AbuseCounter {
        let abuse = configuration.abuse
        return AbuseCounter(store: store, clock: clock, limitsEnabled: abuse.limitsEnabled, limits: abuse.limits, lockout: abuse.lockout)
    }
}
