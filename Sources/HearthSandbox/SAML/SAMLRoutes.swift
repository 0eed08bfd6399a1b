import Foundation
import HTTPTypes
import Hummingbird
import Logging

/// The sandbox SAML IdP's endpoints under `saml/`: `sso` (HTTP-Redirect binding in, HTTP-POST binding out) and
/// `metadata` (its EntityDescriptor, with the signing certificate).
///
/// `sso` takes `SAMLRequest` and `RelayState` as the binding sends them, and signs in the first of
/// ``Sandbox/samlUsers()`` at once (no page to choose; `subject=<NameID>`, a sandbox extension, picks another). The
/// answer is an HTML page whose form posts `SAMLResponse` and `RelayState` to the request's
/// AssertionConsumerServiceURL by itself. Any SP is served: the sandbox keeps no list of registered SPs, and does
/// not check a signed request's signature.
struct SAMLRoutes: Sendable {
    let sandbox: Sandbox

    func add<Context: RequestContext>(to router: RouterGroup<Context>) {
        router.get("sso") { request, _ in self.singleSignOn(request) }
        router.get("metadata") { _, _ in self.metadata() }
    }

    func singleSignOn(_ request: Request) -> Response {
        let query = SandboxHTTP.query(request)
        guard let value = query["SAMLRequest"] else { return SandboxHTTP.text("SAMLRequest is missing", status: .badRequest) }
        let authnRequest: SandboxSAMLRequest
        do {
            authnRequest = try SandboxSAMLRequest(redirectValue: value)
        } catch {
            sandbox.logger.info("saml sso refused a request", metadata: ["reason": "\(error)"])
            return SandboxHTTP.text("\(error)", status: .badRequest)
        }
        let users = sandbox.samlUsers()
        guard let user = query["subject"].map({ subject in users.first { $0.nameID == subject } }) ?? users.first else {
            return SandboxHTTP.text("no SAML user \(query["subject"] ?? "") in the sandbox", status: .badRequest)
        }
        sandbox.rememberSAMLRequest(authnRequest)
        let xml: String
        do {
            xml = try sandbox.samlResponse(
                for: user, audience: authnRequest.issuer, acsURL: authnRequest.assertionConsumerServiceURL, inResponseTo: authnRequest.id)
        } catch {
            sandbox.logger.error("saml sso could not sign", metadata: ["reason": "\(error)"])
            return SandboxHTTP.text("\(error)", status: .internalServerError)
        }
        let e = SandboxSAMLXML.escaped
        var fields = "<input type=\"hidden\" name=\"SAMLResponse\" value=\"\(Data(xml.utf8).base64EncodedString())\">"
        if let relayState = query["RelayState"] { fields += "<input type=\"hidden\" name=\"RelayState\" value=\"\(e(relayState))\">" }
        let page =
            "<!DOCTYPE html><html><head><meta charset=\"utf-8\"><title>Hearth sandbox SAML IdP</title></head>"
            + "<body onload=\"document.forms[0].submit()\"><p>Signing in as \(e(user.nameID))…</p>"
            + "<form method=\"post\" action=\"\(e(authnRequest.assertionConsumerServiceURL))\">\(fields)"
            + "<noscript><button type=\"submit\">Continue</button></noscript></form></body></html>"
        return SandboxHTTP.text(page, status: .ok, contentType: "text/html; charset=utf-8")
    }

    func metadata() -> Response {
        guard let pem = try? sandbox.samlCertificatePEM() else { return SandboxHTTP.text("no key", status: .internalServerError) }
        let certificate = pem.split(separator: "\n").filter { !$0.hasPrefix("-----") }.joined()
        let e = SandboxSAMLXML.escaped
        let xml =
            "<md:EntityDescriptor xmlns:md=\"urn:oasis:names:tc:SAML:2.0:metadata\" xmlns:ds=\"http://www.w3.org/2000/09/xmldsig#\""
            + " entityID=\"\(e(sandbox.samlEntityID))\">"
            + "<md:IDPSSODescriptor WantAuthnRequestsSigned=\"false\" protocolSupportEnumeration=\"urn:oasis:names:tc:SAML:2.0:protocol\">"
            + "<md:KeyDescriptor use=\"signing\"><ds:KeyInfo><ds:X509Data><ds:X509Certificate>\(certificate)</ds:X509Certificate>"
            + "</ds:X509Data></ds:KeyInfo></md:KeyDescriptor>"
            + "<md:NameIDFormat>urn:oasis:names:tc:SAML:1.1:nameid-format:emailAddress</md:NameIDFormat>"
            + "<md:SingleSignOnService Binding=\"urn:oasis:names:tc:SAML:2.0:bindings:HTTP-Redirect\" Location=\"\(e(sandbox.samlSSOURL))\"/>"
            + "</md:IDPSSODescriptor></md:EntityDescriptor>"
        return SandboxHTTP.text(xml, status: .ok, contentType: "application/samlmetadata+xml")
    }
}
