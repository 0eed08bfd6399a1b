import Foundation

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

/// Where a page of the console's user listing ends (keyset paging, newest first): the sort key's value and the uid of
/// the page's last user. The next page starts after it, however many users came or went meanwhile, and costs the
/// same at the millionth user as at the first.
public struct UserListCursor: Sendable, Equatable {
    /// The time the listing is sorted by (creation or last sign-in), in milliseconds since 1970; `nil`: never signed in.
    public let milliseconds: Int64?
    public let uid: String

    public init(milliseconds: Int64?, uid: String) {
        self.milliseconds = milliseconds
        self.uid = uid
    }

    /// The cursor after `user` in a listing by `key` (``UserQuery/SortKey/createdAt`` or ``UserQuery/SortKey/lastLoginAt``).
    public init(after user: UserRecord, by key: UserQuery.SortKey) {
        let time = key == .lastLoginAt ? user.lastLoginAt : user.createdAt
        self.init(milliseconds: time.map { Int64(($0.timeIntervalSince1970 * 1000).rounded()) }, uid: user.uid)
    }

    /// As a page token: `<milliseconds or "-">.<uid>`.
    public var token: String { "\(milliseconds.map(String.init) ?? "-").\(uid)" }

    /// Reads a page token written by ``token``; `nil` for anything else.
    public init?(token: String) {
        guard let dot = token.firstIndex(of: ".") else { return nil }
        let time = token[..<dot]
        let uid = String(token[token.index(after: dot)...])
        guard UserText.isValidUID(uid) else { return nil }
        if time == "-" {
            self.init(milliseconds: nil, uid: uid)
        } else {
            guard (1...18).contains(time.utf8.count), time.utf8.allSatisfy({ (48...57).contains($0) }), let value = Int64(time) else { return nil }
            self.init(milliseconds: value, uid: uid)
        }
    }
}
