import Crypto
import CryptoExtras
import Foundation
import NIOHTTP1
import SwiftASN1
import X509

/// The public keys of one certificate publication (`{"kid": "-----BEGIN CERTIFICATE-----…"}`), fetched when
/// needed and kept for the `Cache-Control: max-age` of the answer.
///
/// A token naming a key not in the set makes it fetch again (the server may have rotated), but never more
/// often than ``minimumFetchInterval``: a flood of tokens with made-up `kid`s costs the server one request
/// per interval, not one per token. Concurrent callers share one fetch.
actor PublicKeyCache {
    /// The shortest time between two fetches.
    static let minimumFetchInterval: TimeInterval = 10

    let url: URL
    private let http: AdminHTTP
    private let clock: @Sendable () -> Date
    private var keys: [String: _RSA.Signing.PublicKey] = [:]
    private var expiresAt = Date.distantPast
    private var lastFetch: Date?
    private var fetching: Task<Void, any Error>?
    /// How many fetches were made, for tests.
    private(set) var fetchCount = 0

    init(url: URL, http: AdminHTTP, clock: @escaping @Sendable () -> Date) {
        self.url = url
        self.http = http
        self.clock = clock
    }

    /// The key named `kid`, or `nil` when the publication has none by that name.
    func key(for kid: String) async throws -> _RSA.Signing.PublicKey? {
        let now = clock()
        if now >= expiresAt, mayFetch(at: now) {
            try await fetch()
        }
        if let key = keys[kid] { return key }
        guard mayFetch(at: clock()) else { return nil }
        try await fetch()
        return keys[kid]
    }

    private func mayFetch(at now: Date) -> Bool {
        guard let lastFetch else { return true }
        return now.timeIntervalSince(lastFetch) >= Self.minimumFetchInterval || now < lastFetch
    }

    private func fetch() async throws {
        if let fetching { return try await fetching.value }
        lastFetch = clock()
        let task = Task { try await self.load() }
        fetching = task
        defer { fetching = nil }
        try await task.value
    }

    private func load() async throws {
        fetchCount += 1
        let reply = try await http.send(.GET, url)
        guard reply.status == 200,
            let published = try? JSONDecoder().decode([String: String].self, from: reply.body)
        else {
            throw HearthAdminError(.internalError, "The public keys at \(AdminHTTP.redacted(url)) could not be read (HTTP \(reply.status)).")
        }
        var parsed: [String: _RSA.Signing.PublicKey] = [:]
        for (kid, pem) in published {
            guard let certificate = try? Certificate(pemEncoded: pem), let key = _RSA.Signing.PublicKey(certificate.publicKey) else { continue }
            parsed[kid] = key
        }
        keys = parsed
        expiresAt = clock().addingTimeInterval(AdminHTTP.maxAge(reply.headers) ?? 0)
    }
}

extension HearthAdmin {
    /// How many times the ID-token (or session-cookie) keys were fetched, for tests of the fetch limits.
    func keyFetchCount(idTokens: Bool) async -> Int {
        await (idTokens ? idTokenKeys : sessionCookieKeys).fetchCount
    }
}
