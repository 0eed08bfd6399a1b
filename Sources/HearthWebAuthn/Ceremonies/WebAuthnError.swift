/// Why a registration or an authentication was refused. Each case is one rule of WebAuthn Level 3 §7.1/§7.2;
/// `description` is the text an operator's log shows (none of it secret).
public enum WebAuthnError: Error, Sendable, Equatable, CustomStringConvertible {
    case malformedClientData(String)
    case wrongCeremonyType(expected: String, got: String)
    case challengeMismatch
    case originNotAllowed(String)
    case crossOrigin
    case malformedAttestationObject(String)
    case malformedAuthenticatorData(String)
    case malformedPublicKey(String)
    case unsupportedAlgorithm(Int)
    case algorithmNotAllowed(COSEAlgorithm)
    case rpIDHashMismatch
    case userNotPresent
    case userNotVerified
    case missingAttestedCredential
    case unexpectedAttestedCredential
    case unsupportedAttestationFormat(String)
    case invalidAttestationStatement(String)
    case untrustedAttestation
    case backupEligibilityChanged
    case invalidSignature

    public var description: String {
        switch self {
        case .malformedClientData(let why): "clientDataJSON is malformed: \(why)"
        case .wrongCeremonyType(let expected, let got): "clientDataJSON type is \(got.debugDescription), expected \(expected)"
        case .challengeMismatch: "clientDataJSON challenge is not the one issued"
        case .originNotAllowed(let origin): "origin \(origin.debugDescription) is not an expected origin"
        case .crossOrigin: "cross-origin ceremonies are not accepted"
        case .malformedAttestationObject(let why): "attestationObject is malformed: \(why)"
        case .malformedAuthenticatorData(let why): "authenticatorData is malformed: \(why)"
        case .malformedPublicKey(let why): "credential public key is malformed: \(why)"
        case .unsupportedAlgorithm(let label): "COSE algorithm \(label) is not supported"
        case .algorithmNotAllowed(let algorithm): "COSE algorithm \(algorithm.rawValue) was not offered"
        case .rpIDHashMismatch: "rpIdHash is not the SHA-256 of the RP ID"
        case .userNotPresent: "the user-present flag is not set"
        case .userNotVerified: "the user-verified flag is not set and user verification is required"
        case .missingAttestedCredential: "registration has no attested credential data"
        case .unexpectedAttestedCredential: "assertion carries attested credential data"
        case .unsupportedAttestationFormat(let format): "attestation format \(format.debugDescription) is not supported"
        case .invalidAttestationStatement(let why): "attestation statement is invalid: \(why)"
        case .untrustedAttestation: "attestation certificate does not chain to a trust anchor"
        case .backupEligibilityChanged: "the backup-eligible flag differs from the registered credential's"
        case .invalidSignature: "signature does not verify"
        }
    }
}
