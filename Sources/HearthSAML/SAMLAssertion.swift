import Foundation

/// What a verified SAML response says about the person signing in: read only from the assertion the
/// verified signature covers (``SAMLServiceProvider/verifyResponse(_:expectedRequestID:now:replayGuard:)``).
public struct SAMLAssertion: Sendable, Equatable {
    /// The assertion's `ID` (used once: ``SAMLReplayGuard``).
    public let id: String
    /// The assertion's Issuer: the IdP's entity ID.
    public let issuer: String
    /// The subject's NameID, its whole text content (comments inside it do not cut it short).
    public let nameID: String
    /// The NameID's `Format` (`urn:oasis:names:tc:SAML:1.1:nameid-format:emailAddress`, …), if given.
    public let nameIDFormat: String?
    /// The AuthnStatement's `SessionIndex`, for a later logout.
    public let sessionIndex: String?
    /// The attributes: each `Attribute@Name` with its values' texts, in order. Several Attribute elements of one
    /// name add up.
    public let attributes: [String: [String]]
    /// When the assertion stops being acceptable: its earliest `NotOnOrAfter` (Conditions, bearer confirmation).
    public let notOnOrAfter: Date

    /// - Parameters: the fields, as read from a verified assertion.
    public init(
        id: String, issuer: String, nameID: String, nameIDFormat: String?, sessionIndex: String?, attributes: [String: [String]],
        notOnOrAfter: Date
    ) {
        self.id = id
        self.issuer = issuer
        self.nameID = nameID
        self.nameIDFormat = nameIDFormat
        self.sessionIndex = sessionIndex
        self.attributes = attributes
        self.notOnOrAfter = notOnOrAfter
    }
}
