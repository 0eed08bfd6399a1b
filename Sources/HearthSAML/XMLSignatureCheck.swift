import CXMLSec
import Foundation

/// Verifies one enveloped XML signature with libxmlsec1, against pinned certificates only, and holds it to what
/// a SAML signature must be: one Reference, to the element the signature is in, by that element's registered
/// `ID`; RSA-SHA256 over SHA-256 digests; only enveloped-signature and canonicalisation transforms.
struct XMLSignatureCheck {
    let tree: XMLTree
    let certificates: [SAMLCertificate]

    /// Verifies `signature`, a `ds:Signature` child of `signed`.
    ///
    /// The algorithms and the reference are checked in the document first (for a precise refusal), then by
    /// libxmlsec1 (only the allowed transforms enabled; the key set before verifying, so that `KeyInfo` is never
    /// read), and the references libxmlsec1 actually processed are checked once more afterwards.
    /// - Throws: ``SAMLError/algorithmRefused(_:)``, ``SAMLError/signatureReference(_:)`` or
    ///   ``SAMLError/signatureInvalid(_:)``.
    func verify(_ signature: XMLElement, of signed: XMLElement) throws(SAMLError) {
        let ds = SAMLNames.signatureNamespace
        guard let id = signed.attribute("ID"), !id.isEmpty else { throw .signatureReference("the signed \(signed.name) has no ID") }
        guard let signedInfo = try signature.onlyChild("SignedInfo", in: ds) else { throw .missing("Signature/SignedInfo") }
        guard let method = try signedInfo.onlyChild("SignatureMethod", in: ds)?.attribute("Algorithm") else {
            throw .missing("SignedInfo/SignatureMethod@Algorithm")
        }
        guard method == SAMLNames.rsaSHA256 else { throw .algorithmRefused(method) }
        let canonicalisation = try signedInfo.onlyChild("CanonicalizationMethod", in: ds)?.attribute("Algorithm") ?? ""
        guard SAMLNames.allowedCanonicalisations.contains(canonicalisation) else { throw .algorithmRefused(canonicalisation) }
        let references = signedInfo.children("Reference", in: ds)
        guard references.count == 1, let reference = references.first else {
            throw .signatureReference("\(references.count) references, not one")
        }
        guard reference.attribute("URI") == "#" + id else {
            throw .signatureReference("the reference \(SAMLError.quoted(reference.attribute("URI"))) is not to the \(signed.name) \"#\(id)\"")
        }
        guard tree.element(withID: id) == signed else {
            throw .signatureReference("the ID \"\(id)\" resolves to another element than the signed \(signed.name)")
        }
        let digest = try reference.onlyChild("DigestMethod", in: ds)?.attribute("Algorithm") ?? ""
        guard digest == SAMLNames.sha256 else { throw .algorithmRefused(digest) }
        for transform in try reference.onlyChild("Transforms", in: ds)?.children ?? [] {
            let algorithm = transform.attribute("Algorithm") ?? ""
            guard transform.isNamed("Transform", in: ds), SAMLNames.allowedTransforms.contains(algorithm) else {
                throw .algorithmRefused(algorithm)
            }
        }

        guard !certificates.isEmpty else { throw .signatureInvalid("no IdP certificate is configured") }
        var reasons: [String] = []
        for certificate in certificates {
            switch verify(signature, id: id, with: certificate) {
            case .none: return
            case .some(let reason): reasons.append(reason)
            }
        }
        throw .signatureInvalid(reasons.joined(separator: "; "))
    }

    /// Verifies with one certificate: `nil` when the signature is good, else why not.
    private func verify(_ signature: XMLElement, id: String, with certificate: SAMLCertificate) -> String? {
        XMLSecurityLibrary.clearError()
        guard let context = xmlSecDSigCtxCreate(nil) else { return "xmlSecDSigCtxCreate failed" }
        defer { xmlSecDSigCtxDestroy(context) }
        guard let key = certificate.publicKey() else { return XMLSecurityLibrary.lastError(or: "the certificate's key") }
        // The context owns the key from here (xmlSecDSigCtxDestroy destroys it); with it set, KeyInfo is ignored.
        context.pointee.signKey = key
        context.pointee.enabledReferenceUris = xmlSecTransformUriType(xmlSecTransformUriTypeSameDocument)
        context.pointee.flags |= UInt32(XMLSEC_DSIG_FLAGS_STORE_SIGNEDINFO_REFERENCES) | UInt32(XMLSEC_DSIG_FLAGS_IGNORE_MANIFESTS)
        for transform in [cxmlsec_transform_exc_c14n(), cxmlsec_transform_inclusive_c14n(), cxmlsec_transform_rsa_sha256()] {
            guard xmlSecDSigCtxEnableSignatureTransform(context, transform) >= 0 else { return "enabling a signature transform failed" }
        }
        for transform in [
            cxmlsec_transform_enveloped(), cxmlsec_transform_exc_c14n(), cxmlsec_transform_inclusive_c14n(), cxmlsec_transform_sha256(),
        ] {
            guard xmlSecDSigCtxEnableReferenceTransform(context, transform) >= 0 else { return "enabling a reference transform failed" }
        }
        guard xmlSecDSigCtxVerify(context, signature.node) >= 0 else {
            return XMLSecurityLibrary.lastError(or: "xmlSecDSigCtxVerify failed")
        }
        guard context.pointee.status == xmlSecDSigStatusSucceeded else { return "the signature does not verify with this certificate" }
        // What libxmlsec1 itself digested: one reference, to `#id`, succeeded.
        let references = cxmlsec_signed_info_references(context)
        guard xmlSecPtrListGetSize(references) == 1,
            let item = xmlSecPtrListGetItem(references, 0)?.assumingMemoryBound(to: xmlSecDSigReferenceCtx.self),
            item.pointee.status == xmlSecDSigStatusSucceeded, let uri = item.pointee.uri, String(cString: uri) == "#" + id
        else {
            return "libxmlsec1 verified another reference than \"#\(id)\""
        }
        guard let method = context.pointee.signMethod, method.pointee.id == cxmlsec_transform_rsa_sha256() else {
            return "libxmlsec1 verified with another algorithm than RSA-SHA256"
        }
        return nil
    }
}
