import CXMLSec
import CXMLSecSupport
import Foundation

/// libxml2 and libxmlsec1 as HearthSAML uses them: initialised once per process (``ready()``), keys loaded
/// from memory, the library's last error for logs.
enum XMLSecurityLibrary {
    /// Initialises the libraries on first use (CXMLSecSupport's `pthread_once`, shared with every module that
    /// uses them); throws when that failed.
    static func ready() throws(SAMLError) {
        guard hearth_xmlsec_initialise() == 0 else {
            throw .library("xmlSecInit or the OpenSSL back end failed (libxmlsec1 \(XMLSEC_VERSION) headers)")
        }
    }

    /// The first error libxmlsec1 reported on this thread since the last ``clearError()``, or `fallback`.
    static func lastError(or fallback: String) -> String {
        let message = String(cString: hearth_xmlsec_last_error())
        return message.isEmpty ? fallback : message
    }

    static func clearError() { hearth_xmlsec_clear_error() }

    /// A key libxmlsec1 loads from `bytes` (`xmlSecKeyDataFormatPem`, `…CertDer`, …); the caller destroys it.
    static func key(_ bytes: [UInt8], format: xmlSecKeyDataFormat) -> xmlSecKeyPtr? {
        bytes.withUnsafeBufferPointer { buffer in
            xmlSecOpenSSLAppKeyLoadMemory(buffer.baseAddress, cxmlsec_size(buffer.count), format, nil, nil, nil)
        }
    }

    /// `bytes`' SHA-256 (OpenSSL's), lowercase hex.
    static func sha256Hex(_ bytes: [UInt8]) -> String {
        var digest = [UInt8](repeating: 0, count: Int(SHA256_DIGEST_LENGTH))
        bytes.withUnsafeBufferPointer { input in
            digest.withUnsafeMutableBufferPointer { output in
                _ = SHA256(input.baseAddress, input.count, output.baseAddress)
            }
        }
        let hex: [Character] = Array("0123456789abcdef")
        return String(digest.flatMap { [hex[Int($0 >> 4)], hex[Int($0 & 0xF)]] })
    }
}
