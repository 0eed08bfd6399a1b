import Crypto
import Foundation

extension Sandbox {
    /// The `iss` every ``SandboxTokenDefect/wrongIssuer`` token carries.
    public static let wrongIssuer = "https://issuer.attacker.example"
    /// The `aud` every ``SandboxTokenDefect/wrongAudience`` token carries.
    public static let wrongAudience = "sandbox-wrong-audience.example"

    /// Applies a defect and the test's claim edits to `claims`, then signs them with `provider`'s key (RS256, or
    /// ES256 for Yahoo; the defects work the same for both).
    ///
    /// - Parameters:
    ///   - includeType: whether the header carries `"typ":"JWT"` (Apple's headers do not).
    ///   - mismatchedIssuer: the `iss` for ``SandboxTokenDefect/issuerTenantMismatch``.
    func signIDToken(
        provider: SandboxProvider, includeType: Bool, claims good: [String: SandboxJSON], expiresIn: TimeInterval,
        defect: SandboxTokenDefect?, extraClaims: [String: SandboxJSON], omittedClaims: Set<String>,
        mismatchedIssuer: String? = nil
    ) throws -> String {
        var claims = good
        switch defect {
        case .expired: Self.shiftTimes(&claims, by: -(Double(max(Self.wholeSeconds(expiresIn), 0)) + 600))
        case .notYetValid: Self.shiftTimes(&claims, by: 600)
        case .wrongAudience: claims["aud"] = .string(Self.wrongAudience)
        case .wrongIssuer: claims["iss"] = .string(Self.wrongIssuer)
        case .issuerTenantMismatch: claims["iss"] = .string(mismatchedIssuer ?? Self.wrongIssuer)
        case .wrongNonce: claims["nonce"] = .string(SandboxNonce.sha256Hex("not-the-nonce-\(SandboxRandom.hex(bytes: 8))"))
        default: break
        }
        for (name, value) in extraClaims { claims[name] = value }
        for name in omittedClaims { claims[name] = nil }

        let (active, forged) = try withState { state -> (SandboxSigningKey, SandboxSigningKey?) in
            var set = try state.keySet(for: provider)
            let forged: SandboxSigningKey? =
                defect == .unpublishedKey || defect == .unknownKeyID ? try set.unpublished() : nil
            state.keySets[provider] = set
            return (set.active, forged)
        }

        var header: [String: SandboxJSON] = ["alg": .string(active.algorithm.rawValue), "kid": .string(active.kid)]
        if includeType { header["typ"] = "JWT" }
        let payload = SandboxJSON.object(claims)
        switch defect {
        case .unpublishedKey:
            return try SandboxJWT.encode(header: .object(header), claims: payload) { try forged?.sign($0) ?? Data() }
        case .unknownKeyID:
            header["kid"] = .string(forged?.kid ?? "unknown")
            return try SandboxJWT.encode(header: .object(header), claims: payload) { try forged?.sign($0) ?? Data() }
        case .algNone:
            header["alg"] = "none"
            return SandboxJWT.encode(header: .object(header), claims: payload) { _ in Data() }
        case .hs256WithPublicKey:
            header["alg"] = "HS256"
            let secret = SymmetricKey(data: Data(active.publicKeyPEM.utf8))
            return SandboxJWT.encode(header: .object(header), claims: payload) {
                Data(HMAC<SHA256>.authenticationCode(for: $0, using: secret))
            }
        case .tamperedPayload:
            let signed = try SandboxJWT.encode(header: .object(header), claims: payload) { try active.sign($0) }
            let signature = signed.split(separator: ".").last.map(String.init) ?? ""
            var changed = claims
            changed["sub"] = .string((claims["sub"]?.stringValue ?? "") + "-tampered")
            return "\(SandboxJWT.segment(.object(header))).\(SandboxJWT.segment(.object(changed))).\(signature)"
        default:
            return try SandboxJWT.encode(header: .object(header), claims: payload) { try active.sign($0) }
        }
    }

    /// `iat`/`exp` for a token issued now.
    func tokenTimes(expiresIn: TimeInterval) -> (iat: Int, exp: Int) {
        let issued = Self.seconds(now)
        return (issued, issued + Self.wholeSeconds(expiresIn))
    }

    private static func shiftTimes(_ claims: inout [String: SandboxJSON], by delta: TimeInterval) {
        for name in ["iat", "exp", "nbf", "auth_time"] {
            if let value = claims[name]?.intValue { claims[name] = .int(value &+ Int(delta)) }
        }
    }

    /// Verifies a token against `provider`'s published keys (the `alg` must be the key's) and returns its claims
    /// when the signature is valid and it has not expired (used by Google's tokeninfo).
    func verifiedClaims(_ token: String, provider: SandboxProvider) -> (header: SandboxJSON, claims: SandboxJSON)? {
        guard let parsed = SandboxJWT.parse(token), let kid = parsed.header["kid"]?.stringValue,
            let key = withState({ try? $0.keySet(for: provider).key(withID: kid) }),
            parsed.header["alg"]?.stringValue == key.algorithm.rawValue,
            key.isValidSignature(parsed.signature, for: parsed.signingInput),
            let exp = parsed.claims["exp"]?.intValue, exp > Self.seconds(now)
        else { return nil }
        return (parsed.header, parsed.claims)
    }
}
