import Foundation
import HearthCore
import HearthWire

extension UpdateRequest {
    /// The names of the fields an update asks to change (never their values), for the audit event.
    public var changedFieldNames: [String] {
        let input = self
        let fields: [(String, Bool)] = [
            ("email", input.email != nil), ("password", input.password != nil), ("displayName", input.displayName != nil),
            ("photoUrl", input.photoUrl != nil), ("phoneNumber", input.phoneNumber != nil), ("emailVerified", input.emailVerified != nil),
            ("disableUser", input.disableUser != nil), ("customAttributes", input.customAttributes != nil),
            ("validSince", input.validSince != nil), ("createdAt", input.createdAt != nil), ("lastLoginAt", input.lastLoginAt != nil),
            ("linkProviderUserInfo", input.linkProviderUserInfo != nil), ("deleteAttribute", !(input.deleteAttribute ?? []).isEmpty),
            ("deleteProvider", !(input.deleteProvider ?? []).isEmpty), ("mfa", input.mfa != nil),
            ("deletePasskey", !(input.deletePasskey ?? []).isEmpty),
        ]
        return fields.filter(\.1).map(\.0)
    }
}

extension AdministratorChange {
    /// The administrator's change the request asks for, every field checked.
    public init(_ input: UpdateRequest) throws {
        self.init(profile: try OwnAccountUpdate.profileUpdate(OwnAccountUpdate.Input(input, languageCode: nil)))
        self.phoneNumber = try input.phoneNumber.map(AdminInput.checkedPhoneNumber)
        self.emailVerified = input.emailVerified
        self.disabled = input.disableUser
        if let claims = input.customAttributes { self.customClaims = .some(try CustomClaims.validated(claims)) }
        self.validSince = try input.validSince.map { try AdminInput.seconds($0.value) }
        self.createdAt = try input.createdAt.map { try AdminInput.milliseconds($0.value) }
        self.lastLoginAt = try input.lastLoginAt.map { try AdminInput.milliseconds($0.value) }
        self.secondFactors = input.mfa.map { ($0.enrollments ?? []).map(AdministeredSecondFactors.Entry.init) }
        self.removedPasskeys = input.deletePasskey ?? []
        if let info = input.linkProviderUserInfo {
            guard !info.providerId.isEmpty else { throw HearthError(.missingProviderID) }
            guard let rawID = info.rawId, !rawID.isEmpty else { throw HearthError(.missingRawID) }
            guard !["password", "phone"].contains(info.providerId), UserText.isValidUID(rawID), UserText.isValidUID(info.providerId) else {
                throw HearthError(.invalidProviderID, detail: info.providerId)
            }
            self.link = ProviderLink(
                providerID: info.providerId, rawID: rawID, email: try info.email.map(AdminInput.normalizedEmail),
                displayName: try info.displayName.map(UserText.displayName), photoURL: try info.photoUrl.map(UserText.photoURL),
                phoneNumber: try info.phoneNumber.map(AdminInput.checkedPhoneNumber), screenName: try info.screenName.map(UserText.displayName))
        }
    }
}

extension UserQuery {
    /// The store's query for `input`. Only the first expression counts, and in it the first of `email`
    /// (matched without regard to case), `phoneNumber`, `userId` (Firebase's `SqlExpression`).
    public init(_ input: QueryRequest) throws {
        var filter: UserQuery.Filter?
        if let expression = input.expression?.first {
            if let email = expression.email {
                filter = .email(EmailAddress.normalize(email) ?? email.lowercased())
            } else if let phone = expression.phoneNumber {
                filter = .phoneNumber(PhoneNumber.validated(phone) ?? phone)
            } else if let uid = expression.userId {
                filter = .uid(uid)
            }
        }
        let sortKey: UserQuery.SortKey =
            switch input.sortBy?.name {
            case "NAME": .displayName
            case "CREATED_AT": .createdAt
            case "LAST_LOGIN_AT": .lastLoginAt
            case "USER_EMAIL": .email
            default: .uid
            }
        try self.init(
            filter: filter, sortKey: sortKey, descending: input.order?.name == "DESC", offset: input.offset?.value ?? 0,
            limit: input.limit?.value ?? 0)
    }
}

extension UserRecord {
    /// The user an administrator's `accounts:signUp` creates: any uid, e-mail, phone number, names, verified and
    /// disabled flags, second factors; each checked.
    public init(administratorSignUp input: SignUpRequest, now: Date) throws {
        self.init(
            uid: try input.localId.map(AdminInput.checkedUID) ?? UserRecord.makeUID(), email: try input.email.map(AdminInput.normalizedEmail),
            emailVerified: input.emailVerified ?? false, displayName: try input.displayName.map(UserText.displayName),
            photoURL: try input.photoUrl.map(UserText.photoURL), phoneNumber: try input.phoneNumber.map(AdminInput.checkedPhoneNumber),
            disabled: input.disabled ?? false, createdAt: now, validSince: now,
            secondFactors: try AdministeredSecondFactors.created((input.mfaInfo ?? []).map(AdministeredSecondFactors.Entry.init), now: now))
    }
}

/// The checks and limits of administrators' input, shared by the admin routes and imports.
public enum AdminInput {
    public static let maxBatch = AdministeredAccounts.maxBatch
    public static let defaultPage = 20

    /// A user as a listing shows it: with the hash and salt (base64url, as Google writes bytes) when the
    /// password hash is Hearth's scrypt at the server's cost, so an export can carry it (see
    /// ``PasswordHasher/exportOptions``); with the redacted marker otherwise.
    public static func exported(_ user: UserRecord, hasher: PasswordHasher) -> UserInfo {
        var info = UserInfo(user)
        if let stored = user.passwordHash, let exported = hasher.exported(stored) {
            info.passwordHash = base64URL(exported.hash)
            info.salt = base64URL(exported.salt)
        }
        return info
    }

    public static func base64URL(_ bytes: [UInt8]) -> String {
        Data(bytes).base64EncodedString().replacingOccurrences(of: "+", with: "-").replacingOccurrences(of: "/", with: "_")
    }

    public static func checkedUID(_ uid: String) throws -> String {
        guard UserText.isValidUID(uid) else {
            throw HearthError(.invalidArgument, detail: "localId must be a non-empty string of at most 128 printable characters.")
        }
        return uid
    }

    public static func normalizedEmail(_ raw: String) throws -> String {
        guard let email = EmailAddress.normalize(raw) else { throw HearthError(.invalidEmail) }
        return email
    }

    public static func checkedPhoneNumber(_ raw: String) throws -> String {
        guard let phone = PhoneNumber.validated(raw) else { throw HearthError(.invalidPhoneNumber) }
        return phone
    }

    /// Seconds since 1970 that a date can hold and the store can write (year 1970 to 9999).
    public static func seconds(_ value: Int64) throws -> Date {
        guard (0...253_402_300_799).contains(value) else { throw HearthError(.invalidArgument, detail: "a time must be between 1970 and 9999") }
        return Date(timeIntervalSince1970: TimeInterval(value))
    }

    public static func milliseconds(_ value: Int64) throws -> Date {
        guard let time = AccountImport.time(milliseconds: value) else {
            throw HearthError(.invalidArgument, detail: "a time must be between 1970 and 9999")
        }
        return time
    }
}
