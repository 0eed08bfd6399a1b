import Foundation
import HTTPTypes
import HearthConfiguration
import HearthCore
import HearthTokens
import HearthWire
import HearthWireMapping
import Hummingbird

/// Session cookies, as the Admin SDKs make and check them: `POST /v1/projects/{project}:createSessionCookie`
/// (admin) turns a fresh ID token into a longer-lived cookie for a backend's own sessions, signed by the
/// signing keys; `GET /identitytoolkit/v3/relyingparty/publicKeys` publishes their certificates, the place
/// the Admin SDKs fetch session-cookie keys from.
struct SessionCookieController<Context: RequestContext>: Sendable {
    let keyRing: KeyRing
    let tokens: TokenService
    let idTokens: ServerIDTokens
    let clock: WallClock
    let configuration: ServerConfiguration

    static var publicKeysPaths: [String] {
        ["/identitytoolkit/v3/relyingparty/publicKeys", "/www.googleapis.com/identitytoolkit/v3/relyingparty/publicKeys"]
    }

    /// The public routes: the session-cookie certificates (kid → X.509 PEM).
    func addPublicRoutes(to router: Router<Context>) {
        for path in Self.publicKeysPaths { router.get(RouterPath(path), use: publicKeys) }
    }

    /// `{project}:createSessionCookie` under a group of the admin API (`/v1/projects`).
    static func addAdminRoutes(to group: RouterGroup<Context>, from source: ControllerSource<Self, Context>) {
        group.post("{project}:createSessionCookie", use: source { $0.createSessionCookie })
    }

    @Sendable func publicKeys(_ request: Request, context: Context) async throws -> Response {
        let set = keyRing.currentPublicKeySet(at: clock.now)
        let maxAge = max(0, min(Int(configuration.keyPublishLead), 3_600))
        return WireCoding.response(set.certificates, headers: [.cacheControl: "public, max-age=\(maxAge), must-revalidate, no-transform"])
    }

    /// Errors: `PROJECT_NOT_FOUND`, `MISSING_ID_TOKEN`, `INVALID_DURATION` (outside 300…1209600 seconds),
    /// and those of the ID token: `INVALID_ID_TOKEN`, `TOKEN_EXPIRED` (revoked too), `USER_NOT_FOUND`, `USER_DISABLED`.
    @Sendable func createSessionCookie(_ request: Request, context: Context) async throws -> Response {
        guard context.parameters.get("project") == configuration.projectID else { throw HearthError(.projectNotFound) }
        let input = try await WireCoding.decode(CreateSessionCookieRequest.self, from: request, limit: configuration.maxBodyBytes)
        guard let idToken = input.idToken, !idToken.isEmpty else { throw HearthError(.missingIDToken) }
        let lifetime = try Self.lifetime(input.validDuration)
        let (claims, _) = try await idTokens.verify(idToken)
        let cookie = try await tokens.mintSessionCookie(from: claims, lifetime: lifetime)
        return WireCoding.response(CreateSessionCookieResponse(sessionCookie: cookie))
    }

    /// The cookie's lifetime in seconds: two weeks when absent, else a whole number in the allowed range.
    static func lifetime(_ text: String?) throws -> TimeInterval {
        guard let text else { return TokenService.defaultSessionCookieLifetime }
        let trimmed = text.trimmingCharacters(in: .whitespaces)
        guard trimmed.utf8.count <= 20, let seconds = Int64(trimmed), TokenService.sessionCookieLifetimes.contains(TimeInterval(seconds)) else {
            throw HearthError(.invalidDuration, reason: "validDuration \(text.prefix(24))")
        }
        return TimeInterval(seconds)
    }
}
