/// `accounts:batchCreate` (legacy `uploadAccount`), administrators only: imports up to 1000 users, with
/// password hashes made elsewhere described by `hashAlgorithm` and its parameters. Bytes travel as
/// base64 (either alphabet, as proto3 JSON reads them).
public struct BatchCreateRequest: Codable, Sendable, Equatable {
    public var users: [UserInfo]?
    /// `SCRYPT`, `STANDARD_SCRYPT`, `BCRYPT`, `PBKDF_SHA1`, `PBKDF2_SHA256`, `HMAC_SHA512`, …, `MD5`.
    public var hashAlgorithm: String?
    public var signerKey: String?
    public var saltSeparator: String?
    public var rounds: WireInt32?
    public var memoryCost: WireInt32?
    public var cpuMemCost: WireInt32?
    public var parallelization: WireInt32?
    public var blockSize: WireInt32?
    public var dkLen: WireInt32?
    public var passwordHashOrder: WireEnum<PasswordHashOrderNames>?
    /// Checks the batch for duplicate e-mails and provider identities before importing any of it.
    public var sanityCheck: Bool?
    public var allowOverwrite: Bool?
    public var tenantId: String?
    public var targetProjectId: String?

    public init(users: [UserInfo]?, hashAlgorithm: String? = nil) {
        self.users = users
        self.hashAlgorithm = hashAlgorithm
    }
}

public struct BatchCreateResponse: Codable, Sendable, Equatable {
    public var kind = "identitytoolkit#UploadAccountResponse"
    /// The users that were not imported, by their index in the request; the others were.
    public var error: [BatchCreateError]?

    public init(error: [BatchCreateError]?) { self.error = error }
}

public struct BatchCreateError: Codable, Sendable, Equatable {
    public var index: Int
    public var message: String

    public init(index: Int, message: String) {
        self.index = index
        self.message = message
    }
}
