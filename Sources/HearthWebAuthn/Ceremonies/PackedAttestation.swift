import Foundation
import SwiftASN1
import X509

/// The `packed` attestation statement (WebAuthn §8.2): `alg` and `sig`, and `x5c` for basic attestation. Self
/// attestation is signed by the credential key with the credential's algorithm; basic attestation by the first
/// certificate of `x5c`, which must meet §8.2.1's requirements and, when anchors are configured, chain to one.
struct PackedAttestation {
    let algorithm: Int
    let signature: [UInt8]
    let certificates: [[UInt8]]?

    /// The id-fido-gen-ce-aaguid extension of an attestation certificate.
    static let aaguidExtension: ASN1ObjectIdentifier = [1, 3, 6, 1, 4, 1, 45724, 1, 1, 4]

    init(_ statement: CBORValue) throws(WebAuthnError) {
        guard let algorithm = statement["alg"]?.integer, let signature = statement["sig"]?.bytes else {
            throw .invalidAttestationStatement("packed needs alg and sig")
        }
        var known = 2
        if let chain = statement["x5c"] {
            guard case .array(let items) = chain, !items.isEmpty, items.count <= 5 else {
                throw .invalidAttestationStatement("x5c must hold 1 to 5 certificates")
            }
            var certificates: [[UInt8]] = []
            for item in items {
                guard let der = item.bytes else { throw .invalidAttestationStatement("x5c holds a non-bytes item") }
                certificates.append(der)
            }
            self.certificates = certificates
            known += 1
        } else {
            certificates = nil
        }
        guard statement.map?.count == known else { throw .invalidAttestationStatement("packed has unknown members") }
        self.algorithm = algorithm
        self.signature = signature
    }

    func verify(signed: [UInt8], credential: AttestedCredentialData, party: RelyingParty, now: Date) async throws(WebAuthnError)
        -> AttestationKind
    {
        guard let certificates else {
            guard algorithm == credential.publicKey.algorithm.rawValue else {
                throw .invalidAttestationStatement("self attestation alg differs from the credential's")
            }
            guard credential.publicKey.isValidSignature(signature, for: signed) else { throw .invalidSignature }
            return .selfAttestation
        }
        let chain: [Certificate]
        do { chain = try certificates.map { try Certificate(derEncoded: $0) } } catch {
            throw .invalidAttestationStatement("x5c certificate does not parse")
        }
        let leaf = chain[0]
        let signatureAlgorithm: Certificate.SignatureAlgorithm
        switch COSEAlgorithm(rawValue: algorithm) {
        case .es256: signatureAlgorithm = .ecdsaWithSHA256
        case .rs256: signatureAlgorithm = .sha256WithRSAEncryption
        case .edDSA: signatureAlgorithm = .ed25519
        case nil: throw .unsupportedAlgorithm(algorithm)
        }
        guard leaf.publicKey.isValidSignature(signature, for: signed, signatureAlgorithm: signatureAlgorithm) else {
            throw .invalidSignature
        }
        try Self.checkRequirements(leaf, aaguid: credential.aaguid)
        guard !party.trustAnchors.isEmpty else { return .basic(trusted: false) }
        var verifier = Verifier(rootCertificates: CertificateStore(party.trustAnchors)) { RFC5280Policy(validationTime: now) }
        let result = await verifier.validate(leaf: leaf, intermediates: CertificateStore(Array(chain.dropFirst())))
        guard case .validCertificate = result else { throw .untrustedAttestation }
        return .basic(trusted: true)
    }

    /// §8.2.1: version 3, subject OU "Authenticator Attestation", not a CA, and an AAGUID extension (if any)
    /// that is not critical and names the authenticator data's AAGUID.
    static func checkRequirements(_ leaf: Certificate, aaguid: [UInt8]) throws(WebAuthnError) {
        guard leaf.version == .v3 else { throw .invalidAttestationStatement("attestation certificate is not version 3") }
        let units = leaf.subject.flatMap { $0 }.filter { $0.type == .RDNAttributeType.organizationalUnitName }
        guard units.contains(where: { $0.value.description == "Authenticator Attestation" }) else {
            throw .invalidAttestationStatement("attestation certificate's subject OU is not \"Authenticator Attestation\"")
        }
        let constraints: BasicConstraints?
        do { constraints = try leaf.extensions.basicConstraints } catch {
            throw .invalidAttestationStatement("attestation certificate's basic constraints do not parse")
        }
        if case .isCertificateAuthority = constraints {
            throw .invalidAttestationStatement("attestation certificate is a CA")
        }
        if let named = leaf.extensions[oid: aaguidExtension] {
            guard !named.critical else { throw .invalidAttestationStatement("AAGUID extension is critical") }
            let value: ASN1OctetString
            do { value = try ASN1OctetString(derEncoded: named.value) } catch {
                throw .invalidAttestationStatement("AAGUID extension does not parse")
            }
            guard Array(value.bytes) == aaguid else {
                throw .invalidAttestationStatement("AAGUID extension differs from the authenticator data's")
            }
        }
    }
}
