import Crypto
import CryptoExtras
import Foundation
import HearthBase64URL
import HearthCore
import JWTKit

/// The OAuth 2.0 JWT-bearer grant (RFC 7523) of service-account keys, and the access tokens it hands out.
///
/// An access token is a JWT signed by the project's signing keys (``KeyRing``), so every replica verifies
/// it without a database row of its own. It cannot pass for an ID token nor an ID token for it: its header
/// says `typ: at+jwt` (RFC 9068), its `aud` is ``audience(projectID:)`` rather than the project id, and it
/// lacks the claims an ID token must have. Each use also checks that its service-account key is still
/// stored, so deleting a key ends its access tokens at once.
public struct AdminAccessTokens: Sendable {
    /// The longest an access token or an assertion lives: an hour, as Google's.
    public static let maximumLifetime: TimeInterval = 3_600
    /// Allowed difference between a client's clock and ours.
    public static let clockLeeway: TimeInterval = 60
    /// Assertions longer than this are refused unread (google-auth's are about 800 characters).
    public static let maximumAssertionLength = 8_192
    static let tokenType = "at+jwt"
    /// Google's token endpoints, which Google's libraries name as `aud` whatever the file's `token_uri` says
    /// (google-auth for Python and Node's gtoken always write `https://oauth2.googleapis.com/token`). The key is
    /// Hearth's alone, so an assertion it signed for Google's endpoint is still its holder's.
    public static let googleTokenAudiences: Set<String> = ["https://oauth2.googleapis.com/token", "https://www.googleapis.com/oauth2/v4/token"]

    public let keyRing: KeyRing
    public let keys: ServiceAccountKeys
    public let projectID: String
    /// How long an access token lives: at most an hour, and never longer than the signing keys stay published.
    public let lifetime: TimeInterval
    /// Token endpoint URLs an assertion's `aud` may name besides its key's `token_uri`.
    public let tokenURLs: Set<String>
    private let clock: WallClock

    public init(
        keyRing: KeyRing, keys: ServiceAccountKeys, projectID: String, idTokenLifetime: TimeInterval, tokenURLs: Set<String>,
        clock: WallClock
    ) {
        self.keyRing = keyRing
        self.keys = keys
        self.projectID = projectID
        self.lifetime = min(Self.maximumLifetime, idTokenLifetime)
        self.tokenURLs = tokenURLs
        self.clock = clock
    }

    /// `aud` of access tokens: never a project id, so never an ID token's.
    public static func audience(projectID: String) -> String { "hearth-admin:\(projectID)" }

    /// A refused grant: the OAuth error code (RFC 6749 §5.2) and a description for the client.
    public struct GrantError: Error, Sendable, Equatable {
        public let code: String
        public let description: String

        static func invalidGrant(_ description: String) -> GrantError { GrantError(code: "invalid_grant", description: description) }
    }

    /// A checked assertion.
    public struct Assertion: Sendable, Equatable {
        public let key: ServiceAccountKey
        public let scope: String
        /// `exp` of the assertion. Until then it may be exchanged again (as at Google's token endpoint): no replay is refused.
        public let expiresAt: Date
    }

    /// Checks a JWT-bearer assertion as google-auth makes it: RS256 by a stored key (found by `kid`, else by
    /// `iss`), `iss` its client e-mail, `sub` absent or the same, `aud` its `token_uri`, one of ``tokenURLs``
    /// or Google's (``googleTokenAudiences``), `iat`/`exp` at most an hour apart around now, and a `scope`.
    /// - Throws: ``GrantError`` (`invalid_grant`, or `invalid_scope` without a scope).
    public func verifyAssertion(_ assertion: String) async throws -> Assertion {
        guard assertion.utf8.count <= Self.maximumAssertionLength else { throw GrantError.invalidGrant("The assertion is too large.") }
        let parts = assertion.split(separator: ".", omittingEmptySubsequences: false)
        guard parts.count == 3, let headerBytes = Base64URL.decode(parts[0]), let payloadBytes = Base64URL.decode(parts[1]),
            let signature = Base64URL.decode(parts[2]),
            let header = JSONValue.object(fromJSON: String(decoding: headerBytes, as: UTF8.self)),
            let payload = JSONValue.object(fromJSON: String(decoding: payloadBytes, as: UTF8.self))
        else { throw GrantError.invalidGrant("The assertion is not a JWT.") }
        guard header["alg"] == .string("RS256") else { throw GrantError.invalidGrant("The assertion must be signed RS256.") }
        guard case .string(let issuer)? = payload["iss"], !issuer.isEmpty else {
            throw GrantError.invalidGrant("The assertion has no iss (issuer).")
        }
        let candidates: [ServiceAccountKey]
        switch header["kid"] {
        case .string(let kid)?:
            candidates = try await keys.key(id: kid).map { [$0] } ?? []
        case nil, .null?:
            candidates = try await keys.all().filter { $0.clientEmail == issuer }
        default:
            throw GrantError.invalidGrant("The assertion's kid is not a string.")
        }
        guard !candidates.isEmpty else { throw GrantError.invalidGrant("No service-account key matches the assertion's kid or iss.") }
        guard let key = candidates.first(where: { $0.clientEmail == issuer }) else {
            throw GrantError.invalidGrant("The assertion's iss is not the client_email of its key.")
        }
        // A key made for another project (by a server of that project on this database) buys nothing here.
        guard key.projectID == projectID else { throw GrantError.invalidGrant("The service-account key belongs to another project.") }
        let signingInput = Data(assertion.utf8.prefix(parts[0].utf8.count + 1 + parts[1].utf8.count))
        guard let publicKey = key.publicKey,
            publicKey.isValidSignature(
                _RSA.Signing.RSASignature(rawRepresentation: signature), for: signingInput, padding: .insecurePKCS1v1_5)
        else { throw GrantError.invalidGrant("Invalid JWT signature.") }
        if let subject = payload["sub"], subject != .string(issuer) {
            throw GrantError.invalidGrant("The assertion's sub must be absent or equal its iss.")
        }
        guard case .string(let audience)? = payload["aud"],
            audience == key.tokenURI || tokenURLs.contains(audience) || Self.googleTokenAudiences.contains(audience)
        else {
            throw GrantError.invalidGrant("The assertion's aud must be the token endpoint, \(key.tokenURI).")
        }
        guard case .number(let issuedAt)? = payload["iat"], case .number(let expiresAt)? = payload["exp"], issuedAt.isFinite, expiresAt.isFinite
        else { throw GrantError.invalidGrant("The assertion needs numeric iat and exp.") }
        let now = clock.now.timeIntervalSince1970
        guard expiresAt > now - Self.clockLeeway else { throw GrantError.invalidGrant("The assertion has expired.") }
        guard issuedAt <= now + Self.clockLeeway else { throw GrantError.invalidGrant("The assertion is issued in the future.") }
        guard expiresAt > issuedAt, expiresAt - issuedAt <= Self.maximumLifetime else {
            throw GrantError.invalidGrant("The assertion's exp must be after its iat and at most an hour later.")
        }
        guard case .string(let scope)? = payload["scope"], !scope.trimmingCharacters(in: .whitespaces).isEmpty, scope.utf8.count <= 2_048,
            !scope.unicodeScalars.contains(where: { $0.properties.generalCategory == .control })
        else { throw GrantError(code: "invalid_scope", description: "The assertion needs a scope.") }
        return Assertion(key: key, scope: scope, expiresAt: Date(timeIntervalSince1970: expiresAt))
    }

    /// The claims of an access token.
    struct Claims: JWTPayload, Equatable {
        let iss: String
        let sub: String
        let aud: String
        let iat: Int64
        let exp: Int64
        let scope: String
        /// The service-account key the token was granted to.
        let key: String
        let jti: String

        func verify(using algorithm: some JWTAlgorithm) async throws {}

        enum CodingKeys: String, CodingKey {
            case iss, sub, aud, iat, exp, scope, jti
            case key = "hearth_key_id"
        }
    }

    private struct Header: Encodable {
        let alg = "RS256"
        let kid: String
        let typ = AdminAccessTokens.tokenType
    }

    /// Signs an access token for a checked assertion.
    public func mint(for assertion: Assertion) async throws -> String {
        let now = clock.now
        var signer = keyRing.signer(at: now)
        if signer == nil {
            try await keyRing.reload()
            signer = keyRing.signer(at: now)
        }
        guard let signer else { throw HearthError(.internalError, reason: "no signing key is active") }
        let issuedAt = Int64(now.timeIntervalSince1970)
        let claims = Claims(
            iss: assertion.key.tokenURI, sub: assertion.key.clientEmail, aud: Self.audience(projectID: projectID), iat: issuedAt,
            exp: issuedAt + Int64(lifetime), scope: assertion.scope, key: assertion.key.keyID,
            jti: Base64URL.encode(ServiceAccountKeys.randomBytes(16)))
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.withoutEscapingSlashes, .sortedKeys]
        var token = Base64URL.encode(try encoder.encode(Header(kid: signer.kid)))
        token.append(".")
        token.append(Base64URL.encode(try encoder.encode(claims)))
        return try signer.key.jws(signingInput: token)
    }

    /// Whether `token` is a live access token: signed by a published signing key, `typ: at+jwt`, this
    /// project's access-token audience, not expired, and its service-account key still stored.
    public func accepts(_ token: String) async throws -> Bool {
        try await key(of: token) != nil
    }

    /// The service-account key `token` was granted to, when ``accepts(_:)`` would accept it; `nil` otherwise.
    public func key(of token: String) async throws -> ServiceAccountKey? {
        guard token.utf8.count <= Self.maximumAssertionLength, let headerText = token.split(separator: ".", maxSplits: 1).first,
            let headerBytes = Base64URL.decode(headerText),
            let header = JSONValue.object(fromJSON: String(decoding: headerBytes, as: UTF8.self)),
            header["typ"] == .string(Self.tokenType), header["alg"] == .string("RS256"), case .string(let kid)? = header["kid"]
        else { return nil }
        let claims: Claims
        if let verified = try? await keyRing.collection.verify(token, as: Claims.self) {
            claims = verified
        } else {
            // A key another replica made since this one last loaded the key set: learn it and try again.
            guard await keyRing.learn(kid: kid), let retried = try? await keyRing.collection.verify(token, as: Claims.self) else { return nil }
            claims = retried
        }
        let now = Int64(clock.now.timeIntervalSince1970)
        guard claims.aud == Self.audience(projectID: projectID), claims.exp > now, claims.iat <= now + Int64(Self.clockLeeway) else {
            return nil
        }
        guard let key = try await keys.key(id: claims.key), key.clientEmail == claims.sub, key.projectID == projectID else { return nil }
        return key
    }
}
