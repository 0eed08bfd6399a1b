import Foundation
import HearthCore
import HearthSAML
import HearthSandbox
import HearthStorage
import HearthTesting
import Testing

/// The store's shared counters are what a SAML sign-in's replay check writes to (the server wraps them the same
/// way), so an assertion taken once by any replica of one database is refused by all of them.
extension SQLStore: SAMLReplayGuard {}

@Suite("SAML replay check in the database")
struct SAMLReplayTests {
    @Test("An assertion verified once is refused the second time, by the database's counters (on either backend)")
    func secondUseRefused() async throws {
        try await withLiveHearth { live in
            let handler = live.baseURL + "/__/auth/handler"
            let provider = SAMLServiceProvider(
                entityID: "https://hearth.example/sp", callbackURL: handler, idpEntityID: live.sandbox.samlEntityID,
                ssoURL: live.sandbox.samlSSOURL, idpCertificates: [try SAMLCertificate(try live.sandbox.samlCertificatePEM())])
            let xml = try live.sandbox.samlResponse(
                for: SandboxSAMLUser.presets[0], audience: "https://hearth.example/sp", acsURL: handler, inResponseTo: "_request-1")
            let posted = Data(xml.utf8).base64EncodedString()
            let first = try await provider.verifyResponse(
                posted, expectedRequestID: "_request-1", now: live.clock.now, replayGuard: live.services.database)
            #expect(first.nameID == SandboxSAMLUser.presets[0].nameID)
            await #expect(throws: SAMLError.replayed(first.id)) {
                try await provider.verifyResponse(posted, expectedRequestID: "_request-1", now: live.clock.now, replayGuard: live.services.database)
            }
        }
    }
}
