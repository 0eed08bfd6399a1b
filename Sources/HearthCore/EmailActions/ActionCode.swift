import Crypto
import Foundation
import HearthBase64URL

/// What an e-mail action code lets its holder do: Identity Toolkit's `requestType`.
public enum ActionCodeKind: String, Sendable, CaseIterable, Codable {
    case passwordReset = "PASSWORD_RESET"
    case verifyEmail = "VERIFY_EMAIL"
    case emailSignIn = "EMAIL_SIGNIN"
    case verifyAndChangeEmail = "VERIFY_AND_CHANGE_EMAIL"
    case recoverEmail = "RECOVER_EMAIL"
    /// Mailed when a second factor is added: applying it withdraws the factor.
    case revertSecondFactorAddition = "REVERT_SECOND_FACTOR_ADDITION"

    /// The `mode` of the action link that carries the code (Firebase's hosted action handler).
    public var mode: String {
        switch self {
        case .passwordReset: "resetPassword"
        case .verifyEmail: "verifyEmail"
        case .emailSignIn: "signIn"
        case .verifyAndChangeEmail: "verifyAndChangeEmail"
        case .recoverEmail: "recoverEmail"
        case .revertSecondFactorAddition: "revertSecondFactorAddition"
        }
    }

    /// The kind whose links use `mode`.
    public init?(mode: String) {
        guard let kind = Self.allCases.first(where: { $0.mode == mode }) else { return nil }
        self = kind
    }
}

/// An e-mail action code as the store keeps it: only its hash, the address it was sent for and what it
/// allows. Codes are single-use and expire (``expiresAt``).
public struct ActionCodeRecord: Sendable, Equatable {
    /// ``ActionCode/hash(_:)`` of the code; the code itself is only in the mail.
    public var codeHash: String
    public var kind: ActionCodeKind
    /// The account the code acts on; `nil` for an e-mail sign-in to an address without an account.
    public var uid: String?
    /// The address the mail went to (lower-cased), except for ``ActionCodeKind/verifyAndChangeEmail``,
    /// where it is the account's current address and ``newEmail`` received the mail.
    public var email: String
    /// The address a ``ActionCodeKind/verifyAndChangeEmail`` code changes to.
    public var newEmail: String?
    /// Where the page the link opens sends the user afterwards.
    public var continueURL: String?
    /// The language of the mail and of the page (`en`, `hi`, …).
    public var languageCode: String?
    /// The second factor a ``ActionCodeKind/revertSecondFactorAddition`` code withdraws.
    public var mfaEnrollmentID: String?
    public var createdAt: Date
    public var expiresAt: Date
    /// The tenant of the account (`nil`: the project's). Set by the store that read the code; a store writes codes
    /// into its own tenant, whatever this says.
    public var tenantID: String?

    public init(
        codeHash: String, kind: ActionCodeKind, uid: String?, email: String, newEmail: String? = nil,
        continueURL: String? = nil, languageCode: String? = nil, mfaEnrollmentID: String? = nil, createdAt: Date, expiresAt: Date
    ) {
        self.mfaEnrollmentID = mfaEnrollmentID
        self.codeHash = codeHash
        self.kind = kind
        self.uid = uid
        self.email = email
        self.newEmail = newEmail
        self.continueURL = continueURL
        self.languageCode = languageCode
        self.createdAt = createdAt
        self.expiresAt = expiresAt
    }

    public func isExpired(at now: Date) -> Bool { now >= expiresAt }
}

/// Making and hashing action codes.
public enum ActionCode {
    /// A new code: 32 random bytes in base64url, 43 characters (Firebase's are 54; clients treat them as opaque).
    public static func make() -> String {
        var generator = SystemRandomNumberGenerator()
        let bytes = (0..<32).map { _ in UInt8.random(in: .min ... .max, using: &generator) }
        return Base64URL.encode(bytes)
    }

    /// What the store keeps of `code`: its SHA-256 in hex. A code is 256 random bits, so a plain digest
    /// is enough: a stolen table gives nothing to guess from.
    public static func hash(_ code: String) -> String {
        HexDigits.lowercase(SHA256.hash(data: Data(code.utf8)))
    }

    /// Whether `text` could be a code this server made: base64url only, of the length ``make()`` gives.
    /// Anything else is refused before the database is asked.
    public static func isWellFormed(_ text: String) -> Bool {
        text.utf8.count == 43
            && text.utf8.allSatisfy { byte in
                (byte >= 0x30 && byte <= 0x39) || (byte >= 0x41 && byte <= 0x5A) || (byte >= 0x61 && byte <= 0x7A) || byte == 0x2D
                    || byte == 0x5F
            }
    }
}
