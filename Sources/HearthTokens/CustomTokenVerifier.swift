import Crypto
import CryptoExtras
import Foundation
import HearthBase64URL
import HearthCore

/// Checks the custom tokens a developer's backend mints for `accounts:signInWithCustomToken`, as Firebase
/// Admin SDKs make them: a JWT with `aud` = ``audience``, `iss` = `sub` = the signing service account,
/// `uid`, optional `claims`, and at most an hour between `iat` and `exp`, signed RS256.
///
/// The keys are the public halves of the service-account keys the backend signs with. Development mode
/// also accepts what the Admin SDKs send to an emulator: `alg: none` tokens, and a bare JSON payload.
public struct CustomTokenVerifier: Sendable {
    public static let audience = "https://identitytoolkit.googleapis.com/google.identity.identitytoolkit.v1.IdentityToolkit"

    /// A key a backend signs custom tokens with.
    public struct Signer: Sendable {
        public let publicKey: _RSA.Signing.PublicKey
        /// The service account (`iss` and `sub`) it belongs to; `nil` accepts any.
        public let serviceAccount: String?

        public init(publicKeyPEM: String, serviceAccount: String?) throws {
            publicKey = try _RSA.Signing.PublicKey(pemRepresentation: publicKeyPEM)
            self.serviceAccount = serviceAccount
        }
    }

    /// What a valid token says.
    public struct Verified: Sendable, Equatable {
        public let uid: String
        /// The developer claims (`claims`), to carry in every ID token of the session.
        public let claims: [String: JSONValue]
        /// The tenant the token signs in to (`tenant_id`, as the Admin SDKs' tenant-aware `createCustomToken` writes it).
        public var tenantID: String?
    }

    public let signers: [Signer]
    public let acceptsUnsigned: Bool
    /// Allowed difference between the backend's clock and ours.
    public let clockSkew: TimeInterval

    public init(signers: [Signer], acceptsUnsigned: Bool, clockSkew: TimeInterval = 300) {
        self.signers = signers
        self.acceptsUnsigned = acceptsUnsigned
        self.clockSkew = clockSkew
    }

    /// Errors: `INVALID_CUSTOM_TOKEN` (format, audience, signature, time), `MISSING_IDENTIFIER`,
    /// `INVALID_CLAIMS`, `FORBIDDEN_CLAIM : <name>`, `CLAIMS_TOO_LARGE`.
    /// - Parameter storedSigners: signers besides the configured ones (the service-account keys in the database).
    public func verify(_ token: String, now: Date, storedSigners: [Signer] = []) throws -> Verified {
        func invalid(_ detail: String?, reason: String) -> HearthError {
            HearthError(.invalidCustomToken, detail: detail, reason: reason)
        }
        let payload: [String: JSONValue]
        if token.hasPrefix("{") {
            guard acceptsUnsigned else { throw invalid("Invalid assertion format", reason: "a bare JSON custom token outside development mode") }
            guard let object = JSONValue.object(fromJSON: token) else {
                throw invalid("((Unable to parse the custom token as JSON.))", reason: "bad JSON")
            }
            return try Self.identity(from: object)
        }
        let parts = token.split(separator: ".", omittingEmptySubsequences: false)
        guard parts.count == 3, let headerData = Self.base64URL(parts[0]), let payloadData = Self.base64URL(parts[1]),
            let header = JSONValue.object(fromJSON: String(decoding: headerData, as: UTF8.self)),
            let decoded = JSONValue.object(fromJSON: String(decoding: payloadData, as: UTF8.self))
        else { throw invalid("Invalid assertion format", reason: "not a JWT") }
        payload = decoded

        guard case .string(let audience)? = payload["aud"], audience == Self.audience else {
            let shown = payload["aud"].map { String($0.jsonText.prefix(200)) } ?? "none"
            throw invalid("((Invalid aud (audience): \(shown) Note: Firebase ID Tokens can be verified with the Admin SDK.))", reason: "wrong aud")
        }
        switch header["alg"] {
        case .string("none")?:
            guard acceptsUnsigned else { throw invalid(nil, reason: "an unsigned custom token outside development mode") }
            return try Self.identity(from: payload)
        case .string("RS256")?:
            break
        default:
            throw invalid(nil, reason: "unsupported alg \(header["alg"]?.jsonText ?? "none")")
        }
        guard let signature = Self.base64URL(parts[2]) else { throw invalid(nil, reason: "signature is not base64url") }
        let signingInput = Data("\(parts[0]).\(parts[1])".utf8)
        guard case .string(let issuer)? = payload["iss"], case .string(let subject)? = payload["sub"], issuer == subject else {
            throw invalid(nil, reason: "iss and sub must both name the service account")
        }
        let candidates = (signers + storedSigners).filter { $0.serviceAccount == nil || $0.serviceAccount == issuer }
        let rsaSignature = _RSA.Signing.RSASignature(rawRepresentation: signature)
        guard
            candidates.contains(where: {
                $0.publicKey.isValidSignature(rsaSignature, for: signingInput, padding: .insecurePKCS1v1_5)
            })
        else {
            throw invalid(nil, reason: candidates.isEmpty ? "no custom-token key is configured for \(issuer)" : "bad signature")
        }
        guard case .number(let issuedAt)? = payload["iat"], case .number(let expiresAt)? = payload["exp"] else {
            throw invalid(nil, reason: "iat and exp are required")
        }
        let seconds = now.timeIntervalSince1970
        guard expiresAt > seconds - clockSkew else { throw invalid(nil, reason: "expired") }
        guard issuedAt <= seconds + clockSkew else { throw invalid(nil, reason: "issued in the future") }
        guard expiresAt - issuedAt <= 3_600 else { throw invalid(nil, reason: "valid for more than an hour") }
        return try Self.identity(from: payload)
    }

    /// The uid and developer claims of a payload.
    static func identity(from payload: [String: JSONValue]) throws -> Verified {
        let uid: String
        switch payload["uid"] ?? payload["user_id"] {
        case .string(let text)?: uid = text
        case .number(let number)?: uid = number.rounded() == number ? String(Int64(number)) : String(number)
        case .bool(let flag)?: uid = String(flag)
        default: throw HearthError(.missingIdentifier)
        }
        guard UserText.isValidUID(uid) else {
            throw HearthError(
                .invalidCustomToken, detail: "((The uid must be a non-empty string of at most 128 printable characters.))",
                reason: "bad uid")
        }
        var tenantID: String?
        if let tenant = payload["tenant_id"], tenant != .null {
            guard case .string(let text) = tenant else { throw HearthError(.invalidCustomToken, reason: "tenant_id not a string") }
            tenantID = text
        }
        guard let claimsValue = payload["claims"], claimsValue != .null else { return Verified(uid: uid, claims: [:], tenantID: tenantID) }
        guard case .object(let claims) = claimsValue else { throw HearthError(.invalidClaims) }
        if let reserved = claims.keys.sorted().first(where: IDTokenClaims.reservedNames.contains) {
            throw HearthError(.forbiddenClaim, detail: reserved)
        }
        guard claimsValue.jsonText.utf8.count <= 1_000 else { throw HearthError(.claimsTooLarge) }
        return Verified(uid: uid, claims: claims, tenantID: tenantID)
    }

    private static func base64URL(_ text: Substring) -> Data? {
        Base64URL.decode(text).map { Data($0) }
    }
}
