import Foundation
import HearthWire

/// A user as the admin API describes it.
public struct UserRecord: Sendable, Equatable {
    public struct ProviderInfo: Sendable, Equatable {
        public let providerID: String
        public let uid: String?
        public let email: String?
        public let displayName: String?
        public let photoURL: String?
        public let phoneNumber: String?
    }

    public let uid: String
    public let email: String?
    public let emailVerified: Bool
    public let displayName: String?
    public let photoURL: String?
    public let phoneNumber: String?
    public let disabled: Bool
    /// The developer's claims, copied into the user's ID tokens.
    public let customClaims: [String: ClaimValue]
    public let providers: [ProviderInfo]
    /// Tokens of sign-ins before this instant are revoked (whole seconds).
    public let tokensValidAfterTime: Date?
    public let creationTime: Date?
    public let lastSignInTime: Date?
    /// When an ID token was last handed to the user, by a sign-in or a refresh (firebase-admin's
    /// `metadata.lastRefreshTime`); `nil` before the first.
    public let lastRefreshTime: Date?
    /// The user's second factors; `nil` when there are none (as firebase-admin's `multiFactor` is then undefined).
    public let multiFactor: MultiFactorSettings?
    /// The tenant of a tenant's user (the server's `tenantId`); `nil` for the project's own.
    public let tenantID: String?

    init(_ info: UserInfo) {
        uid = info.localId
        tenantID = info.tenantId
        email = info.email
        emailVerified = info.emailVerified ?? false
        displayName = info.displayName
        photoURL = info.photoUrl
        phoneNumber = info.phoneNumber
        disabled = info.disabled ?? false
        if let text = info.customAttributes, case .object(let claims)? = try? JSONDecoder().decode(ClaimValue.self, from: Data(text.utf8)) {
            customClaims = claims
        } else {
            customClaims = [:]
        }
        providers = (info.providerUserInfo ?? []).map {
            ProviderInfo(
                providerID: $0.providerId, uid: $0.rawId, email: $0.email, displayName: $0.displayName, photoURL: $0.photoUrl,
                phoneNumber: $0.phoneNumber)
        }
        tokensValidAfterTime = info.validSince.map { Date(timeIntervalSince1970: TimeInterval($0.value)) }
        creationTime = info.createdAt.map { Date(timeIntervalSince1970: TimeInterval($0.value) / 1_000) }
        lastSignInTime = info.lastLoginAt.map { Date(timeIntervalSince1970: TimeInterval($0.value) / 1_000) }
        // RFC 3339, with or without fractions of a second.
        lastRefreshTime = info.lastRefreshAt.flatMap { text in
            (try? Date.ISO8601FormatStyle(includingFractionalSeconds: true).parse(text)) ?? (try? Date.ISO8601FormatStyle().parse(text))
        }
        let factors = (info.mfaInfo ?? []).compactMap(MultiFactorInfo.init)
        multiFactor = factors.isEmpty ? nil : MultiFactorSettings(enrolledFactors: factors)
    }
}

/// A user's second factors (``UserRecord/multiFactor``).
public struct MultiFactorSettings: Sendable, Equatable {
    public let enrolledFactors: [MultiFactorInfo]
}

/// One enrolled second factor, as firebase-admin's `PhoneMultiFactorInfo` and `TotpMultiFactorInfo` describe it.
public struct MultiFactorInfo: Sendable, Equatable {
    /// The enrolment's id (`mfaEnrollmentId`).
    public let uid: String
    public let displayName: String?
    public let enrollmentTime: Date?
    /// `phone` or `totp`.
    public let factorID: String
    /// A phone factor's number (E.164); `nil` for a TOTP factor.
    public let phoneNumber: String?

    /// `nil` for a factor of a kind this SDK does not know, as firebase-admin leaves those out.
    init?(_ wire: MFAEnrollment) {
        guard let id = wire.mfaEnrollmentId else { return nil }
        if let number = wire.phoneInfo {
            factorID = "phone"
            phoneNumber = number
        } else if wire.totpInfo != nil {
            factorID = "totp"
            phoneNumber = nil
        } else {
            return nil
        }
        uid = id
        displayName = wire.displayName
        enrollmentTime = wire.enrolledAt.flatMap(Self.time)
    }

    static func time(_ text: String) -> Date? {
        if let date = try? Date(text, strategy: Date.ISO8601FormatStyle(includingFractionalSeconds: true)) { return date }
        return try? Date(text, strategy: Date.ISO8601FormatStyle())
    }
}

/// The second factors to give a user (``NewUser/multiFactor``, ``UserUpdate/multiFactor``,
/// ``ImportedUser/multiFactor``), as firebase-admin's `MultiFactorCreateSettings` / `MultiFactorUpdateSettings`. In an
/// update the list replaces the user's factors, and an empty list removes them all.
public struct MultiFactorUpdate: Sendable, Equatable {
    public var enrolledFactors: [MultiFactorInfoRequest]

    public init(enrolledFactors: [MultiFactorInfoRequest]) { self.enrolledFactors = enrolledFactors }
}

/// One second factor of a ``MultiFactorUpdate``: a phone factor (the only kind an administrator creates), or, in an
/// update, a TOTP factor the user already has, kept by its `uid` (its secret stays on the server).
public struct MultiFactorInfoRequest: Sendable, Equatable {
    /// The enrolment's id: made by the server for a new user's factor when `nil`; needed in an update.
    public var uid: String?
    public var displayName: String?
    /// Now when `nil`.
    public var enrollmentTime: Date?
    /// `phone` or `totp`.
    public var factorID: String
    /// A phone factor's number (E.164).
    public var phoneNumber: String?

    public init(uid: String? = nil, displayName: String? = nil, enrollmentTime: Date? = nil, factorID: String, phoneNumber: String? = nil) {
        self.uid = uid
        self.displayName = displayName
        self.enrollmentTime = enrollmentTime
        self.factorID = factorID
        self.phoneNumber = phoneNumber
    }

    /// A phone factor.
    public static func phone(_ phoneNumber: String, displayName: String? = nil, uid: String? = nil, enrollmentTime: Date? = nil) -> Self {
        Self(uid: uid, displayName: displayName, enrollmentTime: enrollmentTime, factorID: "phone", phoneNumber: phoneNumber)
    }

    /// In an update, the user's TOTP factor `uid`, kept.
    public static func totp(uid: String, displayName: String? = nil) -> Self {
        Self(uid: uid, displayName: displayName, factorID: "totp")
    }

    /// An enrolled factor as it is: list the user's factors this way to keep them beside a new one.
    public init(_ factor: MultiFactorInfo) {
        self.init(
            uid: factor.uid, displayName: factor.displayName, enrollmentTime: factor.enrollmentTime, factorID: factor.factorID,
            phoneNumber: factor.phoneNumber)
    }
}

/// A change to one field of a user: a new value, or its removal.
public enum FieldChange<Value: Sendable & Equatable>: Sendable, Equatable {
    case set(Value)
    case remove
}

/// The fields of a new user; `nil` leaves a field out.
public struct NewUser: Sendable, Equatable {
    /// The uid to give the user; the server chooses one when `nil`.
    public var uid: String?
    public var email: String?
    public var emailVerified: Bool?
    public var password: String?
    public var displayName: String?
    public var photoURL: String?
    public var phoneNumber: String?
    public var disabled: Bool?
    /// Phone second factors.
    public var multiFactor: MultiFactorUpdate?

    public init(
        uid: String? = nil, email: String? = nil, emailVerified: Bool? = nil, password: String? = nil, displayName: String? = nil,
        photoURL: String? = nil, phoneNumber: String? = nil, disabled: Bool? = nil, multiFactor: MultiFactorUpdate? = nil
    ) {
        self.uid = uid
        self.email = email
        self.emailVerified = emailVerified
        self.password = password
        self.displayName = displayName
        self.photoURL = photoURL
        self.phoneNumber = phoneNumber
        self.disabled = disabled
        self.multiFactor = multiFactor
    }
}

/// Changes to a user; `nil` leaves a field as it is.
public struct UserUpdate: Sendable, Equatable {
    public var email: String?
    public var emailVerified: Bool?
    public var password: String?
    public var displayName: FieldChange<String>?
    public var photoURL: FieldChange<String>?
    public var phoneNumber: FieldChange<String>?
    public var disabled: Bool?
    /// The second factors replacing the user's; an empty list removes them all (and the recovery codes).
    public var multiFactor: MultiFactorUpdate?

    public init(
        email: String? = nil, emailVerified: Bool? = nil, password: String? = nil, displayName: FieldChange<String>? = nil,
        photoURL: FieldChange<String>? = nil, phoneNumber: FieldChange<String>? = nil, disabled: Bool? = nil,
        multiFactor: MultiFactorUpdate? = nil
    ) {
        self.email = email
        self.emailVerified = emailVerified
        self.password = password
        self.displayName = displayName
        self.photoURL = photoURL
        self.phoneNumber = phoneNumber
        self.disabled = disabled
        self.multiFactor = multiFactor
    }
}

/// One page of ``HearthAdmin/listUsers(pageSize:pageToken:)``.
public struct UserPage: Sendable, Equatable {
    public let users: [UserRecord]
    /// Pass it to the next call for the next page; `nil` on the last page.
    public let nextPageToken: String?
}

/// What ``HearthAdmin/deleteUsers(_:)`` and ``HearthAdmin/importUsers(_:hash:)`` did: failures by index in the list given.
public struct BatchResult: Sendable, Equatable {
    public struct Failure: Sendable, Equatable {
        public let index: Int
        public let message: String
    }

    public let successCount: Int
    public var failureCount: Int { errors.count }
    public let errors: [Failure]
}

/// A user to import with ``HearthAdmin/importUsers(_:hash:)``: the password as a hash of another system.
public struct ImportedUser: Sendable, Equatable {
    public var uid: String
    public var email: String?
    public var emailVerified: Bool?
    public var displayName: String?
    public var photoURL: String?
    public var phoneNumber: String?
    public var disabled: Bool?
    public var customClaims: [String: ClaimValue]?
    public var passwordHash: Data?
    public var passwordSalt: Data?
    /// Phone second factors (the user needs a verified e-mail address).
    public var multiFactor: MultiFactorUpdate?

    public init(
        uid: String, email: String? = nil, emailVerified: Bool? = nil, displayName: String? = nil, photoURL: String? = nil,
        phoneNumber: String? = nil, disabled: Bool? = nil, customClaims: [String: ClaimValue]? = nil, passwordHash: Data? = nil,
        passwordSalt: Data? = nil, multiFactor: MultiFactorUpdate? = nil
    ) {
        self.uid = uid
        self.email = email
        self.emailVerified = emailVerified
        self.displayName = displayName
        self.photoURL = photoURL
        self.phoneNumber = phoneNumber
        self.disabled = disabled
        self.customClaims = customClaims
        self.passwordHash = passwordHash
        self.passwordSalt = passwordSalt
        self.multiFactor = multiFactor
    }
}

/// How imported password hashes were made: Identity Toolkit's `hashAlgorithm` name and its parameters.
public struct PasswordHashOptions: Sendable, Equatable {
    /// `SCRYPT`, `STANDARD_SCRYPT`, `BCRYPT`, `PBKDF_SHA1`, `PBKDF2_SHA256`, `HMAC_SHA256`, `SHA256`, `MD5`, …
    public var algorithm: String
    /// The signer key of Firebase's scrypt, or the HMAC key.
    public var key: Data?
    public var saltSeparator: Data?
    public var rounds: Int?
    public var memoryCost: Int?
    /// STANDARD_SCRYPT's parameters.
    public var blockSize: Int?
    public var parallelization: Int?
    public var derivedKeyLength: Int?

    public init(
        algorithm: String, key: Data? = nil, saltSeparator: Data? = nil, rounds: Int? = nil, memoryCost: Int? = nil, blockSize: Int? = nil,
        parallelization: Int? = nil, derivedKeyLength: Int? = nil
    ) {
        self.algorithm = algorithm
        self.key = key
        self.saltSeparator = saltSeparator
        self.rounds = rounds
        self.memoryCost = memoryCost
        self.blockSize = blockSize
        self.parallelization = parallelization
        self.derivedKeyLength = derivedKeyLength
    }
}
