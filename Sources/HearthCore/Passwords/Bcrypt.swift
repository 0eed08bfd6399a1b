import HummingbirdBcrypt

/// bcrypt hashes imported from other systems, checked by OpenBSD's bcrypt(3) as HummingbirdBcrypt wraps it.
///
/// Hashes look like `$2b$10$<22 characters of salt><31 characters of hash>`, in bcrypt's own base64 alphabet
/// (`./A–Za–z0–9`, no padding). The key is the password's UTF-8 bytes with a trailing NUL, cut to 72 bytes.
/// `$2a$`, `$2b$` and `$2y$` are computed the same way: they differ only for passwords of 255 bytes or more in
/// old OpenBSD code and for 8-bit characters in old crypt_blowfish, and all three mean the correct behaviour
/// today. The library knows `$2a$` (with OpenBSD's old length wrap) and `$2b$` only, so every hash is checked
/// as `$2b$`. `$2x$` (crypt_blowfish's emulation of its own sign-extension bug) is not supported.
///
/// The library reads the password as a C string: a password with a NUL in it never matches, rather than
/// matching the hash of what comes before the NUL.
public enum Bcrypt {
    /// Costs accepted for verification and import, whatever the budget of imported checks allows: bcrypt
    /// itself allows 4–31, but each step doubles the work, and 16 is already seconds per attempt.
    /// ``PasswordHashBudget`` usually refuses less than that.
    public static let costs = 4...16

    /// A bcrypt hash (`$2b$`, random salt) of `password` at `cost` (2^cost rounds of the key schedule).
    /// Throws ``HearthError/Code/invalidArgument`` for a cost outside ``costs`` or a password with a NUL.
    public static func hash(_ password: String, cost: Int) throws -> String {
        guard costs.contains(cost), !password.utf8.contains(0) else {
            throw HearthError(.invalidArgument, reason: "bcrypt parameters out of range")
        }
        return HummingbirdBcrypt.Bcrypt.hash(password, cost: UInt8(cost))
    }

    /// Whether `password` matches the bcrypt hash `encoded`. Malformed hashes, costs outside ``costs`` and
    /// passwords with a NUL never match.
    public static func verify(_ password: String, against encoded: String) -> Bool {
        guard cost(of: encoded) != nil, !password.utf8.contains(0) else { return false }
        return HummingbirdBcrypt.Bcrypt.verify(password, hash: "$2b$" + String(encoded.dropFirst(4)))
    }

    /// The cost of a well-formed bcrypt hash within ``costs`` (exactly 60 characters of its alphabet after
    /// `$2a$`, `$2b$` or `$2y$` and two digits), or `nil`.
    public static func cost(of encoded: String) -> Int? {
        let bytes = Array(encoded.utf8)
        guard bytes.count == 60, bytes[0] == UInt8(ascii: "$"), bytes[1] == UInt8(ascii: "2"),
            [UInt8(ascii: "a"), UInt8(ascii: "b"), UInt8(ascii: "y")].contains(bytes[2]),
            bytes[3] == UInt8(ascii: "$"), bytes[6] == UInt8(ascii: "$"),
            let tens = digit(bytes[4]), let ones = digit(bytes[5]), costs.contains(tens * 10 + ones),
            bytes[7...].allSatisfy(alphabet.contains)
        else { return nil }
        return tens * 10 + ones
    }

    private static let alphabet = Set("./ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789".utf8)

    private static func digit(_ c: UInt8) -> Int? {
        (UInt8(ascii: "0")...UInt8(ascii: "9")).contains(c) ? Int(c - UInt8(ascii: "0")) : nil
    }
}

/// Compares two byte strings in time that depends only on their lengths.
func constantTimeEqual(_ a: some Collection<UInt8>, _ b: some Collection<UInt8>) -> Bool {
    guard a.count == b.count else { return false }
    var diff: UInt8 = 0
    for (x, y) in zip(a, b) { diff |= x ^ y }
    return diff == 0
}
