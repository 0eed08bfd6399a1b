import Foundation

/// One SAML 2.0 service provider and the identity provider it trusts: the settings of one
/// `inboundSamlConfigs/saml.*` provider, and what they do (``authenticationRequest(relayState:now:)`` starts
/// a sign-in, ``verifyResponse(_:expectedRequestID:now:replayGuard:)`` finishes it).
///
/// ```swift
/// let provider = SAMLServiceProvider(
///     entityID: "https://auth.example.com", callbackURL: "https://auth.example.com/__/auth/handler",
///     idpEntityID: "https://idp.example.com", ssoURL: "https://idp.example.com/sso",
///     idpCertificates: [try SAMLCertificate(pem)])
/// let request = try provider.authenticationRequest(relayState: sessionID, now: Date())
/// // redirect the browser to request.url; remember request.id with the browser's session
/// let assertion = try await provider.verifyResponse(samlResponse, expectedRequestID: request.id, now: Date(), replayGuard: guard)
/// ```
///
/// Nothing here speaks HTTP or stores anything: the caller binds the request ID to the browser's session and
/// gives a ``SAMLReplayGuard`` over shared storage. Parsing, canonicalisation, XML-DSig and XML Encryption are
/// libxml2's and libxmlsec1's (docs/saml.md says why and lists every rule).
public struct SAMLServiceProvider: Sendable {
    /// The SP's entity ID (`spConfig.spEntityId`): the AuthnRequest's Issuer, the Audience an assertion must name.
    public var entityID: String
    /// The Assertion Consumer Service URL (`spConfig.callbackUri`): where the IdP posts its response, the
    /// Response's `Destination` and the bearer confirmation's `Recipient`.
    public var callbackURL: String
    /// The IdP's entity ID (`idpConfig.idpEntityId`): the Issuer of its responses and assertions.
    public var idpEntityID: String
    /// The IdP's single sign-on URL for the HTTP-Redirect binding (`idpConfig.ssoUrl`).
    public var ssoURL: String
    /// The certificates whose keys may sign responses (`idpConfig.idpCertificates`); several during a rollover.
    public var idpCertificates: [SAMLCertificate]
    /// Whether AuthnRequests are signed (`idpConfig.signRequest`); needs ``signingKey``.
    public var signsRequests: Bool
    /// The SP's key that signs AuthnRequests (RSA-SHA256 over the Redirect binding's query).
    public var signingKey: SAMLPrivateKey?
    /// The SP's key EncryptedAssertions are encrypted to; without it an encrypted assertion is refused.
    public var decryptionKey: SAMLPrivateKey?
    /// How far the IdP's clock may be from ours for `NotBefore` and `NotOnOrAfter`; 2 minutes by default.
    public var allowedClockSkew: TimeInterval
    /// Whether a response that answers no request (IdP-initiated: no `InResponseTo`) may sign in. Off by
    /// default: such a response cannot be bound to the browser that receives it.
    public var allowsUnsolicitedResponses: Bool
    /// The longest decoded response accepted, in bytes; 512 KiB by default.
    public var maximumResponseSize: Int

    /// - Parameters:
    ///   - entityID: the SP's entity ID.
    ///   - callbackURL: the Assertion Consumer Service URL.
    ///   - idpEntityID: the IdP's entity ID.
    ///   - ssoURL: the IdP's single sign-on URL (HTTP-Redirect binding).
    ///   - idpCertificates: the IdP's signing certificates.
    ///   - signsRequests: whether AuthnRequests are signed, with `signingKey`.
    ///   - signingKey: the SP's request-signing key.
    ///   - decryptionKey: the SP's key for EncryptedAssertions.
    ///   - allowedClockSkew: the clock skew allowed, in seconds.
    ///   - allowsUnsolicitedResponses: whether IdP-initiated responses are accepted.
    public init(
        entityID: String, callbackURL: String, idpEntityID: String, ssoURL: String, idpCertificates: [SAMLCertificate],
        signsRequests: Bool = false, signingKey: SAMLPrivateKey? = nil, decryptionKey: SAMLPrivateKey? = nil,
        allowedClockSkew: TimeInterval = 120, allowsUnsolicitedResponses: Bool = false
    ) {
        self.entityID = entityID
        self.callbackURL = callbackURL
        self.idpEntityID = idpEntityID
        self.ssoURL = ssoURL
        self.idpCertificates = idpCertificates
        self.signsRequests = signsRequests
        self.signingKey = signingKey
        self.decryptionKey = decryptionKey
        self.allowedClockSkew = allowedClockSkew
        self.allowsUnsolicitedResponses = allowsUnsolicitedResponses
        self.maximumResponseSize = 512 * 1024
    }
}
