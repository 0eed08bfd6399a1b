import CXMLSec

/// The Redirect binding's signature: RSA-SHA256 (PKCS #1 v1.5) over the query's bytes, by libxmlsec1's
/// OpenSSL transform with the SP key. (HearthSAML links OpenSSL through libxmlsec1 already and depends on nothing
/// else, so swift-crypto's `_RSA` is not used here.)
enum RedirectSignature {
    /// The signature of `bytes` with `key`.
    static func sign(_ bytes: [UInt8], with key: SAMLPrivateKey) throws(SAMLError) -> [UInt8] {
        XMLSecurityLibrary.clearError()
        guard let context = xmlSecTransformCtxCreate() else { throw .requestFailed("xmlSecTransformCtxCreate failed") }
        defer { xmlSecTransformCtxDestroy(context) }
        guard let transform = xmlSecTransformCtxCreateAndAppend(context, cxmlsec_transform_rsa_sha256()) else {
            throw .requestFailed(XMLSecurityLibrary.lastError(or: "no RSA-SHA256 transform"))
        }
        transform.pointee.operation = xmlSecTransformOperationSign
        guard let loaded = key.key() else { throw .invalidPrivateKey(XMLSecurityLibrary.lastError(or: "the signing key")) }
        defer { xmlSecKeyDestroy(loaded) }
        guard xmlSecTransformSetKey(transform, loaded) >= 0 else {
            throw .requestFailed(XMLSecurityLibrary.lastError(or: "the key does not suit RSA-SHA256"))
        }
        let executed = bytes.withUnsafeBufferPointer { buffer in
            xmlSecTransformCtxBinaryExecute(context, buffer.baseAddress, cxmlsec_size(buffer.count))
        }
        guard executed >= 0, let result = context.pointee.result, let data = xmlSecBufferGetData(result) else {
            throw .requestFailed(XMLSecurityLibrary.lastError(or: "signing failed"))
        }
        return Array(UnsafeBufferPointer(start: data, count: Int(xmlSecBufferGetSize(result))))
    }
}
