import Foundation
import HearthCore
import HearthSAML
import Logging

/// The browser sign-in of SAML providers: an AuthnRequest by the HTTP-Redirect binding whose `RelayState` is the
/// sign-in's state, and the response the IdP posts to the redirect handler, verified by HearthSAML.
extension AuthorizationFlows {
    /// The pending values a SAML start keeps: the AuthnRequest's ID (the response's `InResponseTo` must be it) and
    /// the Assertion Consumer Service URL it named.
    static let samlRequestIDKey = "saml_request_id"
    static let samlACSKey = "saml_acs"

    /// The name of the credential field that carries a verified SAML sign-in's profile (JSON), from the redirect
    /// handler to `signInWithIdp`. Only the server's own records hold it: `signInWithIdp` reads it from a browser
    /// sign-in's result, never from a credential an app sends.
    public static let samlProfileField = "saml_profile"

    /// The SAML service provider of `providerID` as the configuration has it, with `acs` as its callback URL.
    func samlServiceProvider(_ providerID: String, acs: String) throws -> SAMLServiceProvider {
        guard let saml = configuration.saml[String(providerID.dropFirst("saml.".count))], saml.isUsable else {
            throw AuthorizationFailure.refused("Unknown provider \(providerID).")
        }
        do {
            // The SP's one key (its certificate is `spConfig.spCertificates`) signs AuthnRequests and opens the
            // assertions an IdP encrypts to that certificate.
            let key = saml.spSigningKey.isEmpty ? nil : try SAMLPrivateKey(pem: saml.spSigningKey.value)
            return SAMLServiceProvider(
                entityID: saml.spEntityID, callbackURL: acs, idpEntityID: saml.idpEntityID, ssoURL: saml.ssoURL,
                idpCertificates: try saml.idpCertificates.map { try SAMLCertificate($0) }, signsRequests: saml.signsRequests,
                signingKey: key, decryptionKey: key, allowedClockSkew: max(configuration.clockSkew, 120))
        } catch {
            throw AuthorizationFailure.refused("The \(providerID) settings cannot be used: \(error)")
        }
    }

    /// The AuthnRequest to the IdP's SSO URL. Its `RelayState` is the sign-in's state; its callback URL is the
    /// provider's `spConfig.callbackUri`, else the redirect handler.
    func samlStart(_ request: AuthorizationRequest) throws -> AuthorizationStart {
        let saml = configuration.saml[String(request.providerID.dropFirst("saml.".count))]
        let acs = saml?.callbackURI ?? request.redirectURI.absoluteString
        let provider: SAMLServiceProvider
        do {
            provider = try samlServiceProvider(request.providerID, acs: acs)
        } catch {
            throw HearthError(.operationNotAllowed, reason: "\(request.providerID): \(error)")
        }
        let authnRequest: SAMLAuthenticationRequest
        do {
            authnRequest = try provider.authenticationRequest(relayState: request.state, now: clock.now)
        } catch {
            throw HearthError(.internalError, reason: "the \(request.providerID) AuthnRequest could not be made: \(error)")
        }
        guard let url = URL(string: authnRequest.url) else {
            throw HearthError(.invalidConfig, detail: "idpConfig.ssoUrl is not a URL")
        }
        return AuthorizationStart(url: url, pendingValues: [Self.samlRequestIDKey: authnRequest.id, Self.samlACSKey: acs])
    }

    /// Verifies the posted `SAMLResponse` against the request this sign-in made (``replayGuard`` refuses a second
    /// use of its assertion, on every replica) and returns the credential holding the verified profile.
    ///
    /// - Throws: ``AuthorizationFailure/invalidResponse(_:)`` with one message for every refusal (the reason goes to the log
    ///   only); the replay guard's own errors unchanged.
    func samlFinish(_ callback: AuthorizationCallback) async throws -> FederatedCredential {
        let providerID = callback.providerID
        guard let response = callback.fields["SAMLResponse"], !response.isEmpty else {
            throw AuthorizationFailure.invalidResponse("The SAML answer has no SAMLResponse.")
        }
        guard let requestID = callback.pending[Self.samlRequestIDKey], let acs = callback.pending[Self.samlACSKey] else {
            throw AuthorizationFailure.refused("The sign-in was not started for SAML.")
        }
        let provider = try samlServiceProvider(providerID, acs: acs)
        guard let replayGuard else { throw HearthError(.internalError, reason: "SAML sign-in needs a replay guard") }
        let assertion: SAMLAssertion
        do {
            assertion = try await provider.verifyResponse(
                response, expectedRequestID: requestID, now: clock.now, replayGuard: SAMLReplayGuardAdapter(base: replayGuard))
        } catch let error as SAMLError {
            logger.notice("SAML response refused", metadata: ["provider": "\(providerID)", "reason": "\(error)"])
            throw AuthorizationFailure.invalidResponse(Self.samlRefusal(error))
        }
        let profile = Self.samlProfile(assertion, providerID: providerID)
        let json = String(decoding: try JSONEncoder().encode(profile), as: UTF8.self)
        return FederatedCredential(providerID: providerID, providerFields: [Self.samlProfileField: json])
    }

    /// What the app is told of a refused response: its class, never the document's values.
    static func samlRefusal(_ error: SAMLError) -> String {
        switch error {
        case .replayed: "The SAML assertion was used before."
        case .expired, .notYetValid: "The SAML assertion is not valid at this time."
        case .wrongInResponseTo, .unsolicited: "The SAML response does not answer this sign-in's request."
        case .unsigned, .signatureInvalid, .signatureReference, .algorithmRefused:
            "The SAML response is not signed by the identity provider's certificate."
        case .wrongIssuer, .wrongAudience, .wrongDestination, .wrongRecipient: "The SAML response is not addressed to this service provider."
        case .status: "The identity provider did not sign the person in."
        default: "The SAML response is not valid."
        }
    }

    /// The profile of a verified assertion: the NameID is the user's id at the provider; e-mail and names come from
    /// the usual attribute names (Okta's, Entra ID's claim URIs, the LDAP OIDs), the e-mail else from an
    /// e-mail-shaped NameID. The attributes become `rawUserInfo` and `firebase.sign_in_attributes`.
    static func samlProfile(_ assertion: SAMLAssertion, providerID: String) -> FederatedProfile {
        func first(_ names: [String]) -> String? {
            for name in names {
                if let value = assertion.attributes.first(where: { $0.key.lowercased() == name.lowercased() })?.value.first, !value.isEmpty {
                    return value
                }
            }
            return nil
        }
        let claims = "http://schemas.xmlsoap.org/ws/2005/05/identity/claims/"
        var email = first(["email", "mail", "emailAddress", claims + "emailaddress", "urn:oid:0.9.2342.19200300.100.1.3"])
        if email == nil, assertion.nameIDFormat == "urn:oasis:names:tc:SAML:1.1:nameid-format:emailAddress" || assertion.nameID.contains("@") {
            email = assertion.nameID
        }
        let attributes = assertion.attributes.mapValues { values -> JSONValue in
            values.count == 1 ? .string(values[0]) : .array(values.map(JSONValue.string))
        }
        var profile = FederatedProfile(
            providerID: providerID, rawID: assertion.nameID, email: email?.lowercased(), emailVerified: false,
            displayName: first([
                "displayName", "name", "http://schemas.microsoft.com/identity/claims/displayname", "urn:oid:2.16.840.1.113730.3.1.241",
            ]),
            firstName: first(["firstName", "givenName", claims + "givenname", "urn:oid:2.5.4.42"]),
            lastName: first(["lastName", "surname", "sn", claims + "surname", "urn:oid:2.5.4.4"]), rawUserInfo: attributes)
        profile.signInAttributes = attributes
        return profile
    }
}

/// HearthCore's replay guard (the store's shared counters) as HearthSAML's: the two methods have one shape.
struct SAMLReplayGuardAdapter: SAMLReplayGuard {
    let base: any CredentialReplayGuard

    func recordFirstUse(of fingerprint: String, expiresAt: Date) async throws -> Bool {
        try await base.recordFirstUse(of: fingerprint, expiresAt: expiresAt)
    }
}
