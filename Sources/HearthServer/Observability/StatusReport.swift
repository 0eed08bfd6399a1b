import Foundation
import HearthConfiguration
import HearthCore
import HearthStorage
import HearthTokens
import Logging

/// What `/console/status` shows, read once per request: plain values, nothing secret. The signing keys are
/// copied field by field, so no private key ever reaches the page; the database is named by
/// ``ServerConfiguration/storageDescription``, which has no password.
struct StatusReport: Sendable, Equatable {
    struct Database: Sendable, Equatable {
        /// `SQLite` or `PostgreSQL`.
        var kind: String
        /// The SQLite file, or `postgres://host:port/database`.
        var location: String
        /// Whether the database answered the count of accounts.
        var reachable: Bool
        /// How many accounts there are; `nil` when the database did not answer.
        var users: Int?
        var pools: [DatabasePoolUsage]
    }

    /// A published signing key: when it was made and its span of use, never the key itself.
    struct Key: Sendable, Equatable {
        var kid: String
        var createdAt: Date
        var activatesAt: Date
        var retiresAt: Date
        /// The last instant it is published (after it nothing it signed is valid any more).
        var expiresAt: Date
        /// Whether it signs the tokens minted now.
        var signs: Bool
    }

    /// Requests in the last `minutes` minutes (the current one included).
    struct Window: Sendable, Equatable {
        var minutes: Int
        var requests: Int
        var clientErrors: Int
        var serverErrors: Int

        /// Requests per minute over the window.
        var rate: Double { Double(requests) / Double(minutes) }
    }

    var version: String
    var mode: ServerConfiguration.Mode
    var projectID: String
    var publicURL: String
    var startedAt: Date
    var now: Date
    var database: Database
    var keys: [Key]
    /// The last hour's minutes that saw requests, oldest first.
    var minutes: [RecentRequests.Minute]
    /// The last error answers, newest first.
    var errors: [RecentRequests.ErrorAnswer]

    var uptime: TimeInterval { max(0, now.timeIntervalSince(startedAt)) }

    /// The minute `now` falls in, in minutes since 1970 (as ``RecentRequests/Minute/minute``).
    var currentMinute: Int64 { Int64(now.timeIntervalSince1970 / 60) }

    /// The totals of the last 1, 5 and 60 minutes.
    var windows: [Window] {
        [1, 5, 60].map { length in
            let recent = minutes.filter { $0.minute > currentMinute - Int64(length) }
            return Window(
                minutes: length, requests: recent.reduce(0) { $0 + $1.requests }, clientErrors: recent.reduce(0) { $0 + $1.clientErrors },
                serverErrors: recent.reduce(0) { $0 + $1.serverErrors })
        }
    }
}

extension HearthServices {
    /// Reads what the status page shows: the configuration, the recent requests, the signing keys, the pools,
    /// and the number of accounts (a failed count says the database is not reachable; it never fails the page).
    func statusReport() async -> StatusReport {
        let now = clock.now
        let users: Int?
        do {
            users = try await store.countUsers()
        } catch {
            logger.warning("Status page: the database does not answer", metadata: ["error": "\(String(describing: type(of: error)))"])
            users = nil
        }
        let signing = await keyRing.signingKid(at: now)
        let keys = await keyRing.publishedKeys(at: now).map { record in
            StatusReport.Key(
                kid: record.kid, createdAt: record.createdAt, activatesAt: record.activatesAt, retiresAt: record.retiresAt,
                expiresAt: record.expiresAt, signs: record.kid == signing)
        }
        return StatusReport(
            version: HearthVersion.current, mode: configuration.mode, projectID: configuration.projectID, publicURL: publicBaseURL,
            startedAt: metrics.startedAt, now: now,
            database: .init(
                kind: configuration.usesPostgres ? "PostgreSQL" : "SQLite", location: configuration.storageDescription,
                reachable: users != nil, users: users, pools: (store as? SQLStore)?.poolUsage() ?? []),
            keys: keys, minutes: metrics.recent.lastHour, errors: metrics.recent.lastErrors)
    }
}
