/// bcrypt, as OpenBSD's bcrypt(3) computes it (Provos and Mazières, "A Future-Adaptable Password Scheme", 1999).
///
/// Hashes look like `$2b$10$<22 characters of salt><31 characters of hash>`, in bcrypt's own base64 alphabet
/// (`./A–Za–z0–9`, no padding). The key is the password's UTF-8 bytes with a trailing NUL, cut to 72 bytes, as
/// OpenBSD does. `$2a$`, `$2b$` and `$2y$` are computed the same way (they differ only for passwords of 255 bytes
/// or more in old OpenBSD code and for 8-bit characters in old crypt_blowfish, and all three mean the correct
/// behaviour today); `$2x$` (crypt_blowfish's emulation of its own sign-extension bug) is not supported.
public enum Bcrypt {
    /// Costs accepted for verification and import. bcrypt itself allows 4–31, but each step doubles the work:
    /// 16 is already seconds per attempt, and a stored hash must not be able to stall a sign-in for minutes.
    public static let costs = 4...16

    /// The bcrypt hash of `password` with `salt` (16 bytes) at `cost` (2^cost rounds of the key schedule).
    public static func hash(_ password: String, cost: Int, salt: [UInt8], version: String = "2b") throws -> String {
        guard costs.contains(cost), salt.count == 16, ["2a", "2b", "2y"].contains(version) else {
            throw HearthError(.invalidArgument, reason: "bcrypt parameters out of range")
        }
        let digest = compute(Array(password.utf8), cost: cost, salt: salt)
        let costText = cost < 10 ? "0\(cost)" : "\(cost)"
        return "$\(version)$\(costText)$\(encode(salt))\(encode(digest))"
    }

    /// Whether `password` matches the bcrypt hash `encoded`. Malformed hashes and costs outside ``costs`` never match.
    public static func verify(_ password: String, against encoded: String) -> Bool {
        verify(Array(password.utf8), against: encoded)
    }

    /// Whether the password bytes `password` match `encoded` (for passwords that are not UTF-8, as in test vectors).
    public static func verify(_ password: [UInt8], against encoded: String) -> Bool {
        guard let parsed = parse(encoded) else { return false }
        return constantTimeEqual(compute(password, cost: parsed.cost, salt: parsed.salt), parsed.digest)
    }

    /// The parts of a well-formed bcrypt hash, or `nil`.
    static func parse(_ encoded: String) -> (cost: Int, salt: [UInt8], digest: [UInt8])? {
        let bytes = Array(encoded.utf8)
        guard bytes.count == 60, bytes[0] == UInt8(ascii: "$"), bytes[1] == UInt8(ascii: "2"),
            [UInt8(ascii: "a"), UInt8(ascii: "b"), UInt8(ascii: "y")].contains(bytes[2]),
            bytes[3] == UInt8(ascii: "$"), bytes[6] == UInt8(ascii: "$"),
            let tens = digit(bytes[4]), let ones = digit(bytes[5]), costs.contains(tens * 10 + ones),
            let salt = decode(bytes[7..<29], count: 16), let digest = decode(bytes[29..<60], count: 23)
        else { return nil }
        return (tens * 10 + ones, salt, digest)
    }

    /// The 23 bytes bcrypt keeps of its 24-byte ciphertext.
    private static func compute(_ password: [UInt8], cost: Int, salt: [UInt8]) -> [UInt8] {
        let key = Array((password + [0]).prefix(72))
        var blowfish = Blowfish()
        blowfish.expand(key: key, salt: salt)
        for _ in 0..<(1 << cost) {
            blowfish.expand(key: key)
            blowfish.expand(key: salt)
        }
        let magic = Array("OrpheanBeholderScryDoubt".utf8)
        var words = (0..<6).map { i in magic[(4 * i)..<(4 * i + 4)].reduce(UInt32(0)) { $0 << 8 | UInt32($1) } }
        for _ in 0..<64 {
            for i in stride(from: 0, to: 6, by: 2) { (words[i], words[i + 1]) = blowfish.encrypt(words[i], words[i + 1]) }
        }
        let bytes = words.flatMap { w in [24, 16, 8, 0].map { UInt8(truncatingIfNeeded: w >> $0) } }
        return Array(bytes.prefix(23))
    }

    private static let alphabet = Array("./ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789".utf8)

    private static func digit(_ c: UInt8) -> Int? {
        (UInt8(ascii: "0")...UInt8(ascii: "9")).contains(c) ? Int(c - UInt8(ascii: "0")) : nil
    }

    /// bcrypt's base64: 3 bytes to 4 characters, big-endian bits, no padding.
    static func encode(_ bytes: [UInt8]) -> String {
        var out: [UInt8] = []
        var i = 0
        while i < bytes.count {
            let chunk = Array(bytes[i..<min(i + 3, bytes.count)])
            let padded = chunk + [UInt8](repeating: 0, count: 3 - chunk.count)
            let value = UInt32(padded[0]) << 16 | UInt32(padded[1]) << 8 | UInt32(padded[2])
            for j in 0...chunk.count { out.append(alphabet[Int((value >> (18 - 6 * j)) & 0x3f)]) }
            i += 3
        }
        return String(decoding: out, as: UTF8.self)
    }

    /// Decodes exactly `count` bytes from bcrypt's base64, or `nil` for a character outside its alphabet.
    static func decode(_ text: ArraySlice<UInt8>, count: Int) -> [UInt8]? {
        var values: [UInt32] = []
        for c in text {
            guard let index = alphabet.firstIndex(of: c) else { return nil }
            values.append(UInt32(index))
        }
        var out: [UInt8] = []
        var i = 0
        while i < values.count, out.count < count {
            let group = Array(values[i..<min(i + 4, values.count)]) + [UInt32](repeating: 0, count: max(0, 4 - (values.count - i)))
            let value = group[0] << 18 | group[1] << 12 | group[2] << 6 | group[3]
            for shift in [16, 8, 0] where out.count < count { out.append(UInt8(truncatingIfNeeded: value >> UInt32(shift))) }
            i += 4
        }
        return out.count == count ? out : nil
    }
}

/// Compares two byte strings in time that depends only on their lengths.
func constantTimeEqual(_ a: some Collection<UInt8>, _ b: some Collection<UInt8>) -> Bool {
    guard a.count == b.count else { return false }
    var diff: UInt8 = 0
    for (x, y) in zip(a, b) { diff |= x ^ y }
    return diff == 0
}
