import Foundation

/// Remembers the assertions already used, so that one captured response cannot sign in twice.
///
/// The caller implements it with storage every replica shares. Its one method has the shape of HearthCore's
/// `CredentialReplayGuard`, so the store's existing guard (the database's shared counters) becomes one with an
/// empty extension: `extension SQLStore: SAMLReplayGuard {}`. ``InMemorySAMLReplayGuard`` suits one process
/// and the tests.
public protocol SAMLReplayGuard: Sendable {
    /// Records `fingerprint` until `expiresAt`; `false` when it was recorded before and has not expired.
    ///
    /// - Parameters:
    ///   - fingerprint: `saml:` and the hex SHA-256 of the issuer and the assertion ID (never the assertion).
    ///   - expiresAt: when the assertion stops being acceptable (its earliest `NotOnOrAfter` plus the skew).
    func recordFirstUse(of fingerprint: String, expiresAt: Date) async throws -> Bool
}

/// A ``SAMLReplayGuard`` in this process's memory; expired fingerprints are dropped as new ones arrive.
public actor InMemorySAMLReplayGuard: SAMLReplayGuard {
    private let now: @Sendable () -> Date
    private var seen: [String: Date] = [:]

    /// - Parameter now: the clock expiries are compared with.
    public init(now: @escaping @Sendable () -> Date = { Date() }) { self.now = now }

    /// Records the fingerprint; `false` if it was recorded before and has not expired.
    public func recordFirstUse(of fingerprint: String, expiresAt: Date) -> Bool {
        let now = now()
        seen = seen.filter { $0.value > now }
        if seen[fingerprint] != nil { return false }
        seen[fingerprint] = expiresAt
        return true
    }
}
