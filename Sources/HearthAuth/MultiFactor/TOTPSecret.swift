import Foundation
import HearthWire

/// The secret of a TOTP enrolment in progress, from ``TOTPMultiFactorGenerator/generateSecret(with:)``: what an
/// authenticator app is given, by hand (``sharedSecretKey()``) or as a QR code (``generateQRCodeURL(withAccountName:issuer:)``).
public final class TOTPSecret: Sendable {
    private let secretKey: String
    private let hashingAlgorithm: String
    private let codeLength: Int
    private let codeIntervalSeconds: Int
    /// The enrolment's `sessionInfo`, sent back with the first code.
    let sessionInfo: String

    init(_ info: StartMFAEnrollmentResponse.TOTPSessionInfo) {
        secretKey = info.sharedSecretKey
        hashingAlgorithm = info.hashingAlgorithm
        codeLength = info.verificationCodeLength
        codeIntervalSeconds = info.periodSec
        sessionInfo = info.sessionInfo
    }

    /// The shared secret, base32 (RFC 4648, no padding), as authenticator apps take it typed in.
    public func sharedSecretKey() -> String {
        secretKey
    }

    /// The secret as a key URI (Google Authenticator's format), to show as a QR code:
    /// `otpauth://totp/ISSUER:ACCOUNT?secret=…&issuer=ISSUER&algorithm=SHA1&digits=6&period=30`. Empty if the server
    /// gave no algorithm or code length.
    public func generateQRCodeURL(withAccountName accountName: String, issuer: String) -> String {
        guard !hashingAlgorithm.isEmpty, codeLength > 0 else { return "" }
        let label = "\(Self.escaped(issuer)):\(Self.escaped(accountName))"
        return "otpauth://totp/\(label)?secret=\(secretKey)&issuer=\(Self.escaped(issuer))&algorithm=\(hashingAlgorithm)"
            + "&digits=\(codeLength)&period=\(codeIntervalSeconds)"
    }

    /// FirebaseAuth opens the URL in the device's password manager (iOS). HearthAuth uses Foundation only and has
    /// no app to open it in, so this does nothing: show ``generateQRCodeURL(withAccountName:issuer:)`` as a QR code.
    public func openInOTPApp(withQRCodeURL qrCodeURL: String) {}

    /// Percent-encodes all but RFC 3986's unreserved characters and `@` (readable account names).
    private static func escaped(_ text: String) -> String {
        let allowed = CharacterSet(charactersIn: "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-._~@")
        return text.addingPercentEncoding(withAllowedCharacters: allowed) ?? text
    }
}
