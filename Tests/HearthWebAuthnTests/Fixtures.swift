import Crypto
import Foundation
import HearthBase64URL
import HearthWebAuthn

/// The relying party and the flag bits the tests share.
enum Fixture {
    static let rpID = "example.com"
    static let origin = "https://example.com"
    static let party = RelyingParty(id: rpID, origins: [origin, "http://localhost:9099"])

    static let userPresent = 0x01
    static let userVerified = 0x04
    static let backupEligible = 0x08
    static let backedUp = 0x10
    static let attested = 0x40

    /// A fresh challenge.
    static func challenge() -> [UInt8] {
        Array(SymmetricKey(size: .bits256).withUnsafeBytes { Data($0) })
    }

    /// A registration spec for `challenge`, with `changes` laid over the defaults.
    static func spec(_ challenge: [UInt8], _ changes: [String: any Sendable] = [:]) -> [String: any Sendable] {
        var spec: [String: any Sendable] = ["rpId": rpID, "origin": origin, "challenge": Base64URL.encode(challenge)]
        spec.merge(changes) { $1 }
        return spec
    }

    /// A registration by the software authenticator, and its verification's outcome.
    static func register(
        _ changes: [String: any Sendable] = [:],
        party: RelyingParty = party,
        challenge issued: [UInt8]? = nil
    ) async throws -> (SoftwareAuthenticator.Registration, Result<VerifiedRegistration, WebAuthnError>) {
        let challenge = issued ?? Self.challenge()
        let registration = try SoftwareAuthenticator.register(spec(challenge, changes))
        let response = RegistrationResponse(clientDataJSON: registration.clientDataJSON, attestationObject: registration.attestationObject)
        do {
            return (registration, .success(try await party.verifyRegistration(response, challenge: challenge, now: Date())))
        } catch {
            return (registration, .failure(error))
        }
    }

    /// The refusal of a registration made with `changes`, nil when it was accepted.
    static func registrationRefusal(_ changes: [String: any Sendable], party: RelyingParty = party) async throws -> WebAuthnError? {
        if case .failure(let error) = try await register(changes, party: party).1 { return error }
        return nil
    }
}
