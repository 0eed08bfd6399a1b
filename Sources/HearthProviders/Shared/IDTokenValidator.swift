import Crypto
import Foundation
import HearthBase64URL
import HearthCore
import JWTKit

/// The checks every provider's ID token goes through, in this order:
///
/// 1. A JWS compact serialization whose header names an algorithm the provider uses (``IDTokenPolicy/algorithms``:
///    RS256 or ES256, never `none`, never HS*) and a `kid`; no `crit` extensions.
/// 2. The key with that `kid` from the provider's JWKS (``JWKSCache``), of the same algorithm; the signature
///    verified with it (jwt-kit).
/// 3. `iss` accepted; `aud` contains a configured client id (and with several audiences, `azp`, when present,
///    is one of them); `exp` not passed and `nbf` reached, within the clock skew; `iat` present and not in the
///    future; `sub` present.
/// 4. The nonce rule (``NonceRule``), then, for tokens with a nonce, the replay guard if one is installed.
struct IDTokenValidator: Sendable {
    let keys: JWKSCache
    let clock: WallClock
    let clockSkew: TimeInterval
    let replayGuard: (any CredentialReplayGuard)?

    func validate(_ token: String, policy: IDTokenPolicy, rawNonce: String?, providerID: String) async throws -> ClaimSet {
        let name = policy.providerName
        func unparsable(_ why: String) -> HearthError {
            ProviderFailure.invalid("Unable to parse \(name) id_token: \(why)")
        }
        func invalid(_ why: String, reason: String? = nil) -> HearthError {
            ProviderFailure.invalid("Invalid \(name) id_token: \(why)", reason: reason)
        }

        // 1. Structure and header.
        let parts = token.split(separator: ".", omittingEmptySubsequences: false)
        guard token.utf8.count <= 65_536, parts.count == 3, !parts[0].isEmpty, !parts[1].isEmpty else {
            throw unparsable("it is not a signed JWT.")
        }
        guard let headerData = Base64URL.decode(parts[0]).map({ Data($0) }),
            case .object(let header)? = try? JSONDecoder().decode(JSONValue.self, from: headerData)
        else { throw unparsable("its header is not base64url-encoded JSON.") }
        guard case .string(let alg)? = header["alg"] else { throw unparsable("its header has no alg.") }
        guard let algorithm = IDTokenAlgorithm(rawValue: alg), policy.algorithms.contains(algorithm) else {
            throw invalid("the signing algorithm \"\(alg.prefix(16))\" is not accepted.")
        }
        guard header["crit"] == nil else { throw invalid("its header has critical extensions Hearth does not support.") }
        guard case .string(let kid)? = header["kid"], !kid.isEmpty, kid.utf8.count <= 256 else {
            throw unparsable("its header has no kid.")
        }
        guard !parts[2].isEmpty else { throw invalid("it is not signed.") }

        // 2. Key and signature.
        let key = try await keys.key(kid, at: policy.jwksURL, provider: name)
        guard key.algorithm == algorithm else {
            throw invalid("the signing algorithm does not match the key.", reason: "header alg \(alg), key \(kid) is \(key.algorithm.rawValue)")
        }
        let claims: ClaimSet
        do {
            claims = try await key.collection.verify(token, as: ClaimSet.self)
        } catch let error as JWTError where error.errorType == .signatureVerificationFailed {
            throw invalid("the signature does not verify.", reason: "\(name) id_token signature does not verify with key \(kid)")
        } catch {
            throw unparsable("its payload is not a JSON object.")
        }

        // 3. Claims.
        let now = clock.now.timeIntervalSince1970
        guard let issuer = claims.string("iss") else { throw invalid("it has no issuer.") }
        if let issuers = policy.issuers, !issuers.contains(issuer) {
            throw invalid("the issuer \"\(issuer.prefix(200))\" is not accepted.")
        }
        let audiences = claims.strings("aud")
        guard audiences.contains(where: policy.audiences.contains) else {
            let shown = audiences.joined(separator: ", ").prefix(300)
            throw invalid("the audience in ID Token [\(shown)] does not match the expected audience.")
        }
        if audiences.count > 1, let azp = claims.string("azp"), !policy.audiences.contains(azp) {
            throw invalid("the authorized party \"\(azp.prefix(200))\" is not an expected audience.")
        }
        guard let exp = claims.number("exp") else { throw invalid("it has no expiry.") }
        guard now <= exp + clockSkew else {
            throw invalid(
                "it expired at \(Self.timestamp(exp)).", reason: "\(name) id_token expired at \(Self.timestamp(exp)), now \(Self.timestamp(now))")
        }
        if let nbf = claims.number("nbf"), now + clockSkew < nbf {
            throw invalid("it is not valid before \(Self.timestamp(nbf)).")
        }
        guard let iat = claims.number("iat") else { throw invalid("it has no issue time.") }
        guard iat <= now + clockSkew else { throw invalid("it was issued in the future (\(Self.timestamp(iat))).") }
        guard claims.string("sub") != nil else { throw invalid("it has no subject.") }

        // 4. Nonce, then replay.
        try NonceRule.check(tokenNonce: claims["nonce"], rawNonce: rawNonce, required: policy.nonceRequired)
        if claims["nonce"] != nil, let replayGuard {
            let fingerprint = SHA256.hash(data: Data((providerID + "\n" + token).utf8)).lowercaseHex
            let expiresAt = Date(timeIntervalSince1970: exp + clockSkew)
            guard try await replayGuard.recordFirstUse(of: fingerprint, expiresAt: expiresAt) else {
                throw ProviderFailure.nonce("Duplicate credential received. Please try again with a new credential.")
            }
        }
        return claims
    }

    static func timestamp(_ seconds: Double) -> String {
        Date(timeIntervalSince1970: seconds).formatted(.iso8601)
    }
}
