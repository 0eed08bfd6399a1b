import Foundation
import HearthCore

/// Counts password checks: every one, and those against the decoy hash. Tests read it to see that a
/// path spent a check (never how long it took).
public final class PasswordCheckCounter: Sendable {
    private let counts = LockedBox((all: 0, decoy: 0))

    public init() {}

    /// Checks run so far.
    public var all: Int { counts.withLock { $0.all } }
    /// Checks run against the decoy hash so far.
    public var decoy: Int { counts.withLock { $0.decoy } }

    func count(decoy: Bool) {
        counts.withLock { counts in
            counts.all += 1
            if decoy { counts.decoy += 1 }
        }
    }
}

extension HearthServices {
    /// Checks `password` against a hash of a random password at the hasher's cost, when there is no
    /// real hash to check (unknown e-mail, account without password): the answer then takes as long as
    /// a real check, so timing does not tell which e-mails have accounts. Always `false`.
    func verifyDecoyPassword(_ password: String) async throws -> Bool {
        passwordChecks.count(decoy: true)
        _ = try await hashing.verify(password, against: DecoyHash.for(passwords))
        return false
    }
}

/// One hash of a random password per scrypt cost, made on first use.
private enum DecoyHash {
    static let cache = LockedBox<[Int: String]>([:])

    static func `for`(_ hasher: PasswordHasher) -> String {
        cache.withLock { cache in
            if let hash = cache[hasher.logN] { return hash }
            let hash = (try? hasher.hash(UUID().uuidString)) ?? ""
            cache[hasher.logN] = hash
            return hash
        }
    }
}
