import Foundation

/// The SAML 2.0 identity provider of the sandbox, served at `<baseURL>/saml/`: an SSO endpoint for the
/// HTTP-Redirect binding that answers with an auto-posting form carrying a signed `SAMLResponse` (and the
/// `RelayState`) to the request's Assertion Consumer Service URL, and its metadata. It signs with a key and a
/// self-signed certificate of its own (``samlCertificatePEM()``, what an `inboundSamlConfig` pins), through
/// libxmlsec1 (RSA-SHA256, exclusive canonicalisation), the Assertion and the Response both by default.
///
/// ```swift
/// let config = (idpEntityId: sandbox.samlEntityID, ssoUrl: sandbox.samlSSOURL, x509Certificate: try sandbox.samlCertificatePEM())
/// let xml = try sandbox.samlResponse(for: SandboxSAMLUser.presets[0], audience: "https://sp", acsURL: "https://sp/acs", inResponseTo: id)
/// ```
extension Sandbox {
    /// The IdP's entity ID: `<baseURL>/saml`.
    public var samlEntityID: String { "\(baseURL)/saml" }

    /// The SSO URL (HTTP-Redirect binding): `<baseURL>/saml/sso`.
    public var samlSSOURL: String { "\(baseURL)/saml/sso" }

    /// The IdP's metadata document: `<baseURL>/saml/metadata`.
    public var samlMetadataURL: String { "\(baseURL)/saml/metadata" }

    /// The IdP's signing certificate, PEM (made with its key on first use).
    public func samlCertificatePEM() throws -> String {
        let now = self.now
        return try withState { state throws in try state.saml.signingKey(now: now).certificatePEM }
    }

    /// The people the IdP signs in, the first one by default.
    public func samlUsers() -> [SandboxSAMLUser] {
        withState { $0.saml.users }
    }

    /// Adds a person, or replaces the one with the same NameID.
    public func addSAMLUser(_ user: SandboxSAMLUser) {
        withState { state in
            state.saml.users.removeAll { $0.nameID == user.nameID }
            state.saml.users.append(user)
        }
    }

    /// Chooses what the IdP signs: the Assertion, the Response, or both (the default). Neither makes unsigned
    /// responses, for a relying party's tests.
    public func setSAMLSigning(assertion: Bool, response: Bool) {
        withState { state in
            state.saml.signsAssertion = assertion
            state.saml.signsResponse = response
        }
    }

    /// The last AuthnRequest the SSO endpoint accepted.
    public func lastSAMLRequest() -> SandboxSAMLRequest? {
        withState { $0.saml.lastRequest }
    }

    /// A signed Response asserting `user` to the SP `audience`, for its ACS URL, as the SSO endpoint posts it.
    /// - Parameters:
    ///   - user: the person signed in.
    ///   - audience: the SP's entity ID (the AuthnRequest's Issuer).
    ///   - acsURL: the Assertion Consumer Service URL: Destination and Recipient.
    ///   - inResponseTo: the AuthnRequest's ID; `nil` for an IdP-initiated response.
    ///   - lifetime: how long the assertion is valid, 5 minutes by default.
    /// - Returns: the Response's XML (base64 it for the `SAMLResponse` form field).
    public func samlResponse(
        for user: SandboxSAMLUser, audience: String, acsURL: String, inResponseTo: String?, lifetime: TimeInterval = 300
    ) throws -> String {
        let now = self.now
        let (key, signsAssertion, signsResponse) = try withState { state throws in
            (try state.saml.signingKey(now: now), state.saml.signsAssertion, state.saml.signsResponse)
        }
        let content = SandboxSAMLSigner.Content(
            responseID: "_" + SandboxRandom.hex(bytes: 16), assertionID: "_" + SandboxRandom.hex(bytes: 16), issuer: samlEntityID,
            destination: acsURL, audience: audience, inResponseTo: inResponseTo, user: user,
            sessionIndex: "_" + SandboxRandom.hex(bytes: 8), now: now, lifetime: lifetime)
        return try SandboxSAMLSigner(key: key).response(content, signsAssertion: signsAssertion, signsResponse: signsResponse)
    }

    /// Remembers the AuthnRequest the SSO endpoint accepted.
    func rememberSAMLRequest(_ request: SandboxSAMLRequest) {
        withState { $0.saml.lastRequest = request }
    }
}
