import CXMLSec
import Foundation

/// Decrypts an `EncryptedAssertion` in place with libxmlsec1 (`xmlSecEncCtx`) and the SP's key.
///
/// Only AES-CBC or AES-GCM content encryption under an RSA-OAEP key transport is accepted (RSA PKCS #1 v1.5 key
/// transport is refused). The EncryptedKey may sit in the EncryptedData's KeyInfo or beside the EncryptedData
/// (as Shibboleth and ADFS put it, reached by a RetrievalMethod): the latter is moved into the KeyInfo first, so
/// libxmlsec1 never follows a reference to find it.
struct XMLDecryption {
    let tree: XMLTree
    let key: SAMLPrivateKey

    /// Replaces `encrypted`'s EncryptedData with what it decrypts to, and returns the Assertion that results.
    /// - Throws: ``SAMLError/algorithmRefused(_:)``, ``SAMLError/decryptionFailed(_:)``.
    func decrypt(_ encrypted: XMLElement) throws(SAMLError) -> XMLElement {
        let xenc = SAMLNames.encryptionNamespace
        let ds = SAMLNames.signatureNamespace
        guard let data = try encrypted.onlyChild("EncryptedData", in: xenc) else { throw .missing("EncryptedAssertion/EncryptedData") }
        let method = try data.onlyChild("EncryptionMethod", in: xenc)?.attribute("Algorithm") ?? ""
        guard SAMLNames.allowedContentEncryption.contains(method) else { throw .algorithmRefused(method) }

        let keyInfo = try data.onlyChild("KeyInfo", in: ds)
        let inside = keyInfo?.children("EncryptedKey", in: xenc) ?? []
        let beside = encrypted.children("EncryptedKey", in: xenc)
        for encryptedKey in inside + beside {
            let transport = try encryptedKey.onlyChild("EncryptionMethod", in: xenc)?.attribute("Algorithm") ?? ""
            guard SAMLNames.allowedKeyTransport.contains(transport) else { throw .algorithmRefused(transport) }
        }
        if inside.isEmpty {
            guard let first = beside.first else { throw .missing("EncryptedAssertion's EncryptedKey") }
            try move(first, into: keyInfo, of: data)
        }

        XMLSecurityLibrary.clearError()
        guard let manager = xmlSecKeysMngrCreate() else { throw .library("xmlSecKeysMngrCreate failed") }
        defer { xmlSecKeysMngrDestroy(manager) }
        guard xmlSecOpenSSLAppDefaultKeysMngrInit(manager) >= 0 else { throw .library(XMLSecurityLibrary.lastError(or: "keys manager")) }
        guard let loaded = key.key() else { throw .invalidPrivateKey(XMLSecurityLibrary.lastError(or: "the decryption key")) }
        guard xmlSecOpenSSLAppDefaultKeysMngrAdoptKey(manager, loaded) >= 0 else {
            xmlSecKeyDestroy(loaded)
            throw .library(XMLSecurityLibrary.lastError(or: "adopting the decryption key"))
        }
        guard let context = xmlSecEncCtxCreate(manager) else { throw .library("xmlSecEncCtxCreate failed") }
        defer { xmlSecEncCtxDestroy(context) }
        guard xmlSecEncCtxDecrypt(context, data.node) >= 0, context.pointee.resultReplaced != 0 else {
            throw .decryptionFailed(XMLSecurityLibrary.lastError(or: "xmlSecEncCtxDecrypt failed"))
        }
        let children = encrypted.children
        guard let assertion = children.first(where: { $0.isNamed("Assertion", in: SAMLNames.assertionNamespace) }),
            children.filter({ !$0.isNamed("EncryptedKey", in: xenc) }).count == 1
        else {
            throw .decryptionFailed("it did not decrypt to exactly one Assertion")
        }
        return assertion
    }

    /// Moves `encryptedKey` into `keyInfo` (made before CipherData when missing), dropping the KeyInfo's
    /// RetrievalMethods that pointed at it.
    private func move(_ encryptedKey: XMLElement, into keyInfo: XMLElement?, of data: XMLElement) throws(SAMLError) {
        let ds = SAMLNames.signatureNamespace
        let target: XMLElement
        if let keyInfo {
            for retrieval in keyInfo.children("RetrievalMethod", in: ds) {
                xmlUnlinkNode(retrieval.node)
                xmlFreeNode(retrieval.node)
            }
            target = keyInfo
        } else {
            guard let cipherData = try data.onlyChild("CipherData", in: SAMLNames.encryptionNamespace),
                let created = xmlNewDocNode(tree.document, nil, "KeyInfo", nil)
            else { throw .missing("EncryptedData/CipherData") }
            let namespace = xmlNewNs(created, ds, "ds")
            xmlSetNs(created, namespace)
            guard xmlAddPrevSibling(cipherData.node, created) != nil else { throw .library("adding KeyInfo failed") }
            target = XMLElement(node: created)
        }
        xmlUnlinkNode(encryptedKey.node)
        guard xmlAddChild(target.node, encryptedKey.node) != nil else { throw .library("moving the EncryptedKey failed") }
    }
}
