import Foundation
import HearthBase64URL
import HearthWebAuthn
import Testing

/// Registrations (WebAuthn Level 3 §7.1) made by the independent software authenticator: accepted for every
/// algorithm and attestation, and refused once per rule.
@Suite struct RegistrationTests {
    @Test(arguments: ["ES256", "RS256", "EdDSA"], ["none", "packed-self", "packed-x5c"])
    func acceptsEveryAlgorithmAndAttestation(alg: String, attestation: String) async throws {
        let (registration, result) = try await Fixture.register(["alg": alg, "attestation": attestation])
        let verified = try result.get()
        #expect(verified.credentialID == registration.credentialID)
        #expect(verified.publicKey.algorithm == ["ES256": .es256, "RS256": .rs256, "EdDSA": .edDSA][alg])
        #expect(verified.flags.contains([.userPresent, .userVerified, .backupEligible, .backedUp]))
        let expected: AttestationKind = ["none": .none, "packed-self": .selfAttestation, "packed-x5c": .basic(trusted: false)][attestation]!
        #expect(verified.attestation == expected)
        // What a store keeps reads back as the same key.
        #expect(try COSEPublicKey(encoded: verified.publicKey.encoded).algorithm == verified.publicKey.algorithm)
    }

    @Test func x5cChainingToAConfiguredAnchorIsTrusted() async throws {
        var party = Fixture.party
        party.trustAnchors = [try SoftwareAuthenticator.certificate("ca")]
        party.requiresTrustedAttestation = true
        let verified = try await Fixture.register(["attestation": "packed-x5c"], party: party).1.get()
        #expect(verified.attestation == .basic(trusted: true))
    }

    @Test func x5cNotChainingToTheAnchorsIsRefused() async throws {
        var party = Fixture.party
        party.trustAnchors = [try SoftwareAuthenticator.certificate("other")]
        #expect(try await Fixture.registrationRefusal(["attestation": "packed-x5c"], party: party) == .untrustedAttestation)
        #expect(WebAuthnError.untrustedAttestation.description == "attestation certificate does not chain to a trust anchor")
    }

    @Test func untrustedAttestationIsRefusedWhenTrustIsRequired() async throws {
        var party = Fixture.party
        party.trustAnchors = [try SoftwareAuthenticator.certificate("ca")]
        party.requiresTrustedAttestation = true
        #expect(try await Fixture.registrationRefusal(["attestation": "none"], party: party) == .untrustedAttestation)
        #expect(try await Fixture.registrationRefusal(["attestation": "packed-self"], party: party) == .untrustedAttestation)
    }

    @Test func anotherChallengeIsRefused() async throws {
        let issued = Fixture.challenge()
        let registration = try SoftwareAuthenticator.register(Fixture.spec(Fixture.challenge()))
        let response = RegistrationResponse(clientDataJSON: registration.clientDataJSON, attestationObject: registration.attestationObject)
        await #expect(throws: WebAuthnError.challengeMismatch) {
            try await Fixture.party.verifyRegistration(response, challenge: issued, now: Date())
        }
        #expect(try await Fixture.registrationRefusal(["challenge": "not base64url!"]) == .challengeMismatch)
        #expect(WebAuthnError.challengeMismatch.description == "clientDataJSON challenge is not the one issued")
    }

    @Test func anAssertionsTypeIsRefused() async throws {
        let error = try await Fixture.registrationRefusal(["type": "webauthn.get"])
        #expect(error == .wrongCeremonyType(expected: "webauthn.create", got: "webauthn.get"))
        #expect(error?.description == "clientDataJSON type is \"webauthn.get\", expected webauthn.create")
    }

    @Test func anotherOriginIsRefused() async throws {
        let error = try await Fixture.registrationRefusal(["origin": "https://example.com.evil.test"])
        #expect(error == .originNotAllowed("https://example.com.evil.test"))
        #expect(error?.description == "origin \"https://example.com.evil.test\" is not an expected origin")
        // A subdomain, another scheme or port are other origins.
        #expect(try await Fixture.registrationRefusal(["origin": "https://login.example.com"]) == .originNotAllowed("https://login.example.com"))
        #expect(try await Fixture.registrationRefusal(["origin": "http://example.com"]) == .originNotAllowed("http://example.com"))
    }

    @Test func anyPortOriginTakesThatHostOnEveryPortAlone() async throws {
        let party = RelyingParty(id: "localhost", origins: ["http://localhost:*"])
        let local: [String: any Sendable] = ["rpId": "localhost"]
        for origin in ["http://localhost:9099", "http://localhost:1"] {
            let (_, result) = try await Fixture.register(local.merging(["origin": origin]) { $1 }, party: party)
            #expect((try? result.get()) != nil, "\(origin)")
        }
        for origin in [
            "http://localhost", "http://localhost:", "http://localhost:99999x", "http://localhost:123456", "http://localhost.evil.test:80",
        ] {
            let (_, result) = try await Fixture.register(local.merging(["origin": origin]) { $1 }, party: party)
            #expect(throws: WebAuthnError.originNotAllowed(origin)) { try result.get() }
        }
    }

    @Test func crossOriginCallsAreRefused() async throws {
        let error = try await Fixture.registrationRefusal(["crossOrigin": true, "topOrigin": "https://evil.test"])
        #expect(error == .crossOrigin)
        #expect(error?.description == "cross-origin ceremonies are not accepted")
    }

    @Test func anotherRPIDsHashIsRefused() async throws {
        let error = try await Fixture.registrationRefusal(["clientRpId": "evil.test"])
        #expect(error == .rpIDHashMismatch)
        #expect(error?.description == "rpIdHash is not the SHA-256 of the RP ID")
    }

    @Test func userPresenceIsRequired() async throws {
        let error = try await Fixture.registrationRefusal(["flags": Fixture.attested | Fixture.userVerified])
        #expect(error == .userNotPresent)
        #expect(error?.description == "the user-present flag is not set")
    }

    @Test func userVerificationIsRequiredWhenConfigured() async throws {
        var party = Fixture.party
        party.requiresUserVerification = true
        let flags = Fixture.attested | Fixture.userPresent
        let error = try await Fixture.registrationRefusal(["flags": flags], party: party)
        #expect(error == .userNotVerified)
        #expect(error?.description == "the user-verified flag is not set and user verification is required")
        // Presence alone is enough when it is not.
        #expect(try await Fixture.registrationRefusal(["flags": flags]) == nil)
    }

    @Test func backedUpWithoutBackupEligibilityIsRefused() async throws {
        let error = try await Fixture.registrationRefusal(["flags": Fixture.attested | Fixture.userPresent | Fixture.backedUp])
        #expect(error == .malformedAuthenticatorData("backed up but not backup eligible"))
        #expect(error?.description == "authenticatorData is malformed: backed up but not backup eligible")
    }

    @Test func attestedCredentialDataWithoutItsFlagIsRefused() async throws {
        let error = try await Fixture.registrationRefusal(["flags": Fixture.userPresent])
        #expect(error == .malformedAuthenticatorData("bytes left over"))
    }

    @Test func aCredentialIDLongerThan1023BytesIsRefused() async throws {
        let error = try await Fixture.registrationRefusal(["credentialIdLength": 1024])
        #expect(error == .malformedAuthenticatorData("credential id length 1024 is outside 1…1023"))
    }

    @Test func anAlgorithmNotOfferedIsRefused() async throws {
        var party = Fixture.party
        party.algorithms = [.es256]
        let error = try await Fixture.registrationRefusal(["alg": "EdDSA"], party: party)
        #expect(error == .algorithmNotAllowed(.edDSA))
        #expect(error?.description == "COSE algorithm -8 was not offered")
    }

    @Test func rsaKeysShorterThan2048BitsAreRefused() async throws {
        let error = try await Fixture.registrationRefusal(["alg": "RS256-1024"])
        #expect(error == .malformedPublicKey("RSA key is invalid or shorter than 2048 bits"))
    }

    @Test func noneWithAStatementIsRefused() async throws {
        let error = try await Fixture.registrationRefusal(["attestation": "none", "attStmtExtra": ["alg": -7]])
        #expect(error == .invalidAttestationStatement("none has an empty attStmt"))
        #expect(error?.description == "attestation statement is invalid: none has an empty attStmt")
    }

    @Test func otherAttestationFormatsAreRefused() async throws {
        let error = try await Fixture.registrationRefusal(["fmt": "fido-u2f"])
        #expect(error == .unsupportedAttestationFormat("fido-u2f"))
        #expect(error?.description == "attestation format \"fido-u2f\" is not supported")
    }

    @Test func selfAttestationUnderAnotherAlgorithmIsRefused() async throws {
        let error = try await Fixture.registrationRefusal(["attestation": "packed-self", "selfAlg": -257])
        #expect(error == .invalidAttestationStatement("self attestation alg differs from the credential's"))
    }

    @Test(arguments: ["packed-self", "packed-x5c"])
    func aCorruptAttestationSignatureIsRefused(attestation: String) async throws {
        let error = try await Fixture.registrationRefusal(["attestation": attestation, "corruptSignature": true])
        #expect(error == .invalidSignature)
        #expect(error?.description == "signature does not verify")
    }

    @Test func packedWithUnknownMembersIsRefused() async throws {
        let error = try await Fixture.registrationRefusal(["attestation": "packed-self", "attStmtExtra": ["ecdaaKeyId": [UInt8]()]])
        #expect(error == .invalidAttestationStatement("packed has unknown members"))
    }

    @Test func attestationCertificatesMustMeetPackedsRequirements() async throws {
        let unit = try await Fixture.registrationRefusal(["attestation": "packed-x5c", "leafOU": "Marketing"])
        #expect(unit == .invalidAttestationStatement("attestation certificate's subject OU is not \"Authenticator Attestation\""))
        let authority = try await Fixture.registrationRefusal(["attestation": "packed-x5c", "leafIsCA": true])
        #expect(authority == .invalidAttestationStatement("attestation certificate is a CA"))
        let aaguid = try await Fixture.registrationRefusal([
            "attestation": "packed-x5c", "aaguid": String(repeating: "11", count: 16), "leafAAGUID": String(repeating: "22", count: 16),
        ])
        #expect(aaguid == .invalidAttestationStatement("AAGUID extension differs from the authenticator data's"))
    }

    @Test func attestationObjectsWithDuplicateKeysOrTrailingBytesAreRefused() async throws {
        let challenge = Fixture.challenge()
        let registration = try SoftwareAuthenticator.register(Fixture.spec(challenge))
        #expect(registration.attestationObject.first == 0xA3)
        // The map made four pairs long, its last a second "fmt".
        let duplicated = [0xA4] + registration.attestationObject.dropFirst() + [0x63, 0x66, 0x6D, 0x74, 0x64, 0x6E, 0x6F, 0x6E, 0x65]
        let trailing = registration.attestationObject + [0x00]
        for (bytes, expected) in [(duplicated, "CBOR map has a key twice"), (trailing, "CBOR has bytes after its data item")] {
            let response = RegistrationResponse(clientDataJSON: registration.clientDataJSON, attestationObject: bytes)
            await #expect(throws: WebAuthnError.malformedAttestationObject(expected)) {
                try await Fixture.party.verifyRegistration(response, challenge: challenge, now: Date())
            }
        }
    }

    @Test func clientDataThatIsNotJSONOrTooLongIsRefused() async throws {
        let challenge = Fixture.challenge()
        let registration = try SoftwareAuthenticator.register(Fixture.spec(challenge))
        let cases: [([UInt8], WebAuthnError)] = [
            (Array("[1]".utf8), .malformedClientData("not a JSON object with type, challenge and origin")),
            (Array(#"{"type":1,"challenge":"","origin":""}"#.utf8), .malformedClientData("not a JSON object with type, challenge and origin")),
            (Array(repeating: 0x20, count: 4097), .malformedClientData("longer than 4096 bytes")),
        ]
        for (json, expected) in cases {
            let response = RegistrationResponse(clientDataJSON: json, attestationObject: registration.attestationObject)
            await #expect(throws: expected) { try await Fixture.party.verifyRegistration(response, challenge: challenge, now: Date()) }
        }
    }
}
