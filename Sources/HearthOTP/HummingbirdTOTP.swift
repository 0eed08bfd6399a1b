import ExtrasBase64
import Foundation
import HearthCore
import HummingbirdOTP

/// ``TOTPAlgorithm`` by HummingbirdOTP (RFC 6238, HMAC-SHA1, 6 digits, 30 s) and ExtrasBase64's base32.
public struct HummingbirdTOTP: TOTPAlgorithm {
    public init() {}

    public func code(secret: String, step: Int64) -> String {
        let value = TOTP(secret: secret, length: TOTPCodes.digits, timeStep: TOTPCodes.period)
            .compute(date: Date(timeIntervalSince1970: Double(step) * Double(TOTPCodes.period)))
        let digits = String(value)
        return String(repeating: "0", count: max(0, TOTPCodes.digits - digits.count)) + digits
    }

    public func sharedSecretKey(for secret: String) -> String {
        String(base32Encoding: Array(secret.utf8), options: .omitPaddingCharacter)
    }

    /// `otpauth://totp/<issuer>:<account>?secret=…&issuer=…`, as Google Authenticator's key-URI format has it.
    public func authenticatorURL(secret: String, accountName: String, issuer: String) -> String {
        TOTP(secret: secret, length: TOTPCodes.digits, timeStep: TOTPCodes.period).createAuthenticatorURL(
            label: "\(issuer):\(accountName)", issuer: issuer)
    }
}
