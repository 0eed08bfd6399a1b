import Foundation

/// Remembers ID tokens that carried a nonce, so one credential cannot be used twice
/// (Firebase: `MISSING_OR_INVALID_NONCE : Duplicate credential received. Please try again with a new credential.`).
///
/// HearthProviders' registry consults it only for ID tokens with a `nonce` claim, after every other check
/// passed. Every ``RateCounterStore`` is one (the database's shared counters, so replicas sharing one database
/// refuse a credential any of them saw); ``InMemoryCredentialReplayGuard`` suits a single process.
public protocol CredentialReplayGuard: Sendable {
    /// Records `fingerprint` (a SHA-256 of the provider id and the token, never the token) until `expiresAt`.
    /// Returns `false` when it was already recorded and has not expired.
    func recordFirstUse(of fingerprint: String, expiresAt: Date) async throws -> Bool
}

/// A ``CredentialReplayGuard`` in this process's memory. Expired fingerprints are dropped as new ones arrive.
public actor InMemoryCredentialReplayGuard: CredentialReplayGuard {
    private let clock: WallClock
    private var seen: [String: Date] = [:]
    private var nextPrune = Date.distantPast

    /// - Parameter clock: Hearth's clock.
    public init(clock: WallClock) { self.clock = clock }

    /// Records the fingerprint; `false` if it was recorded before and has not expired.
    public func recordFirstUse(of fingerprint: String, expiresAt: Date) -> Bool {
        let now = clock.now
        if now >= nextPrune {
            seen = seen.filter { $0.value > now }
            nextPrune = now.addingTimeInterval(60)
        }
        if let until = seen[fingerprint], until > now { return false }
        seen[fingerprint] = expiresAt
        return true
    }
}

/// The store's replay check: the fingerprint counted in the database's shared counters.
///
/// The counter's window is the one containing the token's expiry, not the current time: both uses of one
/// token land on the same row wherever the window boundaries fall, and the row outlives the token (counters
/// are pruned only once their window has ended).
extension RateCounterStore {
    /// The window of the replay counters, in seconds.
    public static var credentialReplayWindow: TimeInterval { 3_600 }

    /// Records `fingerprint` in the counter `idp-credential:<fingerprint>`; `false` when it was counted before.
    public func recordFirstUse(of fingerprint: String, expiresAt: Date) async throws -> Bool {
        try await incrementCounter("idp-credential:\(fingerprint)", window: Self.credentialReplayWindow, now: expiresAt) == 1
    }
}
