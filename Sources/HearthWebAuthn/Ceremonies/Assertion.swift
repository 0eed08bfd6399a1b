import Crypto

/// What a browser's `navigator.credentials.get()` returns, the parts a relying party checks.
public struct AssertionResponse: Sendable {
    public var clientDataJSON: [UInt8]
    public var authenticatorData: [UInt8]
    public var signature: [UInt8]

    public init(clientDataJSON: [UInt8], authenticatorData: [UInt8], signature: [UInt8]) {
        self.clientDataJSON = clientDataJSON
        self.authenticatorData = authenticatorData
        self.signature = signature
    }
}

/// The stored side of a credential that an assertion is checked against.
public struct RegisteredCredential: Sendable {
    public var publicKey: COSEPublicKey
    public var signCount: UInt32
    public var backupEligible: Bool

    public init(publicKey: COSEPublicKey, signCount: UInt32, backupEligible: Bool) {
        self.publicKey = publicKey
        self.signCount = signCount
        self.backupEligible = backupEligible
    }
}

/// An assertion whose signature and flags verified.
public struct VerifiedAssertion: Sendable {
    public let flags: AuthenticatorData.Flags
    public let signCount: UInt32
    public let counter: SignCountCheck
}

/// What the signature counter says (§6.1.1): a counter that did not advance means two authenticators may hold
/// the key, and the caller decides what to do (Hearth refuses the sign-in).
public enum SignCountCheck: Sendable, Equatable {
    /// The counter went up.
    case advanced
    /// Both counters are zero: the authenticator keeps none (synced passkeys).
    case notKept
    /// The counter stayed or went back: a possibly cloned authenticator.
    case regressed(stored: UInt32, received: UInt32)
}

extension RelyingParty {
    /// Verifies an assertion (WebAuthn Level 3 §7.2) for `credential` against the challenge issued for it.
    public func verifyAssertion(_ response: AssertionResponse, challenge: [UInt8], credential: RegisteredCredential) throws(WebAuthnError)
        -> VerifiedAssertion
    {
        try CollectedClientData.check(response.clientDataJSON, type: "webauthn.get", challenge: challenge, origins: origins)
        let data = try AuthenticatorData(response.authenticatorData)
        try checkFlags(data)
        guard data.attestedCredential == nil else { throw .unexpectedAttestedCredential }
        guard data.flags.contains(.backupEligible) == credential.backupEligible else { throw .backupEligibilityChanged }
        let signed = response.authenticatorData + Array(SHA256.hash(data: response.clientDataJSON))
        guard credential.publicKey.isValidSignature(response.signature, for: signed) else { throw .invalidSignature }
        let counter: SignCountCheck
        if data.signCount == 0 && credential.signCount == 0 {
            counter = .notKept
        } else if data.signCount > credential.signCount {
            counter = .advanced
        } else {
            counter = .regressed(stored: credential.signCount, received: data.signCount)
        }
        return VerifiedAssertion(flags: data.flags, signCount: data.signCount, counter: counter)
    }
}
