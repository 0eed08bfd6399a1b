import Foundation
import HearthSAML
import Testing

/// One service provider, its IdP and a response spec for scripts/saml-idp.py, with every value right: each
/// test changes one thing.
struct SAMLFixture {
    static let spEntityID = "https://auth.example.com/saml"
    static let callbackURL = "https://auth.example.com/__/auth/handler"
    static let idpEntityID = "https://idp.example.com/metadata"
    static let requestID = "_request-7f3c"
    /// The tests' time: responses are issued at it, and checked at it unless a test says otherwise.
    static let now = Date(timeIntervalSince1970: 1_800_000_000)

    let keys: PythonIdP.Keys
    var provider: SAMLServiceProvider
    var spec: [String: any Sendable]

    init() throws {
        keys = try PythonIdP.keys.get()
        provider = SAMLServiceProvider(
            entityID: Self.spEntityID, callbackURL: Self.callbackURL, idpEntityID: Self.idpEntityID,
            ssoURL: "https://idp.example.com/sso", idpCertificates: [try SAMLCertificate(keys.certificatePEM("idp"))],
            decryptionKey: try SAMLPrivateKey(pem: keys.keyPEM("sp")))
        let now = Int(Self.now.timeIntervalSince1970)
        spec = [
            "issuer": Self.idpEntityID, "destination": Self.callbackURL, "recipient": Self.callbackURL, "audience": [Self.spEntityID],
            "inResponseTo": Self.requestID, "nameID": "ada@corp.example",
            "nameIDFormat": "urn:oasis:names:tc:SAML:1.1:nameid-format:emailAddress", "sessionIndex": "_session-1",
            "attributes": ["email": ["ada@corp.example"], "groups": ["engineering", "admins"], "displayName": ["Ada Lovelace"]],
            "issueInstant": now, "notBefore": now - 60, "notOnOrAfter": now + 300, "confirmationNotOnOrAfter": now + 300,
            "responseID": "_response-\(UUID().uuidString)", "assertionID": "_assertion-\(UUID().uuidString)", "sign": ["assertion"],
            "key": keys.key("idp"), "cert": keys.certificate("idp"),
        ]
    }

    /// The spec with `changes` laid over it.
    func spec(_ changes: [String: any Sendable]) -> [String: any Sendable] {
        spec.merging(changes) { $1 }
    }

    /// A Response of the script's, from the spec with `changes`.
    func response(_ changes: [String: any Sendable] = [:]) throws -> String {
        try PythonIdP.response(spec(changes))
    }

    /// `xml` as the IdP posts it: base64.
    static func posted(_ xml: String) -> String { Data(xml.utf8).base64EncodedString() }

    /// HearthSAML's verdict on `xml`, without the replay check.
    func check(_ xml: String, expectedRequestID: String? = SAMLFixture.requestID, at now: Date = SAMLFixture.now) throws(SAMLError)
        -> SAMLAssertion
    {
        try provider.checkResponse(Self.posted(xml), expectedRequestID: expectedRequestID, now: now)
    }

    /// The refusal of `xml`; records an issue when it is accepted.
    func refusal(
        _ xml: String, expectedRequestID: String? = SAMLFixture.requestID, at now: Date = SAMLFixture.now,
        sourceLocation: SourceLocation = #_sourceLocation
    ) -> SAMLError? {
        do {
            let assertion = try check(xml, expectedRequestID: expectedRequestID, at: now)
            Issue.record("accepted, with NameID \(assertion.nameID)", sourceLocation: sourceLocation)
            return nil
        } catch {
            return error
        }
    }
}
