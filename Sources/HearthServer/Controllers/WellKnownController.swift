import Foundation
import HTTPTypes
import HearthConfiguration
import HearthCore
import HearthTokens
import HearthWire
import HearthWireMapping
import Hummingbird
import Logging

/// Public keys and discovery: what a backend needs to verify Hearth's ID tokens.
struct WellKnownController<Context: RequestContext>: Sendable {
    let keyRing: KeyRing
    let store: any SettingStore
    let clock: WallClock
    let logger: Logger
    let configuration: ServerConfiguration
    /// Where clients reach this server, for absolute URLs in the discovery document.
    let baseURL: String
    /// The key-set documents as last served.
    let keySetDocuments = KeySetDocuments()

    static var jwksPaths: [String] {
        ["/.well-known/jwks.json", "/www.googleapis.com/service_accounts/v1/jwk/securetoken@system.gserviceaccount.com"]
    }
    static var x509Path: String { "/www.googleapis.com/robot/v1/metadata/x509/securetoken@system.gserviceaccount.com" }

    func addRoutes(to router: Router<Context>) {
        let cacheHeaders = Self.cacheHeaders(configuration)
        let discovery = WireCoding.bytes(of: DiscoveryDocument(issuer: configuration.resolvedIssuer, jwks_uri: baseURL + Self.jwksPaths[1]))
        for path in Self.jwksPaths {
            router.get(RouterPath(path)) { _, _ in
                WireCoding.response(bytes: keySetDocuments.documents(of: keyRing.currentPublicKeySet(at: clock.now)).jwks, headers: cacheHeaders)
            }
        }
        router.get(RouterPath(Self.x509Path)) { _, _ in
            WireCoding.response(bytes: keySetDocuments.documents(of: keyRing.currentPublicKeySet(at: clock.now)).x509, headers: cacheHeaders)
        }
        for path in ["/.well-known/openid-configuration", "/securetoken.google.com/\(configuration.projectID)/.well-known/openid-configuration"] {
            router.get(RouterPath(path)) { _, _ in WireCoding.response(bytes: discovery, headers: cacheHeaders) }
        }
        router.get("/", use: root)
        router.get("/healthz", use: health)
        router.get("/readyz", use: readiness)
    }

    private static func cacheHeaders(_ configuration: ServerConfiguration) -> HTTPFields {
        let maxAge = max(0, min(Int(configuration.keyPublishLead), 3_600))
        return [.cacheControl: "public, max-age=\(maxAge), must-revalidate, no-transform"]
    }

    @Sendable func root(_ request: Request, context: Context) async throws -> Response {
        let ready = ServerStatus.Ready(projectId: configuration.projectID, mode: configuration.mode.rawValue)
        return WireCoding.response(ServerStatus(authEmulator: ready, hearth: ready))
    }

    @Sendable func health(_ request: Request, context: Context) async throws -> Response {
        _ = try await store.setting("health")
        return WireCoding.response(["status": "ok", "version": HearthVersion.current])
    }

    /// `GET /readyz`: 200 when the database answers a trivial query and a signing key is current (an ID
    /// token can be minted now); otherwise 503 in Google's error envelope, one item per failed check. The
    /// items say which part failed, never why in detail: the route is public.
    @Sendable func readiness(_ request: Request, context: Context) async throws -> Response {
        var failures: [String] = []
        do {
            _ = try await store.setting("health")
        } catch {
            logger.warning("Readiness check: the database does not answer", metadata: ["error": "\(error)"])
            failures.append("database: not reachable")
        }
        if keyRing.signer(at: clock.now) == nil {
            failures.append("signing keys: no current signing key")
        }
        guard !failures.isEmpty else {
            return WireCoding.response(["status": "ready", "version": HearthVersion.current])
        }
        var body = WireErrorResponse(code: 503, message: "The service is currently unavailable.", reason: "backendError", status: "UNAVAILABLE")
        body.error.errors = failures.flatMap { WireErrorResponse(code: 503, message: $0, reason: "backendError").error.errors }
        return WireCoding.response(body, status: .serviceUnavailable)
    }
}

private struct DiscoveryDocument: Encodable {
    let issuer: String
    let jwks_uri: String
    var response_types_supported = ["id_token"]
    var subject_types_supported = ["public"]
    var id_token_signing_alg_values_supported = ["RS256"]
}

/// `GET /`: the Firebase CLI and SDK helpers look for `authEmulator.ready`.
private struct ServerStatus: Encodable {
    struct Ready: Encodable {
        var ready = true
        let projectId: String
        let mode: String
    }
    let authEmulator: Ready
    let hearth: Ready
}
