/// Password hashes as an export carries them: Hearth's own scrypt is standard scrypt, so a hash made at this
/// hasher's cost leaves as `STANDARD_SCRYPT` bytes and salt, which Hearth and Firebase both import.
extension PasswordHasher {
    /// The `accounts:batchCreate` options that import what ``exported(_:)`` gives.
    public var exportOptions: PasswordHashImport {
        PasswordHashImport(algorithm: .standardScrypt, cpuMemCost: 1 << logN, parallelization: parallelism, blockSize: blockSize, dkLen: 32)
    }

    /// The hash and salt of `encoded` when it is this hasher's own scrypt (at its cost); `nil` for any other
    /// hash (one imported and not yet redone at sign-in, or one of an older cost), which an export leaves out.
    public func exported(_ encoded: String) -> (hash: [UInt8], salt: [UInt8])? {
        guard !needsRehash(encoded), let parsed = EncodedPasswordHash(encoded), parsed.fields.count == 2 else { return nil }
        return (parsed.fields[1], parsed.fields[0])
    }
}
