import Foundation

/// What `accounts:*` do for an administrator (an Admin SDK, HearthAdmin, `hearth users`): create a user with a chosen
/// uid, look users up, change anything about one (no recent sign-in, no last-provider rule), delete one.
public struct AdministeredAccounts: Sendable {
    public typealias Store = AccountStore & ActionCodeStore & PasskeyStore

    public let store: any Store
    public let passwords: any PasswordChecking
    public let audit: any AuditRecording
    public let clock: WallClock

    public init(store: any Store, passwords: any PasswordChecking, audit: any AuditRecording, clock: WallClock) {
        self.store = store
        self.passwords = passwords
        self.audit = audit
        self.clock = clock
    }

    /// Creates `user` as given (its uid, e-mail, phone, names and flags already checked), with `password` hashed.
    /// Throws `DUPLICATE_LOCAL_ID`, `EMAIL_EXISTS`, `PHONE_NUMBER_EXISTS`, `WEAK_PASSWORD`.
    public func create(_ user: UserRecord, password: String?, from origin: AuditOrigin) async throws -> UserRecord {
        try password.map(PasswordPolicy.check)
        var user = user
        if try await store.user(uid: user.uid) != nil { throw HearthError(.duplicateLocalID) }
        if let email = user.email, try await store.user(email: email) != nil { throw HearthError(.emailExists) }
        if let phone = user.phoneNumber, try await store.user(phoneNumber: phone) != nil { throw HearthError(.phoneNumberExists) }
        if let password {
            user.passwordHash = try await passwords.hash(password)
            user.passwordUpdatedAt = user.createdAt
        }
        // Not an anonymous sign-in, although it may have no credential yet: the clean-up leaves it alone.
        if user.isAnonymous { user.scheduledDeletionAt = UserRecord.neverDeleted }
        do {
            try await store.createUser(user, session: nil)
        } catch StoreConflict.uid {
            throw HearthError(.duplicateLocalID, reason: "uid taken in the write")
        } catch let conflict as StoreConflict {
            throw conflict.error
        }
        await record(.adminUserCreated, uid: user.uid, origin: origin)
        return user
    }

    /// Changes user `uid` as `change` says, `password` hashed. A new password voids reset links; a new address voids
    /// every link sent for the old one. `fields` names what was asked (never the values) for the audit event.
    /// Throws `USER_NOT_FOUND`, `EMAIL_EXISTS`, `PHONE_NUMBER_EXISTS`, `FEDERATED_USER_ID_ALREADY_LINKED`, `USER_DISABLED` (an
    /// identity linked to a disabled account), `PASSKEY_CREDENTIAL_NOT_FOUND` (``PasskeyRemoval``), and the second factors'
    /// errors (``AdministeredSecondFactors``).
    public func update(uid: String, _ change: AdministratorChange, password: String?, fields: [String], from origin: AuditOrigin)
        async throws -> UserRecord
    {
        guard UserText.isStorable(uid) else { throw HearthError(.userNotFound) }
        let now = clock.now
        if let email = change.profile.email, let owner = try await store.user(email: email), owner.uid != uid { throw HearthError(.emailExists) }
        if let phone = change.phoneNumber, let owner = try await store.user(phoneNumber: phone), owner.uid != uid {
            throw HearthError(.phoneNumberExists)
        }
        if let link = change.link, let owner = try await store.user(providerID: link.providerID, rawID: link.rawID), owner.uid != uid {
            throw HearthError(.federatedUserIDAlreadyLinked)
        }
        guard let before = try await store.user(uid: uid) else { throw HearthError(.userNotFound) }
        try await PasskeyRemoval(store: store, audit: audit, clock: clock).remove(
            change.removedPasskeys, uid: uid, actor: .administrator, from: origin)
        let hash = try await password.asyncMap { try await passwords.hash($0) }
        let user = try await StoreConflict.mapped {
            try await store.updateUser(uid: uid, session: nil) { user in try change.apply(to: &user, passwordHash: hash, now: now) }
        }
        if before.email != user.email {
            try await store.deleteActionCodes(uid: uid, kinds: Set(ActionCodeKind.allCases))
        } else if hash != nil {
            try await store.deleteActionCodes(uid: uid, kinds: [.passwordReset])
        }
        await record(.adminUserUpdated, uid: uid, origin: origin, details: ["fields": fields.joined(separator: ",")])
        return user
    }

    /// Deletes user `uid`: `USER_NOT_FOUND` when there is none.
    public func delete(uid: String, from origin: AuditOrigin) async throws {
        guard UserText.isStorable(uid), try await store.deleteUser(uid: uid) else { throw HearthError(.userNotFound) }
        await record(.adminUserDeleted, uid: uid, origin: origin)
    }

    /// Deletes users `uids` (at most ``maxBatch``), each with its audit event; unknown uids are skipped. Without
    /// `force` an enabled user stays: it is answered, with its place in `uids`.
    public func delete(uids: [String], force: Bool, from origin: AuditOrigin) async throws -> [(index: Int, uid: String)] {
        var refused: [(index: Int, uid: String)] = []
        for (index, uid) in uids.enumerated() where UserText.isStorable(uid) {
            if !force {
                guard let user = try await store.user(uid: uid) else { continue }
                guard user.disabled else {
                    refused.append((index, uid))
                    continue
                }
            }
            if try await store.deleteUser(uid: uid) { await record(.adminUserDeleted, uid: uid, origin: origin, details: ["batch": "true"]) }
        }
        return refused
    }

    /// A provider identity to look a user up by: `password` (the e-mail), `phone` (the number) or a provider's.
    public struct Identity: Sendable {
        public var providerID: String
        public var rawID: String
        public init(providerID: String, rawID: String) {
            self.providerID = providerID
            self.rawID = rawID
        }
    }

    /// The most identifiers one lookup, deletion or listing page may name.
    public static let maxBatch = 1_000

    /// Every user matching any of the ids, e-mails, phone numbers and identities, each once, in that order.
    /// Identifiers that cannot name a stored user (a NUL, a malformed e-mail or number) match nobody.
    public func lookup(uids: [String], emails: [String], phoneNumbers: [String], identities: [Identity]) async throws -> [UserRecord] {
        guard uids.count + emails.count + phoneNumbers.count + identities.count <= Self.maxBatch else {
            throw HearthError(.invalidArgument, detail: "At most \(Self.maxBatch) identifiers at once.")
        }
        var found: [UserRecord] = []
        var seen: Set<String> = []
        func add(_ user: UserRecord?) {
            guard let user, seen.insert(user.uid).inserted else { return }
            found.append(user)
        }
        // Text with a NUL is never stored (PostgreSQL cannot hold it): such an identifier matches nobody.
        for uid in uids where UserText.isStorable(uid) { add(try await store.user(uid: uid)) }
        for email in emails {
            if let email = EmailAddress.normalize(email) { add(try await store.user(email: email)) }
        }
        for phone in phoneNumbers {
            if let phone = PhoneNumber.validated(phone) { add(try await store.user(phoneNumber: phone)) }
        }
        for identity in identities where UserText.isStorable(identity.providerID + identity.rawID) {
            switch identity.providerID {
            case "password":
                if let email = EmailAddress.normalize(identity.rawID) { add(try await store.user(email: email)) }
            case "phone": add(try await store.user(phoneNumber: identity.rawID))
            default: add(try await store.user(providerID: identity.providerID, rawID: identity.rawID))
            }
        }
        return found
    }

    private func record(_ kind: AuditEvent.Kind, uid: String, origin: AuditOrigin, details: [String: String] = [:]) async {
        await audit.record(
            AuditEvent(
                time: clock.now, kind: kind, uid: uid, actor: .administrator, actorID: origin.actorID, clientAddress: origin.address,
                details: details))
    }
}
