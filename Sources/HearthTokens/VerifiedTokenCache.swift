import Synchronization

/// ID tokens whose signature has been verified and whose claims have been decoded, so that a client
/// presenting the same token again costs a dictionary lookup instead of an RSA verification and a
/// JSON decode.
///
/// - Only tokens that passed every check are stored; the caller still runs the time, issuer and
///   audience checks on every use (``TokenService/verifyIDToken(_:)``).
/// - An entry is good until the token's `exp` by the clock the caller passes in, then dropped.
/// - Size-capped in two generations of `capacity / 2` entries: new entries go into the young one;
///   when it is full it becomes the old one and the previous old one is dropped whole. A hit in the
///   old generation moves the entry back into the young one. So eviction costs O(1) amortized and
///   tokens in use stay.
/// - Thread-safe behind a `Mutex` held only for the dictionary operations: no actor hop.
final class VerifiedTokenCache: Sendable {
    private struct Generations {
        var young: [String: IDTokenClaims] = [:]
        var old: [String: IDTokenClaims] = [:]
    }

    /// Entries per generation.
    let generationCapacity: Int
    private let generations = Mutex(Generations())

    /// A cache of at most `capacity` tokens (at least 2).
    init(capacity: Int) {
        generationCapacity = max(1, capacity / 2)
    }

    /// The claims of `token` if it was stored and has not expired at `now` (seconds since 1970).
    func claims(for token: String, now: Int64) -> IDTokenClaims? {
        generations.withLock { generations in
            if let claims = generations.young[token] {
                guard claims.expiresAt > now else {
                    generations.young[token] = nil
                    return nil
                }
                return claims
            }
            guard let claims = generations.old.removeValue(forKey: token), claims.expiresAt > now else { return nil }
            Self.insert(claims, for: token, into: &generations, capacity: generationCapacity)
            return claims
        }
    }

    /// Stores the verified `claims` of `token`, unless it has already expired at `now`.
    func insert(_ claims: IDTokenClaims, for token: String, now: Int64) {
        guard claims.expiresAt > now else { return }
        generations.withLock { generations in
            Self.insert(claims, for: token, into: &generations, capacity: generationCapacity)
        }
    }

    /// How many tokens are stored (both generations; for tests and diagnostics).
    var count: Int {
        generations.withLock { $0.young.count + $0.old.count }
    }

    private static func insert(
        _ claims: IDTokenClaims, for token: String, into generations: inout Generations, capacity: Int
    ) {
        if generations.young.count >= capacity, generations.young[token] == nil {
            generations.old = generations.young
            generations.young = [:]
            generations.young.reserveCapacity(capacity)
        }
        generations.young[token] = claims
    }
}
