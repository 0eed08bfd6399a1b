import AsyncHTTPClient
import Foundation
import HearthServer
import HearthTesting
import NIOCore
import Testing

/// `/healthz`, `/readyz` and the version, over real HTTP on a live server (SQLite, or PostgreSQL with
/// `HEARTH_TEST_DATABASE=postgres`), and `hearth --version` from the real binary.
@Suite("Health, readiness and version")
struct HealthAndVersionTests {
    /// Status and JSON body of `GET url`.
    static func get(_ url: String) async throws -> (status: Int, json: [String: Any]) {
        let response = try await HTTPClient.shared.execute(HTTPClientRequest(url: url), timeout: .seconds(30))
        let body = try await response.body.collect(upTo: 1 << 20)
        let json = try JSONSerialization.jsonObject(with: Data(buffer: body)) as? [String: Any] ?? [:]
        return (Int(response.status.code), json)
    }

    @Test("/healthz answers 200 with the version")
    func health() async throws {
        try await withLiveHearth { live in
            let (status, json) = try await Self.get(live.baseURL + "/healthz")
            #expect(status == 200)
            #expect(json["status"] as? String == "ok")
            #expect(json["version"] as? String == HearthVersion.current)
        }
    }

    @Test("/readyz answers 200 when the database answers and a signing key is current")
    func ready() async throws {
        try await withLiveHearth { live in
            let (status, json) = try await Self.get(live.baseURL + "/readyz")
            #expect(status == 200, "\(json)")
            #expect(json["status"] as? String == "ready")
            #expect(json["version"] as? String == HearthVersion.current)
        }
    }

    @Test("/readyz answers 503 in Google's envelope once the database is closed, naming the part that failed")
    func notReadyWithoutDatabase() async throws {
        try await withLiveHearth { live in
            try await live.services.store.close()
            let (status, json) = try await Self.get(live.baseURL + "/readyz")
            #expect(status == 503, "\(json)")
            let error = try #require(json["error"] as? [String: Any])
            #expect(error["code"] as? Int == 503)
            #expect(error["status"] as? String == "UNAVAILABLE")
            #expect(error["message"] as? String == "The service is currently unavailable.")
            let items = try #require(error["errors"] as? [[String: Any]])
            #expect(items.map { $0["message"] as? String } == ["database: not reachable"])
            // /healthz says the same in the envelope the API uses for an unavailable database.
            let health = try await Self.get(live.baseURL + "/healthz")
            #expect(health.status == 503)
        }
    }

    @Test("/readyz answers 503 while no signing key is current, and 200 again once one is")
    func notReadyWithoutSigningKey() async throws {
        try await withLiveHearth { live in
            // The signing key retired and expired at once, as though the rotation had stopped long ago.
            let now = live.services.clock.now
            let kid = try #require(live.services.keyRing.signer(at: now)?.kid)
            try await live.services.store.retireSigningKey(kid: kid, retiresAt: now.addingTimeInterval(-2), expiresAt: now.addingTimeInterval(-1))
            try await live.services.keyRing.reload()
            let (status, json) = try await Self.get(live.baseURL + "/readyz")
            #expect(status == 503, "\(json)")
            let items = (json["error"] as? [String: Any])?["errors"] as? [[String: Any]] ?? []
            #expect(items.map { $0["message"] as? String } == ["signing keys: no current signing key"])

            _ = try await live.services.keyRing.rotateIfDue()
            #expect(try await Self.get(live.baseURL + "/readyz").status == 200)
        }
    }

    @Test("hearth --version prints the version and exits 0; the start-up banner shows it")
    func versionFromTheBinary() async throws {
        let result = try await HearthProcess.run(["--version"])
        #expect(result.status == 0, "\(result.standardError)")
        #expect(result.standardOutput.trimmingCharacters(in: .whitespacesAndNewlines) == HearthVersion.current)

        let server = try await HearthProcess.start(environment: [:])
        defer { server.stop() }
        #expect(server.log.contains("version    : \(HearthVersion.current)"), "\(server.log)")
    }
}
