/// The COSE signature algorithms (IANA "COSE Algorithms") a credential may use here: the three every
/// relying party is advised to accept, in the order `pubKeyCredParams` offers them.
public enum COSEAlgorithm: Int, Sendable, CaseIterable, Codable {
    /// ECDSA with SHA-256 on P-256; signatures are DER `Ecdsa-Sig-Value`s.
    case es256 = -7
    /// EdDSA on Ed25519; signatures are the 64 raw bytes.
    case edDSA = -8
    /// RSASSA-PKCS1-v1_5 with SHA-256, keys of 2048 bits or more.
    case rs256 = -257
}
