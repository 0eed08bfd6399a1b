import Foundation

/// RFC 6238 as an authenticator app computes it, given by a library (the server's is HummingbirdOTP's).
public protocol TOTPAlgorithm: Sendable {
    /// The ``TOTPCodes/digits``-digit code (zero-padded) of `secret` (the key's bytes, ASCII text) for the period
    /// `step` (seconds since 1970 divided by ``TOTPCodes/period``).
    func code(secret: String, step: Int64) -> String
    /// `secret` as authenticator apps take it: base32, without padding.
    func sharedSecretKey(for secret: String) -> String
    /// The `otpauth://totp/…` URL of `secret` (what a QR code for an authenticator app holds).
    func authenticatorURL(secret: String, accountName: String, issuer: String) -> String
}

/// Authenticator-app codes: 6 digits, 30-second periods, HMAC-SHA1 (what Identity Platform answers in
/// `totpSessionInfo`, and what every authenticator app does).
public struct TOTPCodes: Sendable {
    public let algorithm: any TOTPAlgorithm

    public static let digits = 6
    public static let period = 30
    public static let hashingAlgorithm = "SHA1"
    /// Characters of a secret: 25 from 62 (148 bits), whose ASCII bytes are the HMAC key; 40 base32 characters.
    public static let secretLength = 25

    public init(algorithm: any TOTPAlgorithm) { self.algorithm = algorithm }

    /// A new random secret.
    public static func makeSecret() -> String {
        let alphabet = Array("ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789")
        var generator = SystemRandomNumberGenerator()
        return String((0..<secretLength).map { _ in alphabet[Int(generator.next(upperBound: UInt64(alphabet.count)))] })
    }

    /// The period `date` falls in.
    public static func step(at date: Date) -> Int64 { Int64((date.timeIntervalSince1970 / Double(period)).rounded(.down)) }

    /// The period whose code `code` is, among the current one and `adjacentIntervals` before and after it; `nil` when
    /// none. Every candidate is compared in full, so the time does not tell which one matched.
    public func matchingStep(_ code: String, secret: String, at now: Date, adjacentIntervals: Int) -> Int64? {
        guard code.utf8.count == Self.digits, code.utf8.allSatisfy({ $0 >= 0x30 && $0 <= 0x39 }) else { return nil }
        let current = Self.step(at: now)
        var found: Int64?
        for offset in -Int64(adjacentIntervals)...Int64(adjacentIntervals) {
            let step = current + offset
            if constantTimeEqual(algorithm.code(secret: secret, step: step).utf8, code.utf8), found == nil { found = step }
        }
        return found
    }
}
