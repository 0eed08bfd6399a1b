/// One page of an administrator's user query (`accounts:query`): the users one value matches (all of
/// them without a filter), in one order, `offset` of them skipped and at most `limit` returned.
///
/// The store sorts and pages in SQL, so a page costs the rows before it in an index and never the whole
/// table in memory. Ties, and the order within a key, are by uid in byte order; a user without the
/// sort key's value (no display name, e-mail or last sign-in) sorts first when ascending, last when
/// descending.
public struct UserQuery: Sendable, Equatable {
    /// The value users are sorted by (Firebase's `sortBy`).
    public enum SortKey: Sendable, Equatable, CaseIterable {
        case uid, displayName, createdAt, lastLoginAt, email
    }

    /// The one value a user must have (Firebase's `SqlExpression`): an exact uid, an e-mail (stored
    /// lower-cased, so give it lower-cased), a phone number in E.164.
    public enum Filter: Sendable, Equatable {
        case uid(String)
        case email(String)
        case phoneNumber(String)
    }

    /// The most users one page may hold, and the page size when none is asked for.
    public static let maximumLimit = 500

    public let filter: Filter?
    public let sortKey: SortKey
    public let descending: Bool
    public let offset: Int
    public let limit: Int

    /// Throws `INVALID_ARGUMENT` for a `limit` outside 0…500 or a negative `offset`. A `limit` of 0 is
    /// proto3's "not set": the maximum.
    public init(filter: Filter? = nil, sortKey: SortKey = .uid, descending: Bool = false, offset: Int64 = 0, limit: Int64 = 0) throws {
        guard (0...Int64(Self.maximumLimit)).contains(limit) else {
            throw HearthError(.invalidArgument, detail: "limit must be between 0 and \(Self.maximumLimit)", reason: "query limit out of range")
        }
        guard offset >= 0, offset <= Int64(Int32.max) else {
            throw HearthError(.invalidArgument, detail: "offset must be between 0 and \(Int32.max)", reason: "query offset out of range")
        }
        self.filter = filter
        self.sortKey = sortKey
        self.descending = descending
        self.offset = Int(offset)
        self.limit = limit == 0 ? Self.maximumLimit : Int(limit)
    }
}
