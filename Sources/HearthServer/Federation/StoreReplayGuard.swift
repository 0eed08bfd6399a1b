import Foundation
import HearthCore
import HearthProviders

/// Remembers nonce-bearing ID tokens in the database's shared counters, so a credential used once is refused
/// by every replica (`MISSING_OR_INVALID_NONCE : Duplicate credential received…`).
///
/// The counter's window is the one containing the token's expiry, not the current time: both uses of one
/// token land on the same row wherever the window boundaries fall, and the row outlives the token (counters
/// are pruned only once their window has ended).
struct StoreReplayGuard: CredentialReplayGuard {
    let store: any RateCounterStore
    static let window: TimeInterval = 3_600

    func recordFirstUse(of fingerprint: String, expiresAt: Date) async throws -> Bool {
        try await store.incrementCounter("idp-credential:\(fingerprint)", window: Self.window, now: expiresAt) == 1
    }
}
