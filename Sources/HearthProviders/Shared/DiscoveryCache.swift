import Foundation
import HearthCore
import Logging

/// OpenID discovery documents, cached by URL for their `max-age` (or the configured default, clamped);
/// concurrent callers share one request. One cache serves the ID-token verifiers (``ProviderRegistry``) and
/// the browser sign-in (``AuthorizationFlows``): a server makes one and hands it to both, so starting a
/// browser sign-in does not fetch the document again.
///
/// The cache holds documents only; who fetches, with which limits and clock, is the caller's
/// (``DiscoveryReader``).
public actor DiscoveryCache {
    struct Entry {
        var document: DiscoveryDocument
        var expiresAt: Date
    }

    private var entries: [URL: Entry] = [:]
    private var inFlight: [URL: Task<Entry, any Error>] = [:]

    /// An empty cache.
    public init() {}

    /// The document at `url`, fetched with `reader`'s client when absent or expired.
    func document(at url: URL, provider: String, reader: DiscoveryReader) async throws -> DiscoveryDocument {
        if let entry = entries[url], entry.expiresAt > reader.clock.now { return entry.document }
        if let running = inFlight[url] { return try await running.value.document }
        let task = Task { () throws -> Entry in try await reader.fetch(url, provider: provider) }
        inFlight[url] = task
        defer { inFlight[url] = nil }
        let entry = try await task.value
        entries[url] = entry
        reader.logger.debug("fetched discovery document", metadata: ["provider": "\(provider)", "url": "\(url.redactedForLogs)"])
        return entry.document
    }
}

/// Reads discovery documents through a shared ``DiscoveryCache`` with one configuration's client, clock and
/// caching policy.
struct DiscoveryReader: Sendable {
    let cache: DiscoveryCache
    let http: ProviderHTTP
    let clock: WallClock
    let policy: ProvidersConfiguration.KeyCaching
    let logger: Logger

    /// The document at `url` (`provider` names it in errors and logs).
    func document(at url: URL, provider: String) async throws -> DiscoveryDocument {
        try await cache.document(at: url, provider: provider, reader: self)
    }

    fileprivate func fetch(_ url: URL, provider: String) async throws -> DiscoveryCache.Entry {
        let response = try await http.get(url, provider: provider)
        guard response.isSuccess else {
            throw ProviderFailure.invalid(
                "Unable to fetch the \(provider) discovery document (HTTP \(response.status)).",
                reason: "\(provider) discovery \(url.redactedForLogs) answered HTTP \(response.status)")
        }
        guard let document = DiscoveryDocument(try response.jsonObject()) else {
            throw ProviderFailure.invalid(
                "Unable to parse the \(provider) discovery document.", reason: "\(provider) discovery \(url.redactedForLogs) lacks issuer or jwks_uri"
            )
        }
        let lifetime = CacheLifetime.seconds(for: response.headers, policy: policy)
        return DiscoveryCache.Entry(document: document, expiresAt: clock.now.addingTimeInterval(lifetime))
    }
}
