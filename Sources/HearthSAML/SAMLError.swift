import Foundation

/// Why a SAML response was refused, or a request, key or certificate could not be made or read.
///
/// Every case names the precise reason for logs (``description``); a server answers all the refusals of a
/// response with Firebase's `INVALID_IDP_RESPONSE` and keeps the reason to itself. Values that come from the
/// document (issuers, URLs, IDs) are quoted as they were, cut to 200 characters; no case ever holds a key.
public enum SAMLError: Error, Sendable, Equatable, CustomStringConvertible {
    // MARK: The settings

    /// A configured IdP certificate is not a PEM or base64 X.509 certificate libxmlsec1 can read.
    case invalidCertificate(String)
    /// A configured SP key is not a PEM RSA private key libxmlsec1 can read.
    case invalidPrivateKey(String)
    /// The settings lack something the operation needs (`signRequest` without a signing key, no IdP certificate).
    case incompleteSettings(String)
    /// libxml2 or libxmlsec1 could not be initialised, or failed where the input was not at fault.
    case library(String)

    // MARK: The document

    /// `SAMLResponse` is not base64, or is empty.
    case notBase64
    /// The decoded response is longer than ``SAMLServiceProvider/maximumResponseSize``.
    case tooLarge(Int)
    /// The response has a DOCTYPE (internal or external subset): refused before it is read, so no entity is
    /// declared, expanded or fetched.
    case documentTypeDeclaration
    /// Not well-formed XML.
    case notWellFormed(String)
    /// The root element is not a SAML 2.0 protocol `Response`, or its `Version` is not `2.0`.
    case notAResponse(String)
    /// Two elements share an `ID` (or an `ID` collides with an `xml:id`): an ID must name one element.
    case duplicateID(String)
    /// The response must hold exactly one `Assertion` or `EncryptedAssertion` (anywhere in the document): it held this many.
    case assertionCount(Int)
    /// A required element or attribute is missing: its path.
    case missing(String)
    /// A value could not be read (a malformed `xs:dateTime`, an empty NameID): what and why.
    case malformed(String)

    // MARK: Signatures

    /// Neither the Response nor the Assertion carries a signature.
    case unsigned
    /// A signature that refers to something else than the element it is in, that element not being the
    /// Response or its one Assertion, or several references: the signature-wrapping defence.
    case signatureReference(String)
    /// The signature or digest algorithm is not RSA-SHA256 / SHA-256 (SHA-1 among others), or a transform is
    /// not an enveloped-signature or canonicalisation transform.
    case algorithmRefused(String)
    /// No configured IdP certificate verifies the signature (or libxmlsec1 refused it): libxmlsec1's reason.
    case signatureInvalid(String)

    // MARK: Encryption

    /// The assertion is encrypted and no SP decryption key is configured.
    case encryptedWithoutKey
    /// libxmlsec1 could not decrypt the assertion with the SP key, or it did not decrypt to one Assertion.
    case decryptionFailed(String)

    // MARK: The protocol's checks

    /// The top-level status is not `Success`: the status code (and the second-level one, if any).
    case status(String)
    /// The Response's or the Assertion's Issuer is not the configured IdP entity ID.
    case wrongIssuer(String?)
    /// The Response's `Destination` is not the callback URL (or is missing from a signed Response).
    case wrongDestination(String?)
    /// No bearer SubjectConfirmationData's `Recipient` is the callback URL: the first one found.
    case wrongRecipient(String?)
    /// No `Audience` of an AudienceRestriction is the SP entity ID: the audiences found.
    case wrongAudience([String])
    /// `InResponseTo` (of the Response or of the bearer SubjectConfirmationData) is not the request's ID.
    case wrongInResponseTo(expected: String?, found: String?)
    /// A response without a request to answer (IdP-initiated) while the settings do not allow them.
    case unsolicited
    /// There is no SubjectConfirmation with method `urn:oasis:names:tc:SAML:2.0:cm:bearer`.
    case noBearerConfirmation
    /// A `NotBefore` is later than now plus the allowed skew: the element and the time.
    case notYetValid(String, Date)
    /// A `NotOnOrAfter` (or `SessionNotOnOrAfter`) has passed, allowing for the skew: the element and the time.
    case expired(String, Date)
    /// The assertion's ID was used before (``SAMLReplayGuard``).
    case replayed(String)

    // MARK: Requests

    /// The AuthnRequest could not be deflated or signed.
    case requestFailed(String)

    public var description: String {
        switch self {
        case .invalidCertificate(let why): "an IdP certificate cannot be read: \(why)"
        case .invalidPrivateKey(let why): "an SP private key cannot be read: \(why)"
        case .incompleteSettings(let why): "the SAML settings are incomplete: \(why)"
        case .library(let why): "libxmlsec1 failed: \(why)"
        case .notBase64: "SAMLResponse is not base64"
        case .tooLarge(let size): "the SAML response is \(size) bytes long, more than allowed"
        case .documentTypeDeclaration: "the SAML response has a DOCTYPE (refused: no DTDs, no entities)"
        case .notWellFormed(let why): "the SAML response is not well-formed XML: \(why)"
        case .notAResponse(let what): "not a SAML 2.0 Response: \(what)"
        case .duplicateID(let id): "the ID \(Self.quoted(id)) names more than one element"
        case .assertionCount(let count): "the response holds \(count) assertions, not exactly one"
        case .missing(let path): "the SAML response lacks \(path)"
        case .malformed(let what): "the SAML response has a malformed \(what)"
        case .unsigned: "neither the Response nor the Assertion is signed"
        case .signatureReference(let why): "the signature does not cover the element it is used for: \(why)"
        case .algorithmRefused(let algorithm): "the signature uses a refused algorithm or transform: \(Self.quoted(algorithm))"
        case .signatureInvalid(let why): "no configured IdP certificate verifies the signature: \(why)"
        case .encryptedWithoutKey: "the assertion is encrypted and no SP decryption key is configured"
        case .decryptionFailed(let why): "the assertion could not be decrypted: \(why)"
        case .status(let code): "the IdP answered the status \(Self.quoted(code)), not Success"
        case .wrongIssuer(let issuer): "the issuer \(Self.quoted(issuer)) is not the configured IdP entity ID"
        case .wrongDestination(let destination): "the Destination \(Self.quoted(destination)) is not the callback URL"
        case .wrongRecipient(let recipient): "the Recipient \(Self.quoted(recipient)) is not the callback URL"
        case .wrongAudience(let audiences): "the audiences \(audiences.map { Self.quoted($0) }) do not include the SP entity ID"
        case .wrongInResponseTo(let expected, let found):
            "InResponseTo \(Self.quoted(found)) does not answer the request \(Self.quoted(expected))"
        case .unsolicited: "an IdP-initiated response (no request to answer), which the settings do not allow"
        case .noBearerConfirmation: "the subject has no bearer SubjectConfirmation"
        case .notYetValid(let what, let date): "\(what) is not valid before \(SAMLDateTime.string(from: date))"
        case .expired(let what, let date): "\(what) expired at \(SAMLDateTime.string(from: date))"
        case .replayed(let id): "the assertion \(Self.quoted(id)) was used before"
        case .requestFailed(let why): "the AuthnRequest could not be made: \(why)"
        }
    }

    /// A document's value as a log shows it: quoted, at most 200 characters.
    static func quoted(_ value: String?) -> String {
        guard let value else { return "(none)" }
        let cut = value.count > 200 ? String(value.prefix(200)) + "…" : value
        return "\"\(cut)\""
    }
}
