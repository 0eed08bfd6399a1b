import Foundation
import HearthConfiguration
import HearthConsole
import HearthCore
import HearthStorage
import HearthTokens
import Logging

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
                reachable: users != nil, users: users, pools: database.poolUsage()),
            keys: keys, minutes: metrics.recent.lastHour, errors: metrics.recent.lastErrors)
    }
}
