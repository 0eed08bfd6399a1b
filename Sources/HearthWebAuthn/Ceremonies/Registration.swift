import Crypto
import Foundation

/// What a browser's `navigator.credentials.create()` returns, the parts a relying party checks.
public struct RegistrationResponse: Sendable {
    public var clientDataJSON: [UInt8]
    public var attestationObject: [UInt8]

    public init(clientDataJSON: [UInt8], attestationObject: [UInt8]) {
        self.clientDataJSON = clientDataJSON
        self.attestationObject = attestationObject
    }
}

/// A registration that passed every check: the credential to store.
public struct VerifiedRegistration: Sendable {
    public let credentialID: [UInt8]
    public let publicKey: COSEPublicKey
    public let signCount: UInt32
    public let flags: AuthenticatorData.Flags
    public let aaguid: [UInt8]
    public let attestation: AttestationKind
}

/// What the attestation statement proved.
public enum AttestationKind: Sendable, Equatable {
    /// Format `none`: nothing about the authenticator.
    case none
    /// `packed` signed by the credential's own key.
    case selfAttestation
    /// `packed` signed by an attestation certificate; `trusted` when it chains to a configured anchor.
    case basic(trusted: Bool)
}

extension RelyingParty {
    /// Verifies a registration (WebAuthn Level 3 §7.1) against the challenge issued for it; `now` is when
    /// attestation certificates must be valid.
    public func verifyRegistration(_ response: RegistrationResponse, challenge: [UInt8], now: Date) async throws(WebAuthnError)
        -> VerifiedRegistration
    {
        try CollectedClientData.check(response.clientDataJSON, type: "webauthn.create", challenge: challenge, origins: origins)
        let object: CBORValue
        do { object = try CBORDecoder(maximumDepth: 4, maximumSize: 64 * 1024).decode(response.attestationObject) } catch {
            throw .malformedAttestationObject("\(error)")
        }
        guard let format = object["fmt"]?.text, let statement = object["attStmt"], statement.map != nil,
            let authenticatorBytes = object["authData"]?.bytes, object.map?.count == 3
        else { throw .malformedAttestationObject("needs exactly fmt, attStmt and authData") }
        let data = try AuthenticatorData(authenticatorBytes)
        try checkFlags(data)
        guard let credential = data.attestedCredential else { throw .missingAttestedCredential }
        guard algorithms.contains(credential.publicKey.algorithm) else { throw .algorithmNotAllowed(credential.publicKey.algorithm) }
        let signed = authenticatorBytes + Array(SHA256.hash(data: response.clientDataJSON))
        let attestation: AttestationKind
        switch format {
        case "none":
            guard statement.map?.isEmpty == true else { throw .invalidAttestationStatement("none has an empty attStmt") }
            attestation = .none
        case "packed":
            attestation = try await PackedAttestation(statement).verify(signed: signed, credential: credential, party: self, now: now)
        default:
            throw .unsupportedAttestationFormat(format)
        }
        if requiresTrustedAttestation && attestation != .basic(trusted: true) { throw .untrustedAttestation }
        return VerifiedRegistration(
            credentialID: credential.credentialID,
            publicKey: credential.publicKey,
            signCount: data.signCount,
            flags: data.flags,
            aaguid: credential.aaguid,
            attestation: attestation
        )
    }
}
