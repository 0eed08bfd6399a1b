import Foundation

/// One response's verification (``SAMLServiceProvider/checkResponse(_:expectedRequestID:now:)``).
struct ResponseVerification {
    let provider: SAMLServiceProvider
    let tree: XMLTree
    let expectedRequestID: String?
    let now: Date

    private var samlp: String { SAMLNames.protocolNamespace }
    private var saml: String { SAMLNames.assertionNamespace }
    private var ds: String { SAMLNames.signatureNamespace }

    func verify() throws(SAMLError) -> SAMLAssertion {
        guard let response = tree.root else { throw .notWellFormed("no root element") }
        guard response.isNamed("Response", in: samlp) else {
            throw .notAResponse("the root is {\(response.namespace ?? "")}\(response.name)")
        }
        guard response.attribute("Version") == "2.0" else { throw .notAResponse("Version \(SAMLError.quoted(response.attribute("Version")))") }
        try tree.registerIDs(under: response)
        try checkStatus(of: response)
        if let issuer = try response.onlyChild("Issuer", in: saml) {
            guard issuer.text == provider.idpEntityID else { throw .wrongIssuer(issuer.text) }
        }

        // Exactly one assertion, encrypted or not, in the whole document, and it is the Response's child: a
        // copy hidden in an Extensions, an Object, a Signature or another assertion counts (wrapping attacks).
        let all = response.descendants.filter {
            $0.isNamed("Assertion", in: saml) || $0.isNamed("EncryptedAssertion", in: saml)
        }
        guard all.count == 1, let only = all.first else { throw .assertionCount(all.count) }
        guard only.parent == response else { throw .signatureReference("the assertion is not a child of the Response") }

        let destination = response.attribute("Destination")
        if let destination, destination != provider.callbackURL { throw .wrongDestination(destination) }

        let signatures = XMLSignatureCheck(tree: tree, certificates: provider.idpCertificates)
        var signed = false
        if let signature = try response.onlyChild("Signature", in: ds) {
            try signatures.verify(signature, of: response)
            // SAML Bindings §3.5.5.2: a signed message names its Destination.
            guard destination != nil else { throw .wrongDestination(nil) }
            signed = true
        }

        var assertion = only
        if only.isNamed("EncryptedAssertion", in: saml) {
            guard let key = provider.decryptionKey else { throw .encryptedWithoutKey }
            assertion = try XMLDecryption(tree: tree, key: key).decrypt(only)
            try tree.registerIDs(under: assertion)
            let count = response.descendants.filter { $0.isNamed("Assertion", in: saml) || $0.isNamed("EncryptedAssertion", in: saml) }
            guard count.count == 2 else { throw .assertionCount(count.count - 1) }
        }
        if let signature = try assertion.onlyChild("Signature", in: ds) {
            try signatures.verify(signature, of: assertion)
            signed = true
        }
        guard signed else { throw .unsigned }

        // From here on, only `response` and `assertion`: the nodes the verified signature covers.
        try checkInResponseTo(response.attribute("InResponseTo"))
        return try read(assertion)
    }

    private func checkStatus(of response: XMLElement) throws(SAMLError) {
        guard let status = try response.onlyChild("Status", in: samlp), let code = try status.onlyChild("StatusCode", in: samlp) else {
            throw .missing("Response/Status/StatusCode")
        }
        let value = code.attribute("Value") ?? ""
        guard value == SAMLNames.success else {
            let detail = try code.onlyChild("StatusCode", in: samlp)?.attribute("Value")
            throw .status(detail.map { "\(value) / \($0)" } ?? value)
        }
    }

    /// `found` answers the expected request: equal to it, or absent when there is none and unsolicited
    /// responses are allowed.
    private func checkInResponseTo(_ found: String?) throws(SAMLError) {
        if let expectedRequestID {
            if let found, found != expectedRequestID { throw .wrongInResponseTo(expected: expectedRequestID, found: found) }
        } else {
            guard provider.allowsUnsolicitedResponses else { throw .unsolicited }
            if let found { throw .wrongInResponseTo(expected: nil, found: found) }
        }
    }

    private func read(_ assertion: XMLElement) throws(SAMLError) -> SAMLAssertion {
        guard assertion.attribute("Version") == "2.0" else { throw .malformed("Assertion Version") }
        guard let id = assertion.attribute("ID") else { throw .missing("Assertion@ID") }
        guard let issuer = try assertion.onlyChild("Issuer", in: saml)?.text else { throw .missing("Assertion/Issuer") }
        guard issuer == provider.idpEntityID else { throw .wrongIssuer(issuer) }

        guard let subject = try assertion.onlyChild("Subject", in: saml) else { throw .missing("Assertion/Subject") }
        if !subject.children("EncryptedID", in: saml).isEmpty { throw .malformed("Subject: EncryptedID is not supported") }
        guard let nameIDElement = try subject.onlyChild("NameID", in: saml) else { throw .missing("Subject/NameID") }
        let nameID = nameIDElement.text
        guard !nameID.isEmpty else { throw .malformed("NameID: empty") }
        let confirmationEnd = try checkBearerConfirmation(in: subject)

        guard let conditions = try assertion.onlyChild("Conditions", in: saml) else { throw .missing("Assertion/Conditions") }
        let conditionsEnd = try checkPeriod(of: conditions, named: "Conditions", requiresEnd: false)
        let restrictions = conditions.children("AudienceRestriction", in: saml)
        guard !restrictions.isEmpty else { throw .wrongAudience([]) }
        for restriction in restrictions {
            let audiences = restriction.children("Audience", in: saml).map(\.text)
            guard audiences.contains(provider.entityID) else { throw .wrongAudience(audiences) }
        }

        let statements = assertion.children("AuthnStatement", in: saml)
        guard let statement = statements.first else { throw .missing("Assertion/AuthnStatement") }
        if let text = statement.attribute("SessionNotOnOrAfter") {
            guard let end = SAMLDateTime.date(from: text) else { throw .malformed("AuthnStatement@SessionNotOnOrAfter") }
            guard now < end.addingTimeInterval(provider.allowedClockSkew) else { throw .expired("AuthnStatement@SessionNotOnOrAfter", end) }
        }

        var attributes: [String: [String]] = [:]
        for statement in assertion.children("AttributeStatement", in: saml) {
            for attribute in statement.children("Attribute", in: saml) {
                guard let name = attribute.attribute("Name") else { throw .missing("Attribute@Name") }
                attributes[name, default: []].append(contentsOf: attribute.children("AttributeValue", in: saml).map(\.text))
            }
        }
        return SAMLAssertion(
            id: id, issuer: issuer, nameID: nameID, nameIDFormat: nameIDElement.attribute("Format"),
            sessionIndex: statement.attribute("SessionIndex"), attributes: attributes,
            notOnOrAfter: min(confirmationEnd, conditionsEnd ?? confirmationEnd))
    }

    /// Finds a bearer SubjectConfirmation whose data holds: Recipient, times, InResponseTo. Returns its
    /// `NotOnOrAfter`; throws the first bearer confirmation's failure when none holds.
    private func checkBearerConfirmation(in subject: XMLElement) throws(SAMLError) -> Date {
        let bearers = subject.children("SubjectConfirmation", in: saml).filter { $0.attribute("Method") == SAMLNames.bearer }
        guard !bearers.isEmpty else { throw .noBearerConfirmation }
        var firstFailure: SAMLError?
        for bearer in bearers {
            do throws(SAMLError) {
                guard let data = try bearer.onlyChild("SubjectConfirmationData", in: saml) else {
                    throw .missing("SubjectConfirmation/SubjectConfirmationData")
                }
                let recipient = data.attribute("Recipient")
                guard recipient == provider.callbackURL else { throw .wrongRecipient(recipient) }
                guard let end = try checkPeriod(of: data, named: "SubjectConfirmationData", requiresEnd: true) else {
                    throw .missing("SubjectConfirmationData@NotOnOrAfter")
                }
                let answered = data.attribute("InResponseTo")
                if let expectedRequestID {
                    guard answered == expectedRequestID else { throw .wrongInResponseTo(expected: expectedRequestID, found: answered) }
                } else if let answered {
                    throw .wrongInResponseTo(expected: nil, found: answered)
                }
                return end
            } catch {
                firstFailure = firstFailure ?? error
            }
        }
        throw firstFailure ?? .noBearerConfirmation
    }

    /// Checks `element`'s `NotBefore` and `NotOnOrAfter` against now, with the skew; returns `NotOnOrAfter`.
    private func checkPeriod(of element: XMLElement, named name: String, requiresEnd: Bool) throws(SAMLError) -> Date? {
        let skew = provider.allowedClockSkew
        if let text = element.attribute("NotBefore") {
            guard let start = SAMLDateTime.date(from: text) else { throw .malformed("\(name)@NotBefore") }
            guard now.addingTimeInterval(skew) >= start else { throw .notYetValid("\(name)@NotBefore", start) }
        }
        guard let text = element.attribute("NotOnOrAfter") else {
            if requiresEnd { throw .missing("\(name)@NotOnOrAfter") }
            return nil
        }
        guard let end = SAMLDateTime.date(from: text) else { throw .malformed("\(name)@NotOnOrAfter") }
        guard now < end.addingTimeInterval(skew) else { throw .expired("\(name)@NotOnOrAfter", end) }
        return end
    }
}
