import Foundation
import HearthConfiguration
import HearthCore
import HearthStorage

/// What `/console/status` shows, read once per request: plain values, nothing secret. The signing keys are
/// copied field by field, so no private key ever reaches the page; the database is named by
/// ``ServerConfiguration/storageDescription``, which has no password.
public struct StatusReport: Sendable, Equatable {
    public struct Database: Sendable, Equatable {
        /// `SQLite` or `PostgreSQL`.
        public var kind: String
        /// The SQLite file, or `postgres://host:port/database`.
        public var location: String
        /// Whether the database answered the count of accounts.
        public var reachable: Bool
        /// How many accounts there are; `nil` when the database did not answer.
        public var users: Int?
        public var pools: [DatabasePoolUsage]

        public init(kind: String, location: String, reachable: Bool, users: Int?, pools: [DatabasePoolUsage]) {
            (self.kind, self.location, self.reachable, self.users, self.pools) = (kind, location, reachable, users, pools)
        }
    }

    /// A published signing key: when it was made and its span of use, never the key itself.
    public struct Key: Sendable, Equatable {
        public var kid: String
        public var createdAt: Date
        public var activatesAt: Date
        public var retiresAt: Date
        /// The last instant it is published (after it nothing it signed is valid any more).
        public var expiresAt: Date
        /// Whether it signs the tokens minted now.
        public var signs: Bool

        public init(kid: String, createdAt: Date, activatesAt: Date, retiresAt: Date, expiresAt: Date, signs: Bool) {
            (self.kid, self.createdAt, self.activatesAt, self.retiresAt, self.expiresAt, self.signs) =
                (kid, createdAt, activatesAt, retiresAt, expiresAt, signs)
        }
    }

    /// Requests in the last `minutes` minutes (the current one included).
    public struct Window: Sendable, Equatable {
        public var minutes: Int
        public var requests: Int
        public var clientErrors: Int
        public var serverErrors: Int

        /// Requests per minute over the window.
        public var rate: Double { Double(requests) / Double(minutes) }
    }

    public var version: String
    public var mode: ServerConfiguration.Mode
    public var projectID: String
    public var publicURL: String
    public var startedAt: Date
    public var now: Date
    public var database: Database
    public var keys: [Key]
    /// The last hour's minutes that saw requests, oldest first.
    public var minutes: [RecentRequests.Minute]
    /// The last error answers, newest first.
    public var errors: [RecentRequests.ErrorAnswer]

    public init(
        version: String, mode: ServerConfiguration.Mode, projectID: String, publicURL: String, startedAt: Date, now: Date, database: Database,
        keys: [Key], minutes: [RecentRequests.Minute], errors: [RecentRequests.ErrorAnswer]
    ) {
        (self.version, self.mode, self.projectID, self.publicURL, self.startedAt, self.now) = (version, mode, projectID, publicURL, startedAt, now)
        (self.database, self.keys, self.minutes, self.errors) = (database, keys, minutes, errors)
    }

    public var uptime: TimeInterval { max(0, now.timeIntervalSince(startedAt)) }

    /// The minute `now` falls in, in minutes since 1970 (as ``RecentRequests/Minute/minute``).
    public var currentMinute: Int64 { Int64(now.timeIntervalSince1970 / 60) }

    /// The totals of the last 1, 5 and 60 minutes.
    public var windows: [Window] {
        [1, 5, 60].map { length in
            let recent = minutes.filter { $0.minute > currentMinute - Int64(length) }
            return Window(
                minutes: length, requests: recent.reduce(0) { $0 + $1.requests }, clientErrors: recent.reduce(0) { $0 + $1.clientErrors },
                serverErrors: recent.reduce(0) { $0 + $1.serverErrors })
        }
    }
}
