import Foundation

/// One import of users made elsewhere (`accounts:batchCreate`, `hearth users import`): up to 1000 users with their
/// links, claims, times, flags, password hashes or passwords in the clear (`rawPassword`, hashed here by the server's
/// own hasher). A user that cannot be imported (no `localId`, a link without `providerId`, …) is reported by its
/// index, with Identity Toolkit's message, and the others are imported; a problem with the whole batch (no users,
/// over 1000, a uid twice, an unknown hash algorithm) imports nothing.
public struct AccountImport: Sendable {
    /// One user as the import describes it, every field still unchecked.
    public struct Entry: Sendable {
        public struct Link: Sendable {
            public var providerID: String
            public var rawID: String?
            public var email, displayName, photoURL, phoneNumber, screenName: String?

            public init(
                providerID: String, rawID: String?, email: String? = nil, displayName: String? = nil, photoURL: String? = nil,
                phoneNumber: String? = nil, screenName: String? = nil
            ) {
                self.providerID = providerID
                self.rawID = rawID
                self.email = email
                self.displayName = displayName
                self.photoURL = photoURL
                self.phoneNumber = phoneNumber
                self.screenName = screenName
            }
        }

        public var uid: String
        public var email, displayName, photoURL, phoneNumber, customAttributes: String?
        public var emailVerified, disabled: Bool?
        /// The hash and its salt, base64 in either alphabet.
        public var passwordHash, salt: String?
        /// A password in the clear, hashed on import with the server's hasher (not with both a hash).
        public var rawPassword: String?
        /// Milliseconds since 1970.
        public var createdAt, lastLoginAt: Int64?
        public var links: [Link] = []
        /// `mfaInfo`: phone factors (``AdministeredSecondFactors/imported(_:email:emailVerified:now:)``).
        public var secondFactors: [AdministeredSecondFactors.Entry] = []

        public init(uid: String) { self.uid = uid }
    }

    /// The batch and how its hashes were made.
    public struct Batch: Sendable {
        public var entries: [Entry]
        /// `SCRYPT`, `BCRYPT`, `HMAC_SHA256`, … as the request names it; `nil` when no entry has a hash.
        public var hashAlgorithm: String?
        /// Base64 in either alphabet.
        public var signerKey, saltSeparator: String?
        public var rounds, memoryCost, cpuMemCost, parallelization, blockSize, dkLen: Int?
        public var passwordHashOrder: PasswordHashImport.Order?
        /// No e-mail and no provider identity twice in the batch, checked before anything is imported.
        public var sanityCheck = false
        /// Existing users with the same uid are replaced.
        public var allowOverwrite = false

        public init(entries: [Entry]) { self.entries = entries }
    }

    public struct Failure: Sendable, Equatable, Error {
        public var index: Int
        public var message: String

        public init(index: Int, message: String) {
            self.index = index
            self.message = message
        }
    }

    public static let maxBatch = 1000

    /// The users that passed their checks, by index, ready to store (those with a `rawPassword` once it is hashed).
    public private(set) var records: [(index: Int, user: UserRecord)] = []
    /// The clear passwords to hash before storing, by index.
    private var rawPasswords: [Int: String] = [:]
    public private(set) var failures: [Failure] = []
    let allowOverwrite: Bool

    /// Checks every entry. `budget`: imported hashes whose checks would take longer are refused
    /// (``PasswordHashBudget``).
    ///
    /// Throws for the whole batch: `MISSING_USER_ACCOUNT`, `EXCEED_MAX_USER_COUNT` (over 1000 users), `INVALID_ARGUMENT` (a
    /// key that is not base64), `DUPLICATE_LOCAL_ID`, `DUPLICATE_EMAIL` and `DUPLICATE_RAW_ID` (with `sanityCheck`),
    /// `INVALID_HASH_PARAMETER` and the hash algorithm's own errors.
    public init(_ batch: Batch, now: Date, budget: PasswordHashBudget? = nil) throws {
        let entries = batch.entries
        guard !entries.isEmpty else { throw HearthError(.missingUserAccount) }
        guard entries.count <= Self.maxBatch else { throw HearthError(.exceedMaxUserCount) }
        allowOverwrite = batch.allowOverwrite
        if !allowOverwrite {
            var uids: Set<String> = []
            // Entries without a uid are each their own per-user error, not a duplicate.
            for entry in entries where !entry.uid.isEmpty && !uids.insert(entry.uid).inserted {
                throw HearthError(.duplicateLocalID, detail: String(entry.uid.prefix(128)))
            }
        }
        if batch.sanityCheck { try Self.sanityCheck(entries) }
        let hashing = try ImportedHashes(batch, budget: budget)
        for (index, entry) in entries.enumerated() {
            do {
                records.append((index, try Self.record(entry, hashing: hashing, now: now)))
                if let rawPassword = entry.rawPassword { rawPasswords[index] = rawPassword }
            } catch let failure as Failure {
                failures.append(Failure(index: index, message: failure.message))
            }
        }
    }

    /// Stores the users that passed their checks, each in its own transaction, a `rawPassword` hashed by `passwords` (the
    /// server's own hash, as a sign-up makes it) first; returns every failure, by index.
    public func run(into store: any AccountStore, passwords: any PasswordChecking) async throws -> [Failure] {
        var failures = self.failures
        for (index, record) in records {
            var hashed = record
            if let rawPassword = rawPasswords[index] {
                hashed.passwordHash = try await passwords.hash(rawPassword)
                if !hashed.isAnonymous { hashed.scheduledDeletionAt = nil }
            }
            let user = hashed
            do {
                if allowOverwrite, try await store.user(uid: user.uid) != nil {
                    try await store.updateUser(uid: user.uid, session: nil) { $0 = user }
                } else {
                    try await store.createUser(user, session: nil)
                }
            } catch let conflict as StoreConflict {
                failures.append(Failure(index: index, message: Self.message(for: conflict)))
            }
        }
        return failures.sorted { $0.index < $1.index }
    }

    private static func message(for conflict: StoreConflict) -> String {
        switch conflict {
        case .uid: "localId belongs to an existing account - can not overwrite."
        case .email: "email exists in other account in database"
        case .phoneNumber: "phone number exists in other account in database"
        case .providerIdentity: "raw id exists in other account in database"
        }
    }

    private static func sanityCheck(_ entries: [Entry]) throws {
        var emails: Set<String> = []
        var identities: Set<String> = []
        for entry in entries {
            if let email = entry.email.flatMap(EmailAddress.normalize), !emails.insert(email).inserted {
                throw HearthError(.duplicateEmail, detail: email)
            }
            for link in entry.links {
                guard let rawID = link.rawID else { continue }
                if !identities.insert("\(link.providerID)\u{0}\(rawID)").inserted {
                    throw HearthError(.duplicateRawID, detail: "Provider id(\(link.providerID)), Raw id(\(rawID))")
                }
            }
        }
    }

    /// Milliseconds since 1970 as a time between 1970 and 9999.
    public static func time(milliseconds value: Int64) -> Date? {
        guard (0...253_402_300_799_999).contains(value) else { return nil }
        return Date(timeIntervalSince1970: TimeInterval(value) / 1000)
    }

    /// The record of one imported user, or the ``Failure`` (its index filled in by the caller).
    private static func record(_ entry: Entry, hashing: ImportedHashes, now: Date) throws -> UserRecord {
        func fail(_ message: String) -> Failure { Failure(index: -1, message: message) }
        func time(_ milliseconds: Int64, _ name: String) throws -> Date {
            guard let date = Self.time(milliseconds: milliseconds) else { throw fail("\(name) is invalid") }
            return date
        }
        guard !entry.uid.isEmpty else { throw fail("localId is missing") }
        guard UserText.isValidUID(entry.uid) else { throw fail("localId is invalid") }
        let email = try entry.email.map { raw -> String in
            guard let email = EmailAddress.normalize(raw) else { throw fail("email is invalid") }
            return email
        }
        let phone = try entry.phoneNumber.map { raw -> String in
            guard let phone = PhoneNumber.validated(raw) else { throw fail("phone number format is invalid") }
            return phone
        }
        let claims: String?
        do {
            claims = try entry.customAttributes.flatMap(CustomClaims.validated)
        } catch let error as HearthError {
            switch error.code {
            case .forbiddenClaim: throw fail("Custom claims provided include a reserved claim.")
            case .claimsTooLarge: throw fail("Custom claims provided are too large.")
            default: throw fail("Invalid custom claims provided.")
            }
        }
        let displayName = try entry.displayName.map { raw -> String in
            guard let name = try? UserText.displayName(raw) else { throw fail("display name is invalid") }
            return name
        }
        let photoURL = try entry.photoURL.map { raw -> String in
            guard let url = try? UserText.photoURL(raw) else { throw fail("photo url is invalid") }
            return url
        }
        var links: [ProviderLink] = []
        for link in entry.links where !["password", "phone"].contains(link.providerID) {
            guard !link.providerID.isEmpty, let rawID = link.rawID, !rawID.isEmpty else {
                throw fail("federatedId or (providerId & rawId) is required")
            }
            guard UserText.isValidUID(link.providerID), UserText.isValidUID(rawID) else { throw fail("provider id or raw id is invalid") }
            guard !links.contains(where: { $0.providerID == link.providerID }) else { throw fail("a provider is linked twice") }
            links.append(
                ProviderLink(
                    providerID: link.providerID, rawID: rawID, email: link.email.flatMap(EmailAddress.normalize),
                    displayName: link.displayName.flatMap { try? UserText.displayName($0) },
                    photoURL: link.photoURL.flatMap { try? UserText.photoURL($0) },
                    phoneNumber: link.phoneNumber.flatMap(PhoneNumber.validated),
                    screenName: link.screenName.flatMap { try? UserText.displayName($0) }))
        }
        var passwordHash: String?
        if let rawPassword = entry.rawPassword {
            guard entry.passwordHash == nil else { throw fail("rawPassword and passwordHash cannot both be set") }
            guard PasswordPolicy.accepts(rawPassword) else { throw fail("Password should be at least 6 characters") }
        }
        if let hash = entry.passwordHash {
            switch hashing.stored(hash: hash, salt: entry.salt) {
            case .success(let stored): passwordHash = stored
            case .failure(let failure): throw failure
            }
        }
        let secondFactors: [SecondFactorEnrollment]
        switch AdministeredSecondFactors.imported(entry.secondFactors, email: email, emailVerified: entry.emailVerified ?? false, now: now) {
        case .success(let factors): secondFactors = factors
        case .failure(let failure): throw failure
        }
        guard UserText.isStorable(entry.uid) else { throw fail("localId is invalid") }
        var user = UserRecord(
            uid: entry.uid, email: email, emailVerified: entry.emailVerified ?? false, displayName: displayName, photoURL: photoURL,
            phoneNumber: phone, passwordHash: passwordHash, passwordUpdatedAt: passwordHash == nil && entry.rawPassword == nil ? nil : now,
            disabled: entry.disabled ?? false, customAttributes: claims,
            createdAt: try entry.createdAt.map { try time($0, "createdAt") } ?? now,
            lastLoginAt: try entry.lastLoginAt.map { try time($0, "lastLoginAt") },
            validSince: now, providers: links, secondFactors: secondFactors)
        if user.isAnonymous { user.scheduledDeletionAt = UserRecord.neverDeleted }
        return user
    }
}

/// The password hashes of one batch: its `hashAlgorithm` and parameters (``PasswordHashImport``), applied to each
/// entry's hash and salt.
struct ImportedHashes: Sendable {
    let options: PasswordHashImport?
    let budget: PasswordHashBudget?

    /// Throws for the whole batch: an unknown algorithm, parameters out of range, a key that is not base64, or
    /// hashes without an algorithm.
    init(_ batch: AccountImport.Batch, budget: PasswordHashBudget?) throws {
        self.budget = budget
        guard let name = batch.hashAlgorithm else {
            if batch.entries.contains(where: { $0.passwordHash != nil }) {
                throw HearthError(.invalidHashParameter, detail: "INVALID_HASH_ALGORITHM : A hash algorithm must be given with password hashes.")
            }
            options = nil
            return
        }
        func bytes(_ text: String?, _ field: String) throws -> [UInt8] {
            guard let text else { return [] }
            guard let bytes = Self.bytes(text) else { throw HearthError(.invalidArgument, detail: "/\(field) must be base64") }
            return bytes
        }
        let options = PasswordHashImport(
            algorithm: try PasswordHashImport.Algorithm(wireName: String(name.prefix(64))),
            signerKey: try bytes(batch.signerKey, "signerKey"), saltSeparator: try bytes(batch.saltSeparator, "saltSeparator"),
            rounds: batch.rounds, memoryCost: batch.memoryCost, cpuMemCost: batch.cpuMemCost,
            parallelization: batch.parallelization, blockSize: batch.blockSize, dkLen: batch.dkLen,
            passwordHashOrder: batch.passwordHashOrder)
        try options.validate(within: budget)
        self.options = options
    }

    /// The hash to store for one entry, or the message of its failure.
    func stored(hash: String, salt: String?) -> Result<String, AccountImport.Failure> {
        func failure(_ message: String) -> Result<String, AccountImport.Failure> { .failure(AccountImport.Failure(index: -1, message: message)) }
        guard let options else { return failure("Invalid password hash.") }
        guard let hashBytes = Self.bytes(hash) else { return failure("Invalid password hash for hash algorithm \(options.algorithm.rawValue).") }
        guard let saltBytes = salt.map(Self.bytes) ?? [] else { return failure("Invalid password salt.") }
        do {
            return .success(try options.storedHash(passwordHash: hashBytes, salt: saltBytes, within: budget))
        } catch let error as HearthError {
            // "NAME : message": the message alone, as per-user errors read.
            let message = error.detail.map { $0.split(separator: ":", maxSplits: 1).last.map { $0.trimmingCharacters(in: .whitespaces) } ?? $0 }
            return failure(message ?? "Invalid password hash.")
        } catch {
            return failure("Invalid password hash.")
        }
    }

    /// Bytes as proto3 JSON carries them: base64 in either alphabet, with or without padding.
    static func bytes(_ text: String) -> [UInt8]? {
        var standard = String(text.map { $0 == "-" ? "+" : $0 == "_" ? "/" : $0 })
        standard += String(repeating: "=", count: (4 - standard.utf8.count % 4) % 4)
        return Data(base64Encoded: standard).map { [UInt8]($0) }
    }
}
