/// How long one check against an imported hash may take: ``multiple`` checks of the server's own hash.
///
/// An imported hash's cost is chosen by whoever made it: bcrypt at cost 16, or STANDARD_SCRYPT with N = 2^20,
/// r = 8, p = 2 (1 GiB), costs seconds per attempt, and wrong passwords are free to send. So the server
/// refuses to import parameters whose estimated check (``PasswordHashCost``) takes longer than the budget,
/// and a stored hash beyond it (imported before, or written to the database by hand) never matches and is
/// never computed. The server's own check is measured at its parameters but at N = 2^14 at least, so that a
/// server made cheap for tests admits what a default one does.
public struct PasswordHashBudget: Sendable, Equatable {
    /// The default ``multiple``: bcrypt up to cost 12 or so, STANDARD_SCRYPT up to N·r·p = 2^20. At 16, bcrypt 16
    /// came out within the budget of a debug build on a loaded machine (its start-up measure of the server's own
    /// check ran slow); 8 leaves that margin.
    public static let defaultMultiple = 8.0

    public var cost: PasswordHashCost
    /// Estimated seconds of one check of the server's own hash (at N = 2^14 at least).
    public var nativeSeconds: Double
    public var multiple: Double

    public init(cost: PasswordHashCost, hasher: PasswordHasher, multiple: Double = Self.defaultMultiple) {
        self.cost = cost
        self.nativeSeconds = Double((1 << max(hasher.logN, 14)) * hasher.blockSize * hasher.parallelism) * cost.scryptSecondsPerUnit
        self.multiple = multiple
    }

    /// The longest one imported check may take, in seconds.
    public var seconds: Double { nativeSeconds * multiple }

    /// Whether a check against the stored hash `encoded` fits the budget (a malformed one does not).
    public func admits(_ encoded: String) -> Bool {
        guard let seconds = cost.seconds(encoded) else { return false }
        return seconds <= self.seconds
    }

    /// Whether checks of hashes imported with `options` fit the budget, as far as the shared parameters tell
    /// (bcrypt's cost is in each hash: see ``admits(_:)``).
    public func admits(_ options: PasswordHashImport) -> Bool {
        guard let seconds = cost.seconds(options) else { return true }
        return seconds <= self.seconds
    }

    /// The estimated cost of a check against `encoded`, in checks of the server's own hash; `nil` when malformed.
    public func relativeCost(_ encoded: String) -> Double? {
        cost.seconds(encoded).map { $0 / nativeSeconds }
    }
}
