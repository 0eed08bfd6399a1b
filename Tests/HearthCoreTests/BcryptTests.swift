import Foundation
import HearthCore
import Testing

@Suite("bcrypt")
struct BcryptTests {
    /// The classic `$2a$` vectors of openwall's crypt_blowfish (the ones OpenBSD's and most bcrypt ports' tests
    /// use), and `ё` (UTF-8 `d1 91`, 8-bit bytes) under openwall's salt in the `$2a$`, `$2y$` and `$2b$` forms,
    /// each checked with Python's bcrypt 5.0.0 (`bcrypt.checkpw(password[:72], hash)`) before use. (Passwords
    /// are strings, as they arrive in JSON: the openwall vectors of bytes that are not UTF-8 cannot be asked.)
    static let vectors: [(password: String, hash: String)] = [
        ("U*U", "$2a$05$CCCCCCCCCCCCCCCCCCCCC.E5YPO9kmyuRGyh0XouQYb4YMJKvyOeW"),
        ("U*U*", "$2a$05$CCCCCCCCCCCCCCCCCCCCC.VGOzA784oUp/Z0DY336zx7pLYAy0lwK"),
        ("U*U*U", "$2a$05$XXXXXXXXXXXXXXXXXXXXXOAcXxm9kjPGEMsLznoKqmqw7tc8WCx4a"),
        (
            "0123456789abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789chars after 72 are ignored",
            "$2a$05$abcdefghijklmnopqrstuu5s2v8.iXieOjg/.AySBTTZIIVFJeBui"
        ),
        ("\u{451}", "$2a$05$6bNw2HLQYeqHYyBfLMsv/OUcZd0LKP39b87nBw3.S2tVZSqiQX6eu"),
        ("\u{451}", "$2y$05$6bNw2HLQYeqHYyBfLMsv/OUcZd0LKP39b87nBw3.S2tVZSqiQX6eu"),
        ("\u{451}", "$2b$05$6bNw2HLQYeqHYyBfLMsv/OUcZd0LKP39b87nBw3.S2tVZSqiQX6eu"),
        ("\u{a3} Hearth \u{2713}", "$2y$05$pJS87qv3FU/I1ble2z5qme7dc..MbXY8py2RaX72mG5lA2XKlmTaO"),
        ("", "$2a$05$CCCCCCCCCCCCCCCCCCCCC.7uG0VCzI2bS7j6ymqJi9CdcdxiRTWNy"),
    ]

    @Test("the openwall / OpenBSD vectors verify, and one changed character fails", arguments: 0..<vectors.count)
    func knownVectors(index: Int) {
        let (password, hash) = Self.vectors[index]
        #expect(Bcrypt.verify(password, against: hash))
        let changed = password.isEmpty ? "!" : String(password.dropFirst()) + "!"
        #expect(!Bcrypt.verify(changed, against: hash))
        #expect(PasswordHasher().verify(password, against: hash))
        #expect(Bcrypt.cost(of: hash) == 5)
    }

    @Test("a made hash is $2b$ at the cost asked, verifies, and costs outside the range are refused")
    func hashRoundTrip() throws {
        let hash = try Bcrypt.hash("U*U", cost: 5)
        #expect(hash.hasPrefix("$2b$05$") && hash.utf8.count == 60)
        #expect(Bcrypt.verify("U*U", against: hash))
        #expect(!Bcrypt.verify("U*V", against: hash))
        #expect(try Bcrypt.hash("U*U", cost: 5) != hash)  // a new salt each time
        #expect(throws: HearthError(.invalidArgument)) { try Bcrypt.hash("x", cost: 3) }
        #expect(throws: HearthError(.invalidArgument)) { try Bcrypt.hash("x", cost: 17) }
        #expect(throws: HearthError(.invalidArgument)) { try Bcrypt.hash("x\u{0}y", cost: 4) }
    }

    @Test("a password with a NUL never matches, not even the hash of what comes before the NUL")
    func nul() throws {
        let hash = try Bcrypt.hash("abc", cost: 4)
        #expect(Bcrypt.verify("abc", against: hash))
        #expect(!Bcrypt.verify("abc\u{0}def", against: hash))
        #expect(!PasswordHasher().verify("abc\u{0}", against: hash))
    }

    @Test("hashes made by Python's bcrypt verify (UTF-8 password with non-ASCII characters)")
    func python() {
        // python3 -m venv /tmp/bcvenv && /tmp/bcvenv/bin/pip install bcrypt   (bcrypt 5.0.0), then
        // /tmp/bcvenv/bin/python -c "import bcrypt; pw = 'Hearth import ✓ £'.encode()
        //   for pre in (b'2b', b'2a'): print(bcrypt.hashpw(pw, bcrypt.gensalt(rounds=6, prefix=pre)).decode())"
        let hasher = PasswordHasher()
        for hash in [
            "$2b$06$tXoPZeB8dx8h54okwd2scOmLV1OtST6c5Rvwop8C3f37fcoiqND7S", "$2a$06$Op2LwDk//ydwcivURHQvsuiRhcxWKXI37YKkXxyN64fwt98fbxQWq",
        ] {
            #expect(hasher.verify("Hearth import ✓ £", against: hash))
            #expect(!hasher.verify("Hearth import ✓ £ ", against: hash))
            #expect(!hasher.verify("hearth import ✓ £", against: hash))
            #expect(hasher.needsRehash(hash))
        }
    }

    @Test("only the first 72 bytes of a password count")
    func seventyTwoBytes() throws {
        let hash = try Bcrypt.hash(String(repeating: "a", count: 72), cost: 4)
        #expect(Bcrypt.verify(String(repeating: "a", count: 73), against: hash))
        #expect(!Bcrypt.verify(String(repeating: "a", count: 71), against: hash))
    }

    @Test(
        "malformed, unsupported or too costly bcrypt strings never match",
        arguments: [
            "$2b$31$CCCCCCCCCCCCCCCCCCCCC.E5YPO9kmyuRGyh0XouQYb4YMJKvyOeW",  // cost above Bcrypt.costs: refused, not run
            "$2b$17$CCCCCCCCCCCCCCCCCCCCC.E5YPO9kmyuRGyh0XouQYb4YMJKvyOeW",
            "$2b$03$CCCCCCCCCCCCCCCCCCCCC.E5YPO9kmyuRGyh0XouQYb4YMJKvyOeW",
            "$2b$5$CCCCCCCCCCCCCCCCCCCCC.E5YPO9kmyuRGyh0XouQYb4YMJKvyOeWx",
            "$2x$05$CCCCCCCCCCCCCCCCCCCCC.E5YPO9kmyuRGyh0XouQYb4YMJKvyOeW",  // crypt_blowfish's bug emulation: unsupported
            "$2a$05$CCCCCCCCCCCCCCCCCCCCC.E5YPO9kmyuRGyh0XouQYb4YMJKvyOe",  // truncated
            "$2a$05$CCCCCCCCCCCCCCCCCCCCC.E5YPO9kmyuRGyh0XouQYb4YMJKvyOeWW",  // too long
            "$2a$05$CCCCCCCCCCCCCCCCCCCCC.E5YPO9kmyuRGyh0XouQYb4YMJKvyOe\u{0}",  // NUL
            "$2a$05$CCCCCCCCCCCCCCCCCCCCC.E5YPO9kmyuRGyh0XouQYb4YMJKvyOe=",  // outside the alphabet
            "$2a$-5$CCCCCCCCCCCCCCCCCCCCC.E5YPO9kmyuRGyh0XouQYb4YMJKvyOeW",
            "$2a$05$", "$2", "",
            "$2a$05$CCCCCCCCCCCCCCCCCCCCC.E5YPO9kmyuRGyh0XouQYb4YMJKvyO\u{e9}",  // a non-ASCII character (61 bytes)
            "$2a$05$CCCCCCCCCCCCCCCCCCCCC.E5YPO9kmyuRGyh0XouQYb4YMJKvyOe\u{7f}",
        ])
    func malformed(hash: String) {
        #expect(!Bcrypt.verify("U*U", against: hash))
        #expect(!PasswordHasher().verify("U*U", against: hash))
    }
}
