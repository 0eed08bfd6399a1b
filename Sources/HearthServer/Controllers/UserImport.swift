import Foundation
import HearthCore
import HearthWire

/// One `accounts:batchCreate`: up to 1000 users with their links, claims, times, flags and password
/// hashes made elsewhere. A user that cannot be imported is reported by its index, with Identity
/// Toolkit's message, and the others are imported; a problem with the whole batch (no users, a uid twice)
/// imports nothing.
struct UserImport: Sendable {
    struct Failure: Sendable, Equatable {
        var index: Int
        var message: String
    }

    /// The users that passed their checks, by index, ready to store.
    private(set) var records: [(index: Int, user: UserRecord)] = []
    private(set) var failures: [Failure] = []
    let allowOverwrite: Bool

    /// `budget`: imported hashes whose checks would take longer are refused (``PasswordHashBudget``).
    init(_ input: BatchCreateRequest, now: Date, budget: PasswordHashBudget? = nil) throws {
        let users = input.users ?? []
        guard !users.isEmpty else { throw HearthError(.missingUserAccount) }
        guard users.count <= AdminInput.maxBatch else {
            throw HearthError(.invalidArgument, detail: "At most 1000 users in one batch.")
        }
        allowOverwrite = input.allowOverwrite == true
        if !allowOverwrite {
            var uids: Set<String> = []
            for user in users where !uids.insert(user.localId).inserted {
                throw HearthError(.duplicateLocalID, detail: String(user.localId.prefix(128)))
            }
        }
        if input.sanityCheck == true { try Self.sanityCheck(users) }
        let hashing = try ImportedHashing(input, budget: budget)
        for (index, info) in users.enumerated() {
            do {
                records.append((index, try Self.record(info, hashing: hashing, now: now)))
            } catch let failure as Failure {
                failures.append(Failure(index: index, message: failure.message))
            }
        }
    }

    /// Stores the users that passed their checks, each in its own transaction; returns every failure, by index.
    func run(into store: any HearthStore) async throws -> [Failure] {
        var failures = self.failures
        for (index, user) in records {
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

    /// With `sanityCheck`: no e-mail and no provider identity twice in the batch.
    private static func sanityCheck(_ users: [UserInfo]) throws {
        var emails: Set<String> = []
        var identities: Set<String> = []
        for user in users {
            if let email = user.email.flatMap(EmailAddress.normalize), !emails.insert(email).inserted {
                throw HearthError(.duplicateEmail, detail: email)
            }
            for provider in user.providerUserInfo ?? [] {
                guard let rawID = provider.rawId else { continue }
                if !identities.insert("\(provider.providerId)\u{0}\(rawID)").inserted {
                    throw HearthError(.duplicateRawID, detail: "Provider id(\(provider.providerId)), Raw id(\(rawID))")
                }
            }
        }
    }

    /// The record of one imported user, or the ``Failure`` (its index filled in by the caller).
    private static func record(_ info: UserInfo, hashing: ImportedHashing, now: Date) throws -> UserRecord {
        func fail(_ message: String) -> Failure { Failure(index: -1, message: message) }
        func time(_ milliseconds: WireInt64, _ name: String) throws -> Date {
            guard let date = try? AdminInput.milliseconds(milliseconds.value) else { throw fail("\(name) is invalid") }
            return date
        }
        guard !info.localId.isEmpty else { throw fail("localId is missing") }
        guard UserText.isValidUID(info.localId) else { throw fail("localId is invalid") }
        let email = try info.email.map { raw -> String in
            guard let email = EmailAddress.normalize(raw) else { throw fail("email is invalid") }
            return email
        }
        let phone = try info.phoneNumber.map { raw -> String in
            guard let phone = PhoneNumber.validated(raw) else { throw fail("phone number format is invalid") }
            return phone
        }
        let claims: String?
        do {
            claims = try info.customAttributes.flatMap(CustomClaims.validated)
        } catch let error as HearthError {
            switch error.code {
            case .forbiddenClaim: throw fail("Custom claims provided include a reserved claim.")
            case .claimsTooLarge: throw fail("Custom claims provided are too large.")
            default: throw fail("Invalid custom claims provided.")
            }
        }
        let displayName = try info.displayName.map { raw -> String in
            guard let name = try? UserText.displayName(raw) else { throw fail("display name is invalid") }
            return name
        }
        let photoURL = try info.photoUrl.map { raw -> String in
            guard let url = try? UserText.photoURL(raw) else { throw fail("photo url is invalid") }
            return url
        }
        var links: [ProviderLink] = []
        for provider in info.providerUserInfo ?? [] where !["password", "phone"].contains(provider.providerId) {
            guard !provider.providerId.isEmpty, let rawID = provider.rawId, !rawID.isEmpty else {
                throw fail("federatedId or (providerId & rawId) is required")
            }
            guard UserText.isValidUID(provider.providerId), UserText.isValidUID(rawID) else { throw fail("provider id or raw id is invalid") }
            guard !links.contains(where: { $0.providerID == provider.providerId }) else { throw fail("a provider is linked twice") }
            links.append(
                ProviderLink(
                    providerID: provider.providerId, rawID: rawID, email: provider.email.flatMap(EmailAddress.normalize),
                    displayName: provider.displayName.flatMap { try? UserText.displayName($0) },
                    photoURL: provider.photoUrl.flatMap { try? UserText.photoURL($0) },
                    phoneNumber: provider.phoneNumber.flatMap(PhoneNumber.validated),
                    screenName: provider.screenName.flatMap { try? UserText.displayName($0) }))
        }
        var passwordHash: String?
        if let hash = info.passwordHash {
            switch hashing.stored(hash: hash, salt: info.salt) {
            case .success(let stored): passwordHash = stored
            case .failure(let failure): throw failure
            }
        }
        guard UserText.isStorable(info.localId) else { throw fail("localId is invalid") }
        var user = UserRecord(
            uid: info.localId, email: email, emailVerified: info.emailVerified ?? false, displayName: displayName, photoURL: photoURL,
            phoneNumber: phone, passwordHash: passwordHash, passwordUpdatedAt: passwordHash == nil ? nil : now,
            disabled: info.disabled ?? false, customAttributes: claims,
            createdAt: try info.createdAt.map { try time($0, "createdAt") } ?? now,
            lastLoginAt: try info.lastLoginAt.map { try time($0, "lastLoginAt") },
            validSince: now, providers: links)
        if user.isAnonymous { user.scheduledDeletionAt = UserRecord.neverDeleted }
        return user
    }
}

extension UserImport.Failure: Error {}

/// The password hashes of one batch: the request's `hashAlgorithm` and parameters (``PasswordHashImport``),
/// applied to each user's `passwordHash` and `salt`.
struct ImportedHashing: Sendable {
    let options: PasswordHashImport?
    let budget: PasswordHashBudget?

    /// Throws for the whole batch: an unknown algorithm, parameters out of range, a key that is not base64,
    /// or hashes without an algorithm.
    init(_ input: BatchCreateRequest, budget: PasswordHashBudget? = nil) throws {
        self.budget = budget
        guard let name = input.hashAlgorithm else {
            if (input.users ?? []).contains(where: { $0.passwordHash != nil }) {
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
        func number(_ value: WireInt32?) -> Int? { value.map { Int($0.value) } }
        let options = PasswordHashImport(
            algorithm: try PasswordHashImport.Algorithm(wireName: String(name.prefix(64))),
            signerKey: try bytes(input.signerKey, "signerKey"), saltSeparator: try bytes(input.saltSeparator, "saltSeparator"),
            rounds: number(input.rounds), memoryCost: number(input.memoryCost), cpuMemCost: number(input.cpuMemCost),
            parallelization: number(input.parallelization), blockSize: number(input.blockSize), dkLen: number(input.dkLen),
            passwordHashOrder: input.passwordHashOrder.flatMap { PasswordHashImport.Order(rawValue: $0.name) })
        try options.validate(within: budget)
        self.options = options
    }

    /// The hash to store for one user, or the message of its failure.
    func stored(hash: String, salt: String?) -> Result<String, UserImport.Failure> {
        func failure(_ message: String) -> Result<String, UserImport.Failure> { .failure(UserImport.Failure(index: -1, message: message)) }
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
