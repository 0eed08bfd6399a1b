import Foundation
import HearthFormEncoding
import HearthSandbox

/// The fixtures of the ``Scenario/saml`` and ``Scenario/tenantSignup`` scenarios: a SAML provider whose IdP is the
/// sandbox's (its responses signed here, with the sandbox's key, by libxmlsec1), and a tenant.
extension FixtureFactory {
    /// A tenant with anonymous sign-up on; returns its id.
    func tenant() async throws -> String {
        struct Created: Decodable { let tenantId: String }
        let created = try await answers(
            "creating a tenant",
            [
                PreparedRequest(
                    path: "/v2/projects/\(AdminBenchmark.projectID)/tenants", json: #"{"displayName":"bench","enableAnonymousUser":true}"#,
                    hostHeader: driver.hostHeader, authorization: AdminBenchmark.authorization)
            ], as: Created.self)
        guard let tenantID = created.first?.tenantId else { throw BenchmarkError("creating a tenant: no tenantId") }
        return tenantID
    }

    /// `count` SAML sign-ins ready to post: the provider ``Scenario/samlProviderID`` created with the sandbox IdP's
    /// certificate, an AuthnRequest started for each (`createAuthUri`, each with its own session), and each answered
    /// by a signed Response (Response and Assertion signed) for one of `users` people in turn. Returns the
    /// `signInWithIdp` requests and the seconds spent signing.
    func samlSignIns(count: Int, users: Int) async throws -> (requests: [PreparedRequest], signingSeconds: Double) {
        let sandbox = Sandbox(baseURL: "https://idp.bench.invalid")
        let certificate = try sandbox.samlCertificatePEM()
        let config: [String: Any] = [
            "displayName": "Bench", "enabled": true,
            "idpConfig": [
                "idpEntityId": sandbox.samlEntityID, "ssoUrl": sandbox.samlSSOURL, "signRequest": false,
                "idpCertificates": [["x509Certificate": certificate]],
            ],
            "spConfig": ["spEntityId": Scenario.samlEntityID],
        ]
        _ = try await answers(
            "creating the SAML provider",
            [
                PreparedRequest(
                    path: "/v2/projects/\(AdminBenchmark.projectID)/inboundSamlConfigs?inboundSamlConfigId=\(Scenario.samlProviderID)",
                    json: String(decoding: try JSONSerialization.data(withJSONObject: config), as: UTF8.self), hostHeader: driver.hostHeader,
                    authorization: AdminBenchmark.authorization)
            ])
        struct Started: Decodable { let authUri: String }
        let sessionIDs = (0..<count).map { "bench-saml-\($0)" }
        let started = try await answers(
            "starting SAML sign-ins (createAuthUri)",
            sessionIDs.map {
                PreparedRequest(
                    path: "/v1/accounts:createAuthUri?key=bench",
                    json: #"{"providerId":"\#(Scenario.samlProviderID)","continueUri":"http://localhost/done","sessionId":"\#($0)"}"#,
                    hostHeader: driver.hostHeader)
            }, as: Started.self)
        let people = (0..<max(1, users)).map { index in
            SandboxSAMLUser(
                nameID: "person-\(index)@saml.bench.test", attributes: ["email": ["person-\(index)@saml.bench.test"], "groups": ["bench"]])
        }
        let signing = ContinuousClock.now
        var requests: [PreparedRequest] = []
        requests.reserveCapacity(count)
        for (index, answer) in started.enumerated() {
            guard let query = URLComponents(string: answer.authUri)?.queryItems,
                let samlRequest = query.first(where: { $0.name == "SAMLRequest" })?.value,
                let relayState = query.first(where: { $0.name == "RelayState" })?.value
            else { throw BenchmarkError("createAuthUri answered no SAMLRequest and RelayState: \(answer.authUri.prefix(200))") }
            let request = try SandboxSAMLRequest(redirectValue: samlRequest)
            let response = try sandbox.samlResponse(
                for: people[index % people.count], audience: request.issuer, acsURL: request.assertionConsumerServiceURL,
                inResponseTo: request.id, lifetime: 3_600)
            let postBody =
                "SAMLResponse=\(FormEncoding.percentEncode(Data(response.utf8).base64EncodedString()))&RelayState=\(FormEncoding.percentEncode(relayState))"
            requests.append(
                PreparedRequest(
                    path: Scenario.saml.path,
                    json:
                        #"{"requestUri":"\#(request.assertionConsumerServiceURL.jsonEscaped)","sessionId":"\#(sessionIDs[index])","returnSecureToken":true,"postBody":"\#(postBody.jsonEscaped)"}"#,
                    hostHeader: driver.hostHeader))
        }
        let elapsed = signing.duration(to: .now)
        return (requests, Double(elapsed.components.seconds) + Double(elapsed.components.attoseconds) / 1e18)
    }

}
