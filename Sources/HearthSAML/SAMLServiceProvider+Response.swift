import Foundation

extension SAMLServiceProvider {
    /// Verifies a `SAMLResponse` posted to the callback URL and records its assertion as used.
    ///
    /// Everything ``checkResponse(_:expectedRequestID:now:)`` checks, then the replay check: the assertion's
    /// fingerprint (``replayFingerprint(issuer:assertionID:)``) is recorded in `replayGuard` until the assertion
    /// expires (its earliest `NotOnOrAfter` plus the allowed skew); a second use is refused.
    /// - Parameters:
    ///   - samlResponse: the `SAMLResponse` form value: base64 of the Response's XML (line breaks allowed).
    ///   - expectedRequestID: the ID of the AuthnRequest this browser's session started
    ///     (``SAMLAuthenticationRequest/id``); `nil` for an IdP-initiated sign-in, refused unless
    ///     ``allowsUnsolicitedResponses``.
    ///   - now: the time to check validity periods at.
    ///   - replayGuard: storage of the assertions used, shared by every replica.
    /// - Returns: what the verified assertion says.
    /// - Throws: ``SAMLError`` for every refusal (``SAMLError/replayed(_:)`` for a second use); the guard's own
    ///   errors unchanged (a storage failure is not the response's fault).
    public func verifyResponse(_ samlResponse: String, expectedRequestID: String?, now: Date, replayGuard: some SAMLReplayGuard)
        async throws -> SAMLAssertion
    {
        let assertion = try checkResponse(samlResponse, expectedRequestID: expectedRequestID, now: now)
        let fingerprint = Self.replayFingerprint(issuer: assertion.issuer, assertionID: assertion.id)
        let horizon = assertion.notOnOrAfter.addingTimeInterval(allowedClockSkew)
        guard try await replayGuard.recordFirstUse(of: fingerprint, expiresAt: horizon) else { throw SAMLError.replayed(assertion.id) }
        return assertion
    }

    /// Verifies a `SAMLResponse` without the replay check (``verifyResponse(_:expectedRequestID:now:replayGuard:)``
    /// adds it): every rule of docs/saml.md.
    ///
    /// In order: base64 and size; libxml2 parses with no network, no DTD and no entities, and any DOCTYPE is
    /// refused; the root is a SAML 2.0 `Response`; every `ID` is registered and unique; the status is `Success`;
    /// the document holds exactly one `Assertion` or `EncryptedAssertion`, a child of the Response; `Destination` is
    /// the callback URL; the Response's signature, if any, is verified (see ``XMLSignatureCheck``); an
    /// EncryptedAssertion is decrypted with ``decryptionKey``; the Assertion's signature, if any, is verified; at
    /// least one of the two signatures is there. The assertion is then read only from that node: Issuer,
    /// `InResponseTo`, the bearer SubjectConfirmationData (`Recipient`, times, `InResponseTo`), Conditions (times,
    /// Audience), AuthnStatement, NameID and attributes.
    /// - Parameters: as ``verifyResponse(_:expectedRequestID:now:replayGuard:)``'s.
    /// - Returns: what the verified assertion says.
    /// - Throws: ``SAMLError``, with the precise reason.
    public func checkResponse(_ samlResponse: String, expectedRequestID: String?, now: Date) throws(SAMLError) -> SAMLAssertion {
        // Base64 with line breaks, as some IdPs post it: the ASCII white space dropped byte by byte (a large value is
        // not walked as characters).
        let compact = samlResponse.utf8.filter { !Self.base64WhiteSpace.contains($0) }
        guard !compact.isEmpty, let decoded = Data(base64Encoded: Data(compact)) else { throw .notBase64 }
        guard decoded.count <= maximumResponseSize else { throw .tooLarge(decoded.count) }
        let tree = try XMLTree(parsing: [UInt8](decoded))
        return try ResponseVerification(provider: self, tree: tree, expectedRequestID: expectedRequestID, now: now).verify()
    }

    /// Space, tab, line feed, carriage return.
    static let base64WhiteSpace: Set<UInt8> = [0x20, 0x09, 0x0A, 0x0D]

    /// The replay check's key for an assertion: `saml:` and the hex SHA-256 of the issuer, a NUL and the ID.
    public static func replayFingerprint(issuer: String, assertionID: String) -> String {
        "saml:" + XMLSecurityLibrary.sha256Hex(Array(issuer.utf8) + [0] + Array(assertionID.utf8))
    }
}
