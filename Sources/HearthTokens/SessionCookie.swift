import Foundation
import HearthCore

extension TokenService {
    /// Allowed lifetimes of a session cookie: five minutes to two weeks, as Firebase allows.
    public static let sessionCookieLifetimes: ClosedRange<TimeInterval> = 300...1_209_600
    /// The lifetime of a session cookie when the request names none: two weeks.
    public static let defaultSessionCookieLifetime: TimeInterval = 1_209_600

    /// `iss` of the project's session cookies, Firebase's form whatever the ID tokens' issuer.
    public var sessionCookieIssuer: String { "https://session.firebase.google.com/\(configuration.projectID)" }

    /// Signs a session cookie for a verified ID token: its claims (subject, `auth_time`, `firebase`, developer
    /// claims) with the session-cookie issuer and a new `iat` and `exp`, signed RS256 by the signing key of the
    /// moment, so it verifies against the published certificates.
    /// - Parameter lifetime: seconds until `exp`; the caller checks it against ``sessionCookieLifetimes``.
    public func mintSessionCookie(from idToken: IDTokenClaims, lifetime: TimeInterval) async throws -> String {
        let now = clockNow
        var claims = idToken
        claims.issuer = sessionCookieIssuer
        claims.audience = configuration.projectID
        claims.issuedAt = Int64(now.timeIntervalSince1970)
        claims.expiresAt = claims.issuedAt + Int64(lifetime)
        if let signer = keyRing.signer(at: now) {
            return try Self.sign(claims, kid: signer.kid, key: signer.key)
        }
        try await keyRing.reload()
        guard let signer = keyRing.signer(at: now) else { throw HearthError(.internalError, reason: "no signing key is active") }
        return try Self.sign(claims, kid: signer.kid, key: signer.key)
    }
}
