import Foundation
import HearthCore
import Logging

/// OpenID discovery documents, cached per URL for their `max-age` (or the configured default, clamped);
/// concurrent callers share one request.
actor DiscoveryCache {
    private struct Entry {
        var document: DiscoveryDocument
        var expiresAt: Date
    }

    private let http: ProviderHTTP
    private let clock: WallClock
    private let policy: ProvidersConfiguration.KeyCaching
    private let logger: Logger
    private var entries: [URL: Entry] = [:]
    private var inFlight: [URL: Task<Entry, any Error>] = [:]

    init(http: ProviderHTTP, clock: WallClock, policy: ProvidersConfiguration.KeyCaching, logger: Logger) {
        self.http = http
        self.clock = clock
        self.policy = policy
        self.logger = logger
    }

    /// The document at `url`.
    func document(at url: URL, provider: String) async throws -> DiscoveryDocument {
        if let entry = entries[url], entry.expiresAt > clock.now { return entry.document }
        if let running = inFlight[url] { return try await running.value.document }
        let http = self.http
        let clock = self.clock
        let policy = self.policy
        let task = Task { () throws -> Entry in
            let response = try await http.get(url, provider: provider)
            guard response.isSuccess else {
                throw ProviderFailure.invalid(
                    "Unable to fetch the \(provider) discovery document (HTTP \(response.status)).",
                    reason: "\(provider) discovery \(url.redactedForLogs) answered HTTP \(response.status)")
            }
            guard let document = DiscoveryDocument(try response.jsonObject()) else {
                throw ProviderFailure.invalid(
                    "Unable to parse the \(provider) discovery document.",
                    reason: "\(provider) discovery \(url.redactedForLogs) lacks issuer or jwks_uri")
            }
            let lifetime = CacheLifetime.seconds(for: response.headers, policy: policy)
            return Entry(document: document, expiresAt: clock.now.addingTimeInterval(lifetime))
        }
        inFlight[url] = task
        defer { inFlight[url] = nil }
        let entry = try await task.value
        entries[url] = entry
        logger.debug("fetched discovery document", metadata: ["provider": "\(provider)", "url": "\(url.redactedForLogs)"])
        return entry.document
    }
}
