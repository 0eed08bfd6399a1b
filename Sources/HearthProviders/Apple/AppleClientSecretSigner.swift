import Crypto
import Foundation
import HearthBase64URL
import HearthCore
import Synchronization

/// Makes the client secret Apple's token endpoint requires: an ES256 JWT signed with the developer's `.p8` key
/// (providers.md §2.3), `{"alg":"ES256","kid":<key id>}` over `iss` (team id), `iat`, `exp`, `aud`
/// `https://appleid.apple.com` and `sub` (the client id).
///
/// Nobody configures the secret itself: Hearth signs one, reuses it while it is young, and signs a new one
/// once less than a tenth of its lifetime is left, so it never expires in use. Apple accepts at most
/// 15 777 000 seconds; longer configured lifetimes are cut to that.
public enum AppleClientSecretSigner {
    /// Apple's limit on `exp - iat`.
    public static let maximumLifetime: TimeInterval = 15_777_000

    private struct Cached {
        var secret: String
        var issuedAt: Date
        var expiresAt: Date
    }

    /// Secrets by key material and client id, shared by every server in the process: one secret per key is
    /// all Apple needs.
    private static let cache = Mutex<[String: Cached]>([:])

    /// The secret to send now for `clientID`, signing a new one when none is cached or the cached one is near
    /// its end (or from the future, when the clock went back).
    public static func secret(for apple: ProvidersConfiguration.Apple, clientID: String, now: Date) throws -> String {
        let lifetime = min(max(apple.clientSecretLifetime, 60), maximumLifetime)
        let keyDigest = Data(SHA256.hash(data: Data(apple.privateKey.value.utf8))).base64EncodedString()
        let cacheKey = [apple.teamID, apple.keyID, clientID, keyDigest].joined(separator: "|")
        if let cached = cache.withLock({ $0[cacheKey] }), cached.issuedAt <= now.addingTimeInterval(60),
            cached.expiresAt.timeIntervalSince(now) > lifetime / 10
        {
            return cached.secret
        }
        let secret = try sign(apple: apple, clientID: clientID, issuedAt: now, lifetime: lifetime)
        let issuedAt = Date(timeIntervalSince1970: now.timeIntervalSince1970.rounded(.down))
        cache.withLock { $0[cacheKey] = Cached(secret: secret, issuedAt: issuedAt, expiresAt: issuedAt.addingTimeInterval(lifetime)) }
        return secret
    }

    /// Signs one secret.
    static func sign(apple: ProvidersConfiguration.Apple, clientID: String, issuedAt: Date, lifetime: TimeInterval) throws -> String {
        let key: P256.Signing.PrivateKey
        do {
            key = try P256.Signing.PrivateKey(pemRepresentation: apple.privateKey.value)
        } catch {
            throw HearthError(.internalError, reason: "providers.apple.privateKey is not a PKCS#8 PEM P-256 key")
        }
        let iat = Int(issuedAt.timeIntervalSince1970.rounded(.down))
        let header = JSONValue.object(["alg": .string("ES256"), "kid": .string(apple.keyID)])
        let claims = JSONValue.object([
            "iss": .string(apple.teamID), "iat": .number(Double(iat)), "exp": .number(Double(iat + Int(lifetime))),
            "aud": .string("https://appleid.apple.com"), "sub": .string(clientID),
        ])
        let input = Base64URL.encode(Data(header.jsonText.utf8)) + "." + Base64URL.encode(Data(claims.jsonText.utf8))
        // JWS wants the raw 64-byte R||S, not DER.
        let signature = try key.signature(for: Data(input.utf8)).rawRepresentation
        return input + "." + Base64URL.encode(signature)
    }
}
