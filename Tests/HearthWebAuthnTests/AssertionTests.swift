import HearthWebAuthn
import Testing

/// Assertions (WebAuthn Level 3 §7.2) by credentials the software authenticator registered: accepted for every
/// algorithm, the counter's regression reported, and refused once per rule.
@Suite struct AssertionTests {
    /// A credential of `alg` registered (with attestation none) and its stored side.
    func enrolled(_ alg: String = "ES256") async throws -> (SoftwareAuthenticator.Registration, RegisteredCredential) {
        let (registration, result) = try await Fixture.register(["alg": alg])
        let verified = try result.get()
        let stored = RegisteredCredential(
            publicKey: try COSEPublicKey(encoded: verified.publicKey.encoded),
            signCount: verified.signCount,
            backupEligible: verified.flags.contains(.backupEligible)
        )
        return (registration, stored)
    }

    /// The outcome of an assertion by `registration` made with `changes`, checked against `stored`.
    func verify(
        _ registration: SoftwareAuthenticator.Registration,
        _ stored: RegisteredCredential,
        _ changes: [String: any Sendable] = [:],
        party: RelyingParty = Fixture.party,
        tamper: (inout AssertionResponse) -> Void = { _ in }
    ) throws -> Result<VerifiedAssertion, WebAuthnError> {
        let challenge = Fixture.challenge()
        let assertion = try SoftwareAuthenticator.assert(registration, Fixture.spec(challenge, changes))
        var response = AssertionResponse(
            clientDataJSON: assertion.clientDataJSON,
            authenticatorData: assertion.authenticatorData,
            signature: assertion.signature
        )
        tamper(&response)
        do { return .success(try party.verifyAssertion(response, challenge: challenge, credential: stored)) } catch { return .failure(error) }
    }

    func refusal(_ result: Result<VerifiedAssertion, WebAuthnError>) -> WebAuthnError? {
        if case .failure(let error) = result { return error }
        return nil
    }

    @Test(arguments: ["ES256", "RS256", "EdDSA"])
    func acceptsEveryAlgorithm(alg: String) async throws {
        let (registration, stored) = try await enrolled(alg)
        let verified = try verify(registration, stored, ["signCount": 5]).get()
        #expect(verified.signCount == 5)
        #expect(verified.counter == .advanced)
        #expect(verified.flags.contains([.userPresent, .userVerified]))
        // Synced passkeys keep no counter: zero and zero is no regression.
        #expect(try verify(registration, stored).get().counter == .notKept)
    }

    @Test func aCounterThatDoesNotAdvanceIsReportedAsACloneSign() async throws {
        var (registration, stored) = try await enrolled()
        stored.signCount = 10
        #expect(try verify(registration, stored, ["signCount": 10]).get().counter == .regressed(stored: 10, received: 10))
        #expect(try verify(registration, stored, ["signCount": 3]).get().counter == .regressed(stored: 10, received: 3))
        #expect(try verify(registration, stored, ["signCount": 0]).get().counter == .regressed(stored: 10, received: 0))
        #expect(try verify(registration, stored, ["signCount": 11]).get().counter == .advanced)
    }

    @Test func anotherChallengeIsRefused() async throws {
        let (registration, stored) = try await enrolled()
        let assertion = try SoftwareAuthenticator.assert(registration, Fixture.spec(Fixture.challenge()))
        let response = AssertionResponse(
            clientDataJSON: assertion.clientDataJSON, authenticatorData: assertion.authenticatorData, signature: assertion.signature)
        #expect(throws: WebAuthnError.challengeMismatch) {
            try Fixture.party.verifyAssertion(response, challenge: Fixture.challenge(), credential: stored)
        }
    }

    @Test func aRegistrationsTypeIsRefused() async throws {
        let (registration, stored) = try await enrolled()
        #expect(
            refusal(try verify(registration, stored, ["type": "webauthn.create"]))
                == .wrongCeremonyType(expected: "webauthn.get", got: "webauthn.create"))
    }

    @Test func anotherOriginOrACrossOriginCallIsRefused() async throws {
        let (registration, stored) = try await enrolled()
        #expect(refusal(try verify(registration, stored, ["origin": "https://evil.test"])) == .originNotAllowed("https://evil.test"))
        #expect(refusal(try verify(registration, stored, ["crossOrigin": true])) == .crossOrigin)
    }

    @Test func anotherRPIDsHashIsRefused() async throws {
        let (registration, stored) = try await enrolled()
        #expect(refusal(try verify(registration, stored, ["clientRpId": "evil.test"])) == .rpIDHashMismatch)
    }

    @Test func userPresenceIsRequired() async throws {
        let (registration, stored) = try await enrolled()
        let flags = Fixture.userVerified | Fixture.backupEligible
        #expect(refusal(try verify(registration, stored, ["flags": flags])) == .userNotPresent)
    }

    @Test func userVerificationIsRequiredWhenConfigured() async throws {
        let (registration, stored) = try await enrolled()
        var party = Fixture.party
        party.requiresUserVerification = true
        let flags = Fixture.userPresent | Fixture.backupEligible
        #expect(refusal(try verify(registration, stored, ["flags": flags], party: party)) == .userNotVerified)
        #expect(refusal(try verify(registration, stored, ["flags": flags])) == nil)
    }

    @Test func aChangedBackupEligibilityIsRefused() async throws {
        let (registration, stored) = try await enrolled()
        let error = refusal(try verify(registration, stored, ["flags": Fixture.userPresent | Fixture.userVerified]))
        #expect(error == .backupEligibilityChanged)
        #expect(error?.description == "the backup-eligible flag differs from the registered credential's")
    }

    @Test func theAttestedDataFlagIsRefused() async throws {
        let (registration, stored) = try await enrolled()
        let flags = Fixture.userPresent | Fixture.backupEligible | Fixture.attested
        #expect(refusal(try verify(registration, stored, ["flags": flags])) == .malformedAuthenticatorData("attested credential data is truncated"))
    }

    @Test(arguments: ["ES256", "RS256", "EdDSA"])
    func aTamperedSignatureOrSignedDataIsRefused(alg: String) async throws {
        let (registration, stored) = try await enrolled(alg)
        let signature = try verify(registration, stored) { $0.signature[$0.signature.count - 1] ^= 1 }
        #expect(refusal(signature) == .invalidSignature)
        // The counter raised after signing.
        let counter = try verify(registration, stored) { $0.authenticatorData[36] ^= 1 }
        #expect(refusal(counter) == .invalidSignature)
        #expect(refusal(try verify(registration, stored) { $0.signature = [] }) == .invalidSignature)
    }

    @Test func anotherCredentialsSignatureIsRefused() async throws {
        let (registration, _) = try await enrolled()
        let (_, other) = try await enrolled()
        #expect(refusal(try verify(registration, other)) == .invalidSignature)
    }

    @Test func truncatedOrOverlongAuthenticatorDataIsRefused() async throws {
        let (registration, stored) = try await enrolled()
        #expect(
            refusal(try verify(registration, stored) { $0.authenticatorData.removeLast() }) == .malformedAuthenticatorData("shorter than 37 bytes"))
        #expect(refusal(try verify(registration, stored) { $0.authenticatorData.append(0) }) == .malformedAuthenticatorData("bytes left over"))
    }
}
