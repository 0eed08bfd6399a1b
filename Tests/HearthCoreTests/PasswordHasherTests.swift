import Crypto
import CryptoExtras
import Foundation
import HearthCore
import Testing

@Suite("Password hashing")
struct PasswordHasherTests {
    @Test("scrypt hashes are self-describing, salted and verify only the right password")
    func scrypt() throws {
        let hasher = PasswordHasher(logN: 6)
        let a = try hasher.hash("correct horse")
        let b = try hasher.hash("correct horse")
        #expect(a.hasPrefix("$scrypt$ln=6,r=8,p=1$"))
        #expect(a != b)
        #expect(hasher.verify("correct horse", against: a))
        #expect(!hasher.verify("correct horsf", against: a))
        #expect(!hasher.verify("", against: a))
        #expect(!hasher.needsRehash(a))
        #expect(PasswordHasher(logN: 7).needsRehash(a))
        // A hash made at another cost still verifies: the parameters travel with it.
        #expect(PasswordHasher(logN: 14).verify("correct horse", against: a))
    }

    @Test("PBKDF2-SHA256 hashes from elsewhere verify")
    func pbkdf2() throws {
        let salt = Data("NaCl-and-pepper".utf8)
        let key = try KDF.Insecure.PBKDF2.deriveKey(
            from: Array("hunter22".utf8), salt: salt, using: .sha256, outputByteCount: 32, unsafeUncheckedRounds: 1_000)
        let encoded = "$pbkdf2-sha256$i=1000$\(salt.base64EncodedString())$\(key.withUnsafeBytes { Data($0) }.base64EncodedString())"
        let hasher = PasswordHasher()
        #expect(hasher.verify("hunter22", against: encoded))
        #expect(!hasher.verify("hunter23", against: encoded))
        #expect(hasher.needsRehash(encoded))
    }

    @Test(
        "malformed or unknown hashes never match",
        arguments: [
            "", "plaintext", "$scrypt$ln=6,r=8,p=1$notbase64$notbase64", "$md5$x$y$z", "$scrypt$ln=99,r=8,p=1$AAAA$AAAA",
            "fakeHash:salt=fakeSaltabc:password=secret",
        ])
    func malformed(encoded: String) {
        #expect(!PasswordHasher(logN: 4).verify("secret", against: encoded))
    }
}
