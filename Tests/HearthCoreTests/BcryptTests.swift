import Foundation
import HearthCore
import Testing

@Suite("bcrypt")
struct BcryptTests {
    /// The classic `$2a$`/`$2y$` vectors of openwall's crypt_blowfish (the ones OpenBSD's and most bcrypt ports'
    /// tests use), each checked with Python's bcrypt 5.0.0 (`bcrypt.checkpw(password[:72], hash)`) before use.
    static let vectors: [(password: [UInt8], hash: String)] = [
        (Array("U*U".utf8), "$2a$05$CCCCCCCCCCCCCCCCCCCCC.E5YPO9kmyuRGyh0XouQYb4YMJKvyOeW"),
        (Array("U*U*".utf8), "$2a$05$CCCCCCCCCCCCCCCCCCCCC.VGOzA784oUp/Z0DY336zx7pLYAy0lwK"),
        (Array("U*U*U".utf8), "$2a$05$XXXXXXXXXXXXXXXXXXXXXOAcXxm9kjPGEMsLznoKqmqw7tc8WCx4a"),
        (
            Array("0123456789abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789chars after 72 are ignored".utf8),
            "$2a$05$abcdefghijklmnopqrstuu5s2v8.iXieOjg/.AySBTTZIIVFJeBui"
        ),
        ([0xa3], "$2y$05$/OK.fbVrR/bpIqNJ5ianF.Sa7shbm4.OzKpvFnX1pQLmQW96oUlCq"),
        ([0xa3], "$2a$05$/OK.fbVrR/bpIqNJ5ianF.Sa7shbm4.OzKpvFnX1pQLmQW96oUlCq"),
        ([0xff, 0xa3, 0x33, 0x34, 0x35], "$2y$05$/OK.fbVrR/bpIqNJ5ianF.nRht2l/HRhr6zmCp9vYUvvsqynflf9e"),
        ([0xa3, 0x61, 0x62], "$2a$05$/OK.fbVrR/bpIqNJ5ianF.6IflQkJytoRVc1yuaNtHfiuq.FRlSIS"),
        ([0xa3, 0x61, 0x62], "$2y$05$/OK.fbVrR/bpIqNJ5ianF.6IflQkJytoRVc1yuaNtHfiuq.FRlSIS"),
        ([], "$2a$05$CCCCCCCCCCCCCCCCCCCCC.7uG0VCzI2bS7j6ymqJi9CdcdxiRTWNy"),
    ]

    @Test("the openwall / OpenBSD vectors verify, and one changed byte fails", arguments: 0..<vectors.count)
    func knownVectors(index: Int) {
        let (password, hash) = Self.vectors[index]
        #expect(Bcrypt.verify(password, against: hash))
        let changed = password.isEmpty ? [0x21] : [password[0] ^ 0x01] + password.dropFirst()
        #expect(!Bcrypt.verify(changed, against: hash))
        #expect(PasswordHasher().verify(String(decoding: password, as: UTF8.self), against: hash) == password.allSatisfy { $0 < 0x80 })
    }

    @Test("hashing reproduces a vector from its salt")
    func hashReproducesVector() throws {
        // "CCCCCCCCCCCCCCCCCCCCC." in bcrypt's base64 is sixteen bytes 0x10 0x41 0x04 repeating.
        let salt: [UInt8] = [0x10, 0x41, 0x04, 0x10, 0x41, 0x04, 0x10, 0x41, 0x04, 0x10, 0x41, 0x04, 0x10, 0x41, 0x04, 0x10]
        #expect(try Bcrypt.hash("U*U", cost: 5, salt: salt, version: "2a") == "$2a$05$CCCCCCCCCCCCCCCCCCCCC.E5YPO9kmyuRGyh0XouQYb4YMJKvyOeW")
        #expect(try Bcrypt.hash("", cost: 5, salt: salt, version: "2a") == "$2a$05$CCCCCCCCCCCCCCCCCCCCC.7uG0VCzI2bS7j6ymqJi9CdcdxiRTWNy")
        #expect(throws: HearthError(.invalidArgument)) { try Bcrypt.hash("x", cost: 3, salt: salt) }
        #expect(throws: HearthError(.invalidArgument)) { try Bcrypt.hash("x", cost: 5, salt: [1, 2, 3]) }
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
        let salt = [UInt8](repeating: 7, count: 16)
        let hash = try Bcrypt.hash(String(repeating: "a", count: 72), cost: 4, salt: salt)
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
        ])
    func malformed(hash: String) {
        #expect(!Bcrypt.verify("U*U", against: hash))
        #expect(!PasswordHasher().verify("U*U", against: hash))
    }
}
