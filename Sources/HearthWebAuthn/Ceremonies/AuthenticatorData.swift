/// Authenticator data (WebAuthn §6.1): the RP ID's hash, the flags, the signature counter, and on registration
/// the attested credential data (AAGUID, credential id, COSE public key), then any extension outputs. Parsed
/// to the last byte: a length that overruns, a flag without its data, data without its flag or bytes left
/// over are refused.
public struct AuthenticatorData: Sendable {
    /// SHA-256 of the RP ID the authenticator scoped the credential to.
    public let rpIDHash: [UInt8]
    public let flags: Flags
    /// The signature counter; zero from authenticators that keep none.
    public let signCount: UInt32
    /// Present when the AT flag is.
    public let attestedCredential: AttestedCredentialData?
    /// The extension outputs map when the ED flag is set.
    public let extensions: CBORValue?
    /// The bytes as signed.
    public let bytes: [UInt8]

    /// The flags byte.
    public struct Flags: OptionSet, Sendable {
        public let rawValue: UInt8
        public init(rawValue: UInt8) { self.rawValue = rawValue }
        /// User present.
        public static let userPresent = Flags(rawValue: 0x01)
        /// User verified.
        public static let userVerified = Flags(rawValue: 0x04)
        /// Backup eligible: the credential may be synced (a multi-device passkey).
        public static let backupEligible = Flags(rawValue: 0x08)
        /// Backed up: the credential is synced now.
        public static let backedUp = Flags(rawValue: 0x10)
        /// Attested credential data follows.
        public static let attestedCredentialData = Flags(rawValue: 0x40)
        /// Extension data follows.
        public static let extensionData = Flags(rawValue: 0x80)
    }

    /// The largest credential id WebAuthn allows (§5.8.3).
    public static let maximumCredentialIDLength = 1023

    public init(_ bytes: [UInt8]) throws(WebAuthnError) {
        guard bytes.count >= 37 else { throw .malformedAuthenticatorData("shorter than 37 bytes") }
        self.bytes = bytes
        rpIDHash = Array(bytes[0..<32])
        flags = Flags(rawValue: bytes[32])
        signCount = bytes[33..<37].reduce(0) { $0 << 8 | UInt32($1) }
        if flags.contains(.backedUp) && !flags.contains(.backupEligible) {
            throw .malformedAuthenticatorData("backed up but not backup eligible")
        }
        var position = 37
        let decoder = CBORDecoder(maximumDepth: 4, maximumSize: 16 * 1024)
        if flags.contains(.attestedCredentialData) {
            guard bytes.count >= position + 18 else { throw .malformedAuthenticatorData("attested credential data is truncated") }
            let aaguid = Array(bytes[position..<position + 16])
            let length = Int(bytes[position + 16]) << 8 | Int(bytes[position + 17])
            position += 18
            guard length > 0, length <= Self.maximumCredentialIDLength else {
                throw .malformedAuthenticatorData("credential id length \(length) is outside 1…1023")
            }
            guard bytes.count >= position + length else { throw .malformedAuthenticatorData("credential id is truncated") }
            let credentialID = Array(bytes[position..<position + length])
            position += length
            let key: (value: CBORValue, end: Int)
            do { key = try decoder.decodePrefix(bytes[position...]) } catch { throw .malformedPublicKey("\(error)") }
            let publicKey = try COSEPublicKey(value: key.value, encoded: Array(bytes[position..<key.end]))
            position = key.end
            attestedCredential = AttestedCredentialData(aaguid: aaguid, credentialID: credentialID, publicKey: publicKey)
        } else {
            attestedCredential = nil
        }
        if flags.contains(.extensionData) {
            let outputs: (value: CBORValue, end: Int)
            do { outputs = try decoder.decodePrefix(bytes[position...]) } catch {
                throw .malformedAuthenticatorData("extensions: \(error)")
            }
            guard outputs.value.map != nil else { throw .malformedAuthenticatorData("extensions are not a map") }
            extensions = outputs.value
            position = outputs.end
        } else {
            extensions = nil
        }
        guard position == bytes.count else { throw .malformedAuthenticatorData("bytes left over") }
    }
}

/// The credential a registration creates, as the authenticator attests it.
public struct AttestedCredentialData: Sendable {
    /// The authenticator model's AAGUID (all zero when not disclosed).
    public let aaguid: [UInt8]
    public let credentialID: [UInt8]
    public let publicKey: COSEPublicKey
}
