import Foundation
import HearthCore
import HearthTelemetry
import JWTKit
import Logging
import Metrics

/// Providers' key sets, cached per URL.
///
/// A set is kept for its response's `max-age` (or the configured default, clamped; see ``CacheLifetime``).
/// A token signed with a `kid` the cached set lacks makes the cache fetch the set again, because the
/// provider may have rotated its keys, but never sooner than ``ProvidersConfiguration/KeyCaching/minimumRefetchInterval``
/// after the previous fetch of that URL: a flood of tokens with made-up key ids costs the provider at most
/// one request per interval. Concurrent callers that need the same set share one request.
actor JWKSCache {
    private let http: ProviderHTTP
    private let clock: WallClock
    private let policy: ProvidersConfiguration.KeyCaching
    private let logger: Logger
    private var snapshots: [URL: KeySetSnapshot] = [:]
    private var lastFetchStarted: [URL: Date] = [:]
    private var inFlight: [URL: Task<KeySetSnapshot, any Error>] = [:]

    init(http: ProviderHTTP, clock: WallClock, policy: ProvidersConfiguration.KeyCaching, logger: Logger) {
        self.http = http
        self.clock = clock
        self.policy = policy
        self.logger = logger
    }

    /// The key `kid` of the set at `url`, fetching or refetching the set when needed and allowed.
    func key(_ kid: String, at url: URL, provider: String) async throws -> SigningKey {
        let now = clock.now
        if let snapshot = snapshots[url], snapshot.expiresAt > now {
            if let key = snapshot.keys[kid] { return key }
            // Unknown key id: join a fetch under way, or start one if the floor allows.
            if inFlight[url] == nil, let last = lastFetchStarted[url], now.timeIntervalSince(last) < policy.minimumRefetchInterval {
                logger.debug(
                    "unknown kid, refetch deferred by the floor", metadata: ["provider": "\(provider)", "url": "\(url.redactedForLogs)"])
                throw Self.unknownKey(kid, provider: provider)
            }
        }
        let snapshot = try await refresh(url, provider: provider)
        guard let key = snapshot.keys[kid] else { throw Self.unknownKey(kid, provider: provider) }
        return key
    }

    /// Forgets every cached set (tests, or an operator forcing a refetch).
    func removeAll() {
        snapshots.removeAll()
        lastFetchStarted.removeAll()
    }

    private func refresh(_ url: URL, provider: String) async throws -> KeySetSnapshot {
        if let running = inFlight[url] { return try await running.value }
        lastFetchStarted[url] = clock.now
        let http = self.http
        let clock = self.clock
        let policy = self.policy
        let logger = self.logger
        let task = Task {
            do {
                let snapshot = try await Self.fetch(url, provider: provider, http: http, clock: clock, policy: policy, logger: logger)
                Self.count(provider, "ok", http)
                return snapshot
            } catch {
                Self.count(provider, "failed", http)
                throw error
            }
        }
        inFlight[url] = task
        defer { inFlight[url] = nil }
        let snapshot = try await task.value
        snapshots[url] = snapshot
        return snapshot
    }

    /// Counts a fetch in `hearth_jwks_fetches_total`.
    private static func count(_ provider: String, _ result: String, _ http: ProviderHTTP) {
        Counter(
            label: MetricDescriptor.jwksFetches.name, dimensions: [("provider", ProviderHTTP.metricLabel(provider)), ("result", result)],
            factory: http.telemetry.metrics
        )
        .increment()
    }

    private static func fetch(
        _ url: URL, provider: String, http: ProviderHTTP, clock: WallClock, policy: ProvidersConfiguration.KeyCaching, logger: Logger
    ) async throws -> KeySetSnapshot {
        let response = try await http.get(url, provider: provider)
        guard response.isSuccess else {
            throw ProviderFailure.invalid(
                "Unable to fetch the \(provider) signing keys (HTTP \(response.status)).",
                reason: "\(provider) JWKS \(url.redactedForLogs) answered HTTP \(response.status)")
        }
        guard case .array(let entries)? = try response.jsonObject()["keys"] else {
            throw ProviderFailure.invalid(
                "Unable to parse the \(provider) signing keys.", reason: "\(provider) JWKS \(url.redactedForLogs) has no keys array")
        }
        var keys: [String: SigningKey] = [:]
        for entry in entries {
            guard let key = await Self.signingKey(from: entry) else { continue }
            keys[key.kid] = key
        }
        let now = clock.now
        let lifetime = CacheLifetime.seconds(for: response.headers, policy: policy)
        logger.debug(
            "fetched key set",
            metadata: ["provider": "\(provider)", "url": "\(url.redactedForLogs)", "keys": "\(keys.count)", "lifetime": "\(lifetime)"])
        return KeySetSnapshot(keys: keys, fetchedAt: now, expiresAt: now.addingTimeInterval(lifetime))
    }

    /// A verification key from one JWKS entry, or `nil` for entries Hearth cannot or must not use
    /// (encryption keys, other key types or curves, keys declaring another algorithm, malformed keys).
    static func signingKey(from entry: JSONValue) async -> SigningKey? {
        guard case .object(let fields) = entry, case .string(let kid)? = fields["kid"], !kid.isEmpty,
            case .string(let kty)? = fields["kty"]
        else { return nil }
        if case .string(let use)? = fields["use"], use != "sig" { return nil }
        let declared: String? = if case .string(let alg)? = fields["alg"] { alg } else { nil }

        let algorithm: IDTokenAlgorithm
        switch kty {
        case "RSA": algorithm = .rs256
        case "EC":
            guard case .string("P-256")? = fields["crv"] else { return nil }
            algorithm = .es256
        default: return nil
        }
        if let declared, declared != algorithm.rawValue { return nil }

        do {
            var jwk = try JSONDecoder().decode(JWK.self, from: JSONEncoder().encode(entry))
            jwk.algorithm = algorithm == .rs256 ? .rs256 : .es256
            let collection = JWTKeyCollection()
            try await collection.add(jwk: jwk)
            return SigningKey(kid: kid, algorithm: algorithm, collection: collection)
        } catch {
            return nil
        }
    }

    private static func unknownKey(_ kid: String, provider: String) -> HearthError {
        ProviderFailure.invalid(
            "Invalid \(provider) id_token: it is signed with an unknown key.", reason: "\(provider) JWKS has no key \"\(kid)\"")
    }
}
