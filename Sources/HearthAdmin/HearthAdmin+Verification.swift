import Crypto
import CryptoExtras
import Foundation

extension HearthAdmin {
    /// What is being verified: the two differ in issuer, keys and error codes.
    enum TokenKind {
        case idToken, sessionCookie

        var name: String { self == .idToken ? "ID token" : "session cookie" }
        var expired: HearthAdminError.Code { self == .idToken ? .idTokenExpired : .sessionCookieExpired }
        var revoked: HearthAdminError.Code { self == .idToken ? .idTokenRevoked : .sessionCookieRevoked }
    }

    /// Verifies an ID token: an RS256 signature by one of the server's published keys, `aud` = the project,
    /// `iss` = the project's issuer, `exp` not passed, `iat` and `auth_time` not in the future (within
    /// ``clockSkew``), a `sub` of 1…128 characters.
    ///
    /// With `checkRevoked` it also asks the server for the user: a disabled user is refused with
    /// `auth/user-disabled`, a token of a sign-in before the user's tokens were revoked with
    /// `auth/id-token-revoked`, a deleted user with `auth/user-not-found`.
    /// In a tenant (``tenantID``) the token must be of that tenant (`firebase.tenant`): `auth/mismatching-tenant-id`.
    /// - Throws: ``HearthAdminError`` with `auth/argument-error` for anything malformed, foreign or forged,
    ///   `auth/id-token-expired`, and `auth/internal-error` when the keys cannot be fetched.
    public func verifyIDToken(_ token: String, checkRevoked: Bool = false) async throws -> DecodedToken {
        try await verify(token, kind: .idToken, checkRevoked: checkRevoked)
    }

    /// Verifies a session cookie made by ``createSessionCookie(idToken:expiresIn:)``, as ``verifyIDToken(_:checkRevoked:)``
    /// does an ID token, against the session-cookie keys and issuer (`https://session.firebase.google.com/<project>`).
    /// Errors are `auth/session-cookie-expired` and `auth/session-cookie-revoked` instead.
    public func verifySessionCookie(_ cookie: String, checkRevoked: Bool = false) async throws -> DecodedToken {
        try await verify(cookie, kind: .sessionCookie, checkRevoked: checkRevoked)
    }

    func verify(_ token: String, kind: TokenKind, checkRevoked: Bool) async throws -> DecodedToken {
        func refused(_ detail: String) -> HearthAdminError {
            HearthAdminError(.argumentError, "The \(kind.name) is not valid: \(detail).")
        }
        guard !token.isEmpty else { throw refused("it is empty") }
        guard let jwt = CompactJWT(token) else { throw refused("it is not a JWT") }
        guard jwt.header["alg"] == .string("RS256") else { throw refused("its algorithm is not RS256") }
        guard case .string(let kid)? = jwt.header["kid"], !kid.isEmpty, kid.utf8.count <= 256 else { throw refused("it names no key (kid)") }

        let claims = jwt.payload
        let issuer = kind == .idToken ? idTokenIssuer : "https://session.firebase.google.com/\(projectID)"
        guard claims["aud"] == .string(projectID) else { throw refused("its audience (aud) is not the project \(projectID)") }
        guard claims["iss"] == .string(issuer) else { throw refused("its issuer (iss) is not \(issuer)") }
        guard case .string(let subject)? = claims["sub"], !subject.isEmpty, subject.count <= 128 else {
            throw refused("its subject (sub) must be a string of 1 to 128 characters")
        }
        guard case .number(let issuedAt)? = claims["iat"], case .number(let expiresAt)? = claims["exp"],
            case .number(let authTime)? = claims["auth_time"]
        else { throw refused("iat, exp and auth_time must be numbers") }

        let keys = kind == .idToken ? idTokenKeys : sessionCookieKeys
        guard let key = try await keys.key(for: kid) else { throw refused("no published key has its kid") }
        let signature = _RSA.Signing.RSASignature(rawRepresentation: jwt.signature)
        guard key.isValidSignature(signature, for: SHA256.hash(data: jwt.signingInput), padding: .insecurePKCS1v1_5) else {
            throw refused("its signature is not valid")
        }

        let now = clock().timeIntervalSince1970
        guard expiresAt > now - clockSkew else { throw HearthAdminError(kind.expired, "The \(kind.name) has expired.") }
        guard issuedAt <= now + clockSkew else { throw refused("it was issued in the future (iat)") }
        guard authTime <= now + clockSkew else { throw refused("its sign-in time (auth_time) is in the future") }

        // In a tenant, a token of the project or of another tenant is refused (firebase-admin's `TenantAwareAuth`).
        if let tenantID, claims["firebase"]?.objectValue?["tenant"]?.stringValue != tenantID {
            throw HearthAdminError(.mismatchingTenantID, "The \(kind.name) belongs to another tenant than \(tenantID).")
        }

        let decoded = DecodedToken(
            uid: subject, issuer: issuer, audience: projectID, authTime: Date(timeIntervalSince1970: authTime),
            issuedAt: Date(timeIntervalSince1970: issuedAt), expiresAt: Date(timeIntervalSince1970: expiresAt), claims: claims)
        if checkRevoked { try await checkNotRevoked(decoded, kind: kind) }
        return decoded
    }

    /// Looks the user up: refused when disabled, or when the token's sign-in is older than the revocation.
    private func checkNotRevoked(_ token: DecodedToken, kind: TokenKind) async throws {
        let user = try await user(uid: token.uid)
        if user.disabled { throw HearthAdminError(.userDisabled, "The user's account is disabled.") }
        if let validAfter = user.tokensValidAfterTime,
            Int64(token.authTime.timeIntervalSince1970) < Int64(validAfter.timeIntervalSince1970.rounded(.down))
        {
            throw HearthAdminError(kind.revoked, "The \(kind.name) has been revoked.")
        }
    }
}
