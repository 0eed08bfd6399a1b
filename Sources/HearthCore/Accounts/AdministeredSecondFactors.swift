import Foundation

/// Second factors as an administrator writes them: the `mfaInfo` of an admin `accounts:signUp` and of
/// `accounts:batchCreate`, the `mfa.enrollments` of an admin `accounts:update` (the Admin SDKs'
/// `multiFactor.enrolledFactors`).
///
/// An administrator creates phone factors only, as the Admin SDKs do: a TOTP factor's secret is made at enrolment and
/// never leaves the server. An update may keep a TOTP factor the user already has by listing its id with `totpInfo`.
public enum AdministeredSecondFactors {
    /// One factor as the request names it, unchecked.
    public struct Entry: Sendable, Equatable {
        /// `mfaEnrollmentId`.
        public var enrollmentID: String?
        public var displayName: String?
        /// RFC 3339 (`2026-11-27T10:00:00.000Z`); now when absent.
        public var enrolledAt: String?
        /// `phoneInfo` (or `unobfuscatedPhoneInfo`).
        public var phoneNumber: String?
        /// `totpInfo` and no number: an existing TOTP factor, named by its id.
        public var isTOTP: Bool

        public init(
            enrollmentID: String? = nil, displayName: String? = nil, enrolledAt: String? = nil, phoneNumber: String? = nil,
            isTOTP: Bool = false
        ) {
            self.enrollmentID = enrollmentID
            self.displayName = displayName
            self.enrolledAt = enrolledAt
            self.phoneNumber = phoneNumber
            self.isTOTP = isTOTP
        }
    }

    /// The factors of a new user (admin `accounts:signUp`): each a phone factor with a valid number
    /// (`INVALID_MFA_PHONE_NUMBER : Invalid format.`), a number given twice kept once, an id made when none is given
    /// (`DUPLICATE_MFA_ENROLLMENT_ID` when one is given twice), at most ``SecondFactorEnrollment/limit``.
    public static func created(_ entries: [Entry], now: Date) throws -> [SecondFactorEnrollment] {
        var factors: [SecondFactorEnrollment] = []
        for entry in entries {
            guard let number = entry.phoneNumber.flatMap(PhoneNumber.validated) else { throw HearthError(.invalidMFAPhoneNumber) }
            if factors.contains(where: { $0.phoneNumber == number }) { continue }
            let id = try entry.enrollmentID.map(checkedID) ?? SecondFactorEnrollment.makeID()
            guard !factors.contains(where: { $0.id == id }) else { throw HearthError(.duplicateMFAEnrollmentID) }
            factors.append(
                SecondFactorEnrollment(
                    id: id, displayName: try entry.displayName.map(UserText.displayName),
                    enrolledAt: try entry.enrolledAt.map(time) ?? now, factor: .phone(number)))
        }
        return try limited(factors)
    }

    /// The factors replacing `existing` (admin `accounts:update` with `mfa.enrollments`). Each phone entry needs a valid
    /// number (`INVALID_MFA_PHONE_NUMBER : Invalid format.`) and an id (`INVALID_MFA_ENROLLMENT_ID : mfaEnrollmentId
    /// must be defined.`), no id twice (`DUPLICATE_MFA_ENROLLMENT_ID`); a number given twice is kept once. A TOTP entry
    /// keeps the existing TOTP factor of its id, secret and all (`MFA_ENROLLMENT_NOT_FOUND` when there is none). A
    /// phone factor keeps its enrolment time when the entry gives none. No entries: no factors.
    public static func replacing(_ existing: [SecondFactorEnrollment], with entries: [Entry], now: Date) throws -> [SecondFactorEnrollment] {
        var factors: [SecondFactorEnrollment] = []
        for entry in entries {
            if entry.isTOTP {
                let id = try requiredID(entry.enrollmentID)
                guard !factors.contains(where: { $0.id == id }) else { throw HearthError(.duplicateMFAEnrollmentID) }
                guard var kept = existing.first(where: { $0.id == id && $0.kind == .totp }) else {
                    throw HearthError(.mfaEnrollmentNotFound, reason: "no TOTP factor of this id to keep")
                }
                if let name = entry.displayName { kept.displayName = try UserText.displayName(name) }
                factors.append(kept)
                continue
            }
            guard let number = entry.phoneNumber.flatMap(PhoneNumber.validated) else { throw HearthError(.invalidMFAPhoneNumber) }
            if factors.contains(where: { $0.phoneNumber == number }) { continue }
            let id = try requiredID(entry.enrollmentID)
            guard !factors.contains(where: { $0.id == id }) else { throw HearthError(.duplicateMFAEnrollmentID) }
            let earlier = existing.first { $0.id == id && $0.phoneNumber == number }
            factors.append(
                SecondFactorEnrollment(
                    id: id, displayName: try entry.displayName.map(UserText.displayName),
                    enrolledAt: try entry.enrolledAt.map(time) ?? earlier?.enrolledAt ?? now, factor: .phone(number)))
        }
        return try limited(factors)
    }

    /// The factors of an imported user (`accounts:batchCreate` `mfaInfo`), or the per-user message of Identity
    /// Toolkit's import: the user needs a verified e-mail address; each factor a phone number; no id twice.
    public static func imported(_ entries: [Entry], email: String?, emailVerified: Bool, now: Date) -> Imported {
        func fail(_ message: String) -> Imported { .failure(AccountImport.Failure(index: -1, message: message)) }
        guard !entries.isEmpty else { return .success([]) }
        guard email != nil else { return fail("Second factor account requires email to be presented.") }
        guard emailVerified else { return fail("Second factor account requires email to be verified.") }
        var factors: [SecondFactorEnrollment] = []
        for entry in entries {
            guard let raw = entry.phoneNumber, !entry.isTOTP else { return fail("Second factor not supported.") }
            guard let number = PhoneNumber.validated(raw) else { return fail("Phone number format is invalid") }
            let id = entry.enrollmentID ?? SecondFactorEnrollment.makeID()
            guard UserText.isValidUID(id) else { return fail("Enrollment id is invalid.") }
            guard !factors.contains(where: { $0.id == id }) else { return fail("Enrollment id already exists.") }
            if factors.contains(where: { $0.phoneNumber == number }) { continue }
            var displayName: String?
            if let name = entry.displayName {
                guard let checked = try? UserText.displayName(name) else { return fail("display name is invalid") }
                displayName = checked
            }
            guard let enrolledAt = try? entry.enrolledAt.map(time) ?? now else { return fail("enrolledAt is invalid") }
            factors.append(SecondFactorEnrollment(id: id, displayName: displayName, enrolledAt: enrolledAt, factor: .phone(number)))
        }
        guard factors.count <= SecondFactorEnrollment.limit else { return fail("Too many second factors.") }
        return .success(factors)
    }

    /// The factors of an imported user, or why it cannot be imported.
    public typealias Imported = Result<[SecondFactorEnrollment], AccountImport.Failure>

    /// An RFC 3339 time, with or without fractional seconds.
    static func time(_ text: String) throws -> Date {
        if let date = try? Date(text, strategy: Date.ISO8601FormatStyle(includingFractionalSeconds: true)) { return date }
        if let date = try? Date(text, strategy: Date.ISO8601FormatStyle()) { return date }
        throw HearthError(.invalidArgument, detail: "enrolledAt must be an RFC 3339 time.")
    }

    private static func requiredID(_ id: String?) throws -> String {
        guard let id, !id.isEmpty else { throw HearthError(.invalidMFAEnrollmentID) }
        return try checkedID(id)
    }

    private static func checkedID(_ id: String) throws -> String {
        guard UserText.isValidUID(id) else {
            throw HearthError(.invalidMFAEnrollmentID, detail: "mfaEnrollmentId must be at most 128 printable characters.")
        }
        return id
    }

    private static func limited(_ factors: [SecondFactorEnrollment]) throws -> [SecondFactorEnrollment] {
        guard factors.count <= SecondFactorEnrollment.limit else { throw HearthError(.secondFactorLimitExceeded) }
        return factors
    }
}
