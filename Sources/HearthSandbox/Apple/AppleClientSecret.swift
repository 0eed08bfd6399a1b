import Crypto
import Foundation

/// Checks the ES256 client secret a relying party sends to Apple's token and revoke endpoints (providers.md §2.3).
enum AppleClientSecret {
    /// Apple's limit on `exp - iat`: about six months.
    static let maximumLifetime = 15_777_000

    /// `nil` when `secret` is acceptable for `clientID`, otherwise why not (for the log; Apple just says
    /// `invalid_client`).
    static func problem(with secret: String, clientID: String, apple: SandboxCredentials.Apple, now: Date) -> String? {
        guard let parsed = SandboxJWT.parse(secret) else { return "client_secret is not a JWS" }
        guard parsed.header["alg"]?.stringValue == "ES256" else { return "client_secret alg is not ES256" }
        guard parsed.header["kid"]?.stringValue == apple.keyID else { return "client_secret kid is not the registered key id" }
        guard let key = try? P256.Signing.PrivateKey(pemRepresentation: apple.privateKeyPEM).publicKey else {
            return "the sandbox's Apple key is unreadable"
        }
        // ES256 JWS signatures are the raw 64-byte R||S, not DER.
        guard parsed.signature.count == 64,
            let signature = try? P256.Signing.ECDSASignature(rawRepresentation: parsed.signature),
            key.isValidSignature(signature, for: SHA256.hash(data: parsed.signingInput))
        else { return "client_secret signature is invalid (ES256 needs a raw 64-byte R||S signature)" }
        let claims = parsed.claims
        guard claims["iss"]?.stringValue == apple.teamID else { return "client_secret iss is not the team id" }
        guard audienceMatches(claims["aud"]) else { return "client_secret aud is not https://appleid.apple.com" }
        guard claims["sub"]?.stringValue == clientID else { return "client_secret sub is not the client_id" }
        guard let iat = claims["iat"]?.intValue, let exp = claims["exp"]?.intValue else {
            return "client_secret lacks iat or exp"
        }
        let seconds = Int(now.timeIntervalSince1970)
        guard iat <= seconds + 60 else { return "client_secret iat is in the future" }
        guard exp > seconds else { return "client_secret has expired" }
        let (lifetime, overflow) = exp.subtractingReportingOverflow(iat)
        guard !overflow, lifetime <= maximumLifetime else { return "client_secret lives longer than 15777000 seconds" }
        return nil
    }

    private static func audienceMatches(_ aud: SandboxJSON?) -> Bool {
        switch aud {
        case .string(let value): value == Sandbox.appleIssuer
        case .array(let values): values == [.string(Sandbox.appleIssuer)]
        default: false
        }
    }
}
