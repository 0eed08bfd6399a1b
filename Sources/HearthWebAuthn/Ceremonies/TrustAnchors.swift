import SwiftASN1
import X509

/// Root certificates an `x5c` attestation may chain to (``RelyingParty/trustAnchors``), read from PEM: an operator's
/// file of the authenticator makers' roots.
public struct TrustAnchors: Sendable {
    public let certificates: [Certificate]

    /// The certificates of `pem` (one or more `CERTIFICATE` blocks, nothing else): each must parse and be a CA.
    /// Throws ``Problem`` naming the first that does not, or that there is none.
    public init(pemEncoded pem: String) throws(Problem) {
        let documents: [PEMDocument]
        do { documents = try PEMDocument.parseMultiple(pemString: pem) } catch { throw Problem("is not PEM (BEGIN CERTIFICATE … END CERTIFICATE)") }
        guard !documents.isEmpty else { throw Problem("holds no certificate") }
        var certificates: [Certificate] = []
        for (index, document) in documents.enumerated() {
            guard document.discriminator == "CERTIFICATE" else {
                throw Problem("block \(index + 1) is a \(String(document.discriminator.prefix(40)).debugDescription), not a CERTIFICATE")
            }
            let certificate: Certificate
            do { certificate = try Certificate(derEncoded: document.derBytes) } catch {
                throw Problem("certificate \(index + 1) does not parse")
            }
            guard case .isCertificateAuthority = try? certificate.extensions.basicConstraints else {
                throw Problem("certificate \(index + 1) (\(certificate.subject)) is not a CA (basic constraints)")
            }
            certificates.append(certificate)
        }
        self.certificates = certificates
    }

    /// What is wrong with a PEM file of trust anchors.
    public struct Problem: Error, Sendable, CustomStringConvertible {
        public let description: String
        init(_ description: String) { self.description = description }
    }
}
