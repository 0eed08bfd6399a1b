import Crypto
import CryptoExtras
import Foundation
import HearthCore
import Testing

@Suite("Imported password hashes")
struct PasswordHashImportTests {
    let hasher = PasswordHasher()

    static func base64(_ text: String) -> [UInt8] { Array(Data(base64Encoded: text)!) }
    static func hex(_ text: String) -> [UInt8] {
        let digits = Array(text.utf8)
        return stride(from: 0, to: digits.count, by: 2).map { UInt8(String(decoding: digits[$0..<($0 + 2)], as: UTF8.self), radix: 16)! }
    }

    /// The detail and reason of the `HearthError` that `body` throws.
    func failure(_ body: () throws -> Void) -> (code: HearthError.Code, detail: String?, reason: String?)? {
        do {
            try body()
            return nil
        } catch let error as HearthError {
            return (error.code, error.detail, error.reason)
        } catch {
            return nil
        }
    }

    // MARK: Firebase scrypt

    static let signerKey = "jxspr8Ki0RYycVU8zykbdLGjFQ3McFUH0uiiTvC8pVMXAn210wjLNmdZJzxUECKbm0QsEmYUSDzZvpjeJ9WmXA=="
    static let firebase = PasswordHashImport(
        algorithm: .scrypt, signerKey: base64(signerKey), saltSeparator: base64("Bw=="), rounds: 8, memoryCost: 14)

    @Test("Firebase scrypt: the vector of github.com/firebase/scrypt's README")
    func firebaseScryptVector() throws {
        let hash = "lSrfV15cpx95/sZS2W9c9Kp6i/LVgQNDNC/qzrCnh1SAyZvqmZqAjTdn3aoItz+VHjoZilo78198JAdRuid5lQ=="
        let stored = try Self.firebase.storedHash(passwordHash: Self.base64(hash), salt: Self.base64("42xEC+ixf3L2lw=="))
        #expect(stored == "$firebase-scrypt$r=8,m=14$42xEC+ixf3L2lw==$Bw==$\(Self.signerKey)$\(hash)")
        #expect(hasher.verify("user1password", against: stored))
        #expect(!hasher.verify("user1passwore", against: stored))
        #expect(!hasher.verify("", against: stored))
        #expect(hasher.needsRehash(stored))
    }

    @Test("Firebase scrypt: the vector of firebase-admin-node's import integration test (password, salt NaCl)")
    func firebaseScryptAdminVector() throws {
        let hash = "V358E8LdWJXAO7muq0CufVpEOXaj8aFiC7T/rcaGieN04q/ZPJ08WhJEHGjj9lz/2TT+/86N5VjVoc5DdBhBiw=="
        let stored = try Self.firebase.storedHash(passwordHash: Self.base64(hash), salt: Array("NaCl".utf8))
        #expect(hasher.verify("password", against: stored))
        #expect(!hasher.verify("Password", against: stored))
    }

    @Test("AES-256-CTR as Firebase scrypt uses it: NIST SP 800-38A F.5.5")
    func aesCTR() throws {
        let key = SymmetricKey(data: Self.hex("603deb1015ca71be2b73aef0857d77811f352c073b6108d72d9810a30914dff4"))
        let plaintext = Self.hex(
            "6bc1bee22e409f96e93d7e117393172aae2d8a571e03ac9c9eb76fac45af8e5130c81c46a35ce411e5fbc1191a0a52eff69f2445df4f9b17ad2b417be66c3710")
        let counter = try AES._CTR.Nonce(nonceBytes: Self.hex("f0f1f2f3f4f5f6f7f8f9fafbfcfdfeff"))
        let ciphertext = try AES._CTR.encrypt(plaintext, using: key, nonce: counter)
        #expect(
            Array(ciphertext)
                == Self.hex(
                    "601ec313775789a5b7a7f504bbf3d228f443e3ca4d62b59aca84e990cacaf5c52b0930daa23de94ce87017ba2d84988ddfc9c58db67aada613c2dd08457941a6"
                ))
    }

    // MARK: Standard scrypt, PBKDF2

    @Test("STANDARD_SCRYPT: RFC 7914 section 12 vectors 1 and 2")
    func standardScrypt() throws {
        let empty = PasswordHashImport(algorithm: .standardScrypt, cpuMemCost: 16, parallelization: 1, blockSize: 1, dkLen: 64)
        let first = try empty.storedHash(
            passwordHash: Self.hex(
                "77d6576238657b203b19ca42c18a0497f16b4844e3074ae8dfdffa3fede21442fcd0069ded0948f8326a753a0fc81f17e8d3e0fb2e0d3628cf35e20c38d18906"),
            salt: [])
        #expect(first.hasPrefix("$scrypt$ln=4,r=1,p=1$$"))
        #expect(hasher.verify("", against: first))
        #expect(!hasher.verify(" ", against: first))
        #expect(hasher.needsRehash(first))

        let nacl = PasswordHashImport(algorithm: .standardScrypt, cpuMemCost: 1024, parallelization: 16, blockSize: 8, dkLen: 64)
        let second = try nacl.storedHash(
            passwordHash: Self.hex(
                "fdbabe1c9d3472007856e7190d01e9fe7c6ad7cbc8237830e77376634b3731622eaf30d92e22a3886ff109279d9830dac727afb94a83ee6d8360cbdfa2cc0640"),
            salt: Array("NaCl".utf8))
        #expect(second.hasPrefix("$scrypt$ln=10,r=8,p=16$TmFDbA==$"))
        #expect(hasher.verify("password", against: second))
        #expect(!hasher.verify("passwore", against: second))
    }

    @Test("a STANDARD_SCRYPT hash at the hasher's own cost but another length still needs rehashing")
    func standardScryptRehash() throws {
        let options = PasswordHashImport(algorithm: .standardScrypt, cpuMemCost: 1 << 14, parallelization: 1, blockSize: 8, dkLen: 64)
        let stored = try options.storedHash(passwordHash: [UInt8](repeating: 1, count: 64), salt: [2])
        #expect(stored.hasPrefix("$scrypt$ln=14,r=8,p=1$"))
        #expect(hasher.needsRehash(stored))
        #expect(!hasher.needsRehash(try PasswordHasher.fastForTesting.hash("x").replacingOccurrences(of: "ln=4", with: "ln=14")))
    }

    @Test(
        "PBKDF_SHA1: RFC 6070 vectors (one with NUL bytes in password and salt)",
        arguments: [
            ("password", "salt", 1, "0c60c80f961f0e71f3a9b524af6012062fe037a6"),
            ("password", "salt", 2, "ea6c014dc72d6f8ccd1ed92ace1d41f0d8de8957"),
            ("password", "salt", 4096, "4b007901b765489abead49d926f721d065a429c1"),
            ("passwordPASSWORDpassword", "saltSALTsaltSALTsaltSALTsaltSALTsalt", 4096, "3d2eec4fe41c849b80c8d83662c0e44a8b291a964cf2f07038"),
            ("pass\u{0}word", "sa\u{0}lt", 4096, "56fa6aa75548099dcc37d7f03425e0c3"),
        ])
    func pbkdfSHA1(password: String, salt: String, rounds: Int, hash: String) throws {
        let options = PasswordHashImport(algorithm: .pbkdfSHA1, rounds: rounds)
        let stored = try options.storedHash(passwordHash: Self.hex(hash), salt: Array(salt.utf8))
        #expect(stored.hasPrefix("$pbkdf2-sha1$i=\(rounds)$"))
        #expect(hasher.verify(password, against: stored))
        #expect(!hasher.verify(password + "x", against: stored))
        #expect(!hasher.verify("pass", against: stored))
    }

    @Test("PBKDF2_SHA256 with a 64-byte output, and rounds 0 taken as 1")
    func pbkdf2SHA256() throws {
        // python3 -c "import hashlib,base64; print(base64.b64encode(hashlib.pbkdf2_hmac('sha256', b'password', b'NaCl', 1000, 64)).decode())"
        let hash = "Z9vMeFSKdTKPaJASW+wsWYdujeLkySyZsgGHKnYOKuwH+SijZE92OGKJ+62nJEc9y5RQUd4ZsTTZMLUrNY9R0w=="
        let stored = try PasswordHashImport(algorithm: .pbkdf2SHA256, rounds: 1000).storedHash(
            passwordHash: Self.base64(hash), salt: Array("NaCl".utf8))
        #expect(stored == "$pbkdf2-sha256$i=1000$TmFDbA==$\(hash)")
        #expect(hasher.verify("password", against: stored))
        #expect(!hasher.verify("password1", against: stored))
        let zero = try PasswordHashImport(algorithm: .pbkdf2SHA256, rounds: 0).storedHash(passwordHash: Self.base64(hash), salt: [])
        #expect(zero.hasPrefix("$pbkdf2-sha256$i=1$$"))
    }

    // MARK: HMAC and plain digests

    // Values from: python3 -c "import hmac; import base64; print(base64.b64encode(
    //   hmac.new(b'secret', b'hunter2' + b'NaCl', 'sha256').digest()).decode())"  (and sha512/sha1/md5, salt first)
    @Test(
        "HMAC_*: key = signerKey; password then salt by default, salt first on request",
        arguments: [
            (
                PasswordHashImport.Algorithm.hmacSHA512, "uPa7pbDJqjjeuT9BmRjWu9Ouer0w+rxUGbhVG2zb4yLf5BW13qQnoTYUremiAiuHEhBtfJAyFZLp1kJsVKs5hg==",
                "dexKoszcYIqEM3jDiVmQe2O9SBCgyPPHVCH40wFgcK4GWV+L8QNmsuZYURkykngjIygAGgrOjiubqqea/mNsjQ=="
            ),
            (.hmacSHA256, "oPoXtVC2CqQqCUiIhoihgFloMb2fQ8Q3IImcd0FDMR0=", "2Sa2JddejZ0hWN2QYPTq/bIwBUga7EsHnb2y6gYZbDY="),
            (.hmacSHA1, "kHEG4Tdi5IM+0dtRGy67En3c6SI=", "gmQzdsNgeO+efqLH9amH3etxBbE="),
            (.hmacMD5, "RTFEvILbiIkfUaFdhYIcbQ==", "CXZGJSZLmF6AOWcf3wT1xg=="),
        ])
    func hmac(algorithm: PasswordHashImport.Algorithm, passwordFirst: String, saltFirst: String) throws {
        let salt = Array("NaCl".utf8)
        let key = Array("secret".utf8)
        let byDefault = try PasswordHashImport(algorithm: algorithm, signerKey: key).storedHash(passwordHash: Self.base64(passwordFirst), salt: salt)
        #expect(byDefault.contains("$o=ps$c2VjcmV0$TmFDbA==$"))
        #expect(hasher.verify("hunter2", against: byDefault))
        #expect(!hasher.verify("hunter3", against: byDefault))
        #expect(hasher.needsRehash(byDefault))
        let explicit = try PasswordHashImport(algorithm: algorithm, signerKey: key, passwordHashOrder: .passwordAndSalt)
            .storedHash(passwordHash: Self.base64(passwordFirst), salt: salt)
        #expect(explicit == byDefault)
        let reversed = try PasswordHashImport(algorithm: algorithm, signerKey: key, passwordHashOrder: .saltAndPassword)
            .storedHash(passwordHash: Self.base64(saltFirst), salt: salt)
        #expect(hasher.verify("hunter2", against: reversed))
        // The wrong key never matches.
        let otherKey = try PasswordHashImport(algorithm: algorithm, signerKey: Array("secreT".utf8))
            .storedHash(passwordHash: Self.base64(passwordFirst), salt: salt)
        #expect(!hasher.verify("hunter2", against: otherKey))
    }

    // Values from: python3 -c "import hashlib,base64
    // def rep(alg, data, r):
    //     h = hashlib.new(alg, data).digest()
    //     for _ in range(1, max(r, 1)): h = hashlib.new(alg, h).digest()
    //     return h
    // print(base64.b64encode(rep('sha256', b'NaCl' + b'hunter2', 3)).decode())"   (salt first; b'hunter2' + b'NaCl' for ps)
    @Test(
        "SHA*/MD5: rounds hashes, salt then password by default, PASSWORD_AND_SALT on request",
        arguments: [
            (
                PasswordHashImport.Algorithm.sha512, 1,
                "kP50ykMhUoeWvytReVdjjC6AqYkYxZqiV21tABd1fR8RcgtuTvtciyLVe1bkOUrQyj+abzGHx2K8skF744qY6g==",
                "1c9pVgu/eAIzw1f7iAq+72niulkR9mQSddGz8DJ3g2imHIYQhLomvuYx0ooImsHridQRuMxltCH5FE9VNb6/1A=="
            ),
            (.sha256, 1, "XMo//7AbD6658ofgrJECdJTEWOVlxXFt+ZI66keUcYk=", "cCgCjKOnLMp6r9jxOQwHn031RCLG4XhLwrRXUc0dTQQ="),
            (.sha256, 3, "jVeJsJQsVOE37+rlMM1R1gRS4jJrlCXMBQw71qCAC5k=", "2mDUDPfingGwufsi15bLCi7vqwMtZ6C9melX5Lv1GYg="),
            (.sha1, 2, "ODdm6uN/zS7HQfDv1Tcgqmn/hG0=", "cfsBQREw/eypKkkCZWsWFyb5eIk="),
            (.md5, 1, "O9YyMh62rMILuCp4WSlpyw==", "sjKRSQpBMGHhXJ94W12nsA=="),
            (.md5, 0, "O9YyMh62rMILuCp4WSlpyw==", "sjKRSQpBMGHhXJ94W12nsA=="),
            (.md5, 100, "a593bkJjSSJAW0Kv+8zvfg==", "dlvMkPyBeUxYA0Q5k5PLzQ=="),
        ])
    func digest(algorithm: PasswordHashImport.Algorithm, rounds: Int, saltFirst: String, passwordFirst: String) throws {
        let salt = Array("NaCl".utf8)
        let stored = try PasswordHashImport(algorithm: algorithm, rounds: rounds).storedHash(passwordHash: Self.base64(saltFirst), salt: salt)
        #expect(stored.hasPrefix("$\(algorithm.rawValue.lowercased())$r=\(rounds),o=sp$TmFDbA==$"))
        #expect(hasher.verify("hunter2", against: stored))
        #expect(!hasher.verify("hunter22", against: stored))
        #expect(hasher.needsRehash(stored))
        let reversed = try PasswordHashImport(algorithm: algorithm, rounds: rounds, passwordHashOrder: .passwordAndSalt)
            .storedHash(passwordHash: Self.base64(passwordFirst), salt: salt)
        #expect(reversed.contains(",o=ps$"))
        #expect(hasher.verify("hunter2", against: reversed))
        // The salt-first hash under the other order does not match.
        let swapped = try PasswordHashImport(algorithm: algorithm, rounds: rounds, passwordHashOrder: .passwordAndSalt)
            .storedHash(passwordHash: Self.base64(saltFirst), salt: salt)
        #expect(!hasher.verify("hunter2", against: swapped))
    }

    @Test("MD5 with rounds 0 also takes the hex digest as the hash, as Firebase's own import test does")
    func md5Hex() throws {
        // python3 -c "import hashlib; print(hashlib.md5(b'NaCl' + b'hunter2').hexdigest())"
        let hexDigest = Array("3bd632321eb6acc20bb82a78592969cb".utf8)
        let stored = try PasswordHashImport(algorithm: .md5, rounds: 0).storedHash(passwordHash: hexDigest, salt: Array("NaCl".utf8))
        #expect(hasher.verify("hunter2", against: stored))
        #expect(!hasher.verify("hunter3", against: stored))
        // Hex is only a rounds-0 MD5 thing.
        let error = failure { _ = try PasswordHashImport(algorithm: .md5, rounds: 1).storedHash(passwordHash: hexDigest, salt: []) }
        #expect(error?.reason == "INVALID_PASSWORD_HASH")
    }

    // MARK: Import of bcrypt

    @Test("BCRYPT: the imported hash is the bcrypt string itself")
    func bcryptImport() throws {
        let hash = "$2a$05$CCCCCCCCCCCCCCCCCCCCC.E5YPO9kmyuRGyh0XouQYb4YMJKvyOeW"
        let stored = try PasswordHashImport(algorithm: .bcrypt).storedHash(passwordHash: Array(hash.utf8), salt: [])
        #expect(stored == hash)
        #expect(hasher.verify("U*U", against: stored))
        for bad in ["$2b$31$CCCCCCCCCCCCCCCCCCCCC.E5YPO9kmyuRGyh0XouQYb4YMJKvyOeW", "not bcrypt", ""] {
            let error = failure { _ = try PasswordHashImport(algorithm: .bcrypt).storedHash(passwordHash: Array(bad.utf8), salt: []) }
            #expect(error?.code == .invalidHashParameter)
            #expect(error?.detail == "INVALID_PASSWORD_HASH : Invalid password hash for hash algorithm BCRYPT.")
            #expect(error?.reason == "INVALID_PASSWORD_HASH")
        }
    }

    // MARK: Parameter validation

    @Test(
        "out-of-range parameters are refused with the Admin SDKs' messages",
        arguments: [
            (
                PasswordHashImport(algorithm: .hmacSHA256), "INVALID_HASH_KEY",
                "A non-empty \"hash.key\" byte buffer must be provided for hash algorithm HMAC_SHA256."
            ),
            (
                PasswordHashImport(algorithm: .md5, rounds: -1), "INVALID_HASH_ROUNDS",
                "A valid \"hash.rounds\" number between 0 and 8192 must be provided for hash algorithm MD5."
            ),
            (
                PasswordHashImport(algorithm: .md5, rounds: 8193), "INVALID_HASH_ROUNDS",
                "A valid \"hash.rounds\" number between 0 and 8192 must be provided for hash algorithm MD5."
            ),
            (
                PasswordHashImport(algorithm: .sha256, rounds: 0), "INVALID_HASH_ROUNDS",
                "A valid \"hash.rounds\" number between 1 and 8192 must be provided for hash algorithm SHA256."
            ),
            (
                PasswordHashImport(algorithm: .sha1), "INVALID_HASH_ROUNDS",
                "A valid \"hash.rounds\" number between 1 and 8192 must be provided for hash algorithm SHA1."
            ),
            (
                PasswordHashImport(algorithm: .pbkdf2SHA256, rounds: 120_001), "INVALID_HASH_ROUNDS",
                "A valid \"hash.rounds\" number between 0 and 120000 must be provided for hash algorithm PBKDF2_SHA256."
            ),
            (
                PasswordHashImport(algorithm: .scrypt, rounds: 8, memoryCost: 14), "INVALID_HASH_KEY",
                "A \"hash.key\" byte buffer must be provided for hash algorithm SCRYPT."
            ),
            (
                PasswordHashImport(algorithm: .scrypt, signerKey: [1], rounds: 9, memoryCost: 14), "INVALID_HASH_ROUNDS",
                "A valid \"hash.rounds\" number between 1 and 8 must be provided for hash algorithm SCRYPT."
            ),
            (
                PasswordHashImport(algorithm: .scrypt, signerKey: [1], rounds: 8, memoryCost: 15), "INVALID_HASH_MEMORY_COST",
                "A valid \"hash.memoryCost\" number between 1 and 14 must be provided for hash algorithm SCRYPT."
            ),
            (
                PasswordHashImport(algorithm: .scrypt, signerKey: [1], rounds: 8, memoryCost: 0), "INVALID_HASH_MEMORY_COST",
                "A valid \"hash.memoryCost\" number between 1 and 14 must be provided for hash algorithm SCRYPT."
            ),
            (
                PasswordHashImport(algorithm: .standardScrypt, cpuMemCost: 1000, parallelization: 1, blockSize: 8, dkLen: 32),
                "INVALID_HASH_MEMORY_COST",
                "A valid \"hash.memoryCost\" number must be provided for hash algorithm STANDARD_SCRYPT."
            ),
            (
                PasswordHashImport(algorithm: .standardScrypt, cpuMemCost: 1024, parallelization: 0, blockSize: 8, dkLen: 32),
                "INVALID_HASH_PARALLELIZATION",
                "A valid \"hash.parallelization\" number must be provided for hash algorithm STANDARD_SCRYPT."
            ),
            (
                PasswordHashImport(algorithm: .standardScrypt, cpuMemCost: 1 << 20, parallelization: 1, blockSize: 32, dkLen: 32),
                "INVALID_HASH_BLOCK_SIZE",
                "A valid \"hash.blockSize\" number must be provided for hash algorithm STANDARD_SCRYPT."
            ),
            (
                PasswordHashImport(algorithm: .standardScrypt, cpuMemCost: 1024, parallelization: 1, blockSize: 8), "INVALID_HASH_DERIVED_KEY_LENGTH",
                "A valid \"hash.derivedKeyLength\" number must be provided for hash algorithm STANDARD_SCRYPT."
            ),
        ])
    func validation(options: PasswordHashImport, reason: String, message: String) {
        let error = failure { try options.validate() }
        #expect(error?.code == .invalidHashParameter)
        #expect(error?.detail == "\(reason) : \(message)")
        #expect(error?.reason == reason)
        // storedHash validates too.
        #expect(failure { _ = try options.storedHash(passwordHash: [UInt8](repeating: 0, count: 32), salt: []) }?.detail == "\(reason) : \(message)")
    }

    @Test("the limits themselves are accepted")
    func validationLimits() throws {
        try PasswordHashImport(algorithm: .md5, rounds: 0).validate()
        try PasswordHashImport(algorithm: .sha512, rounds: 8192).validate()
        try PasswordHashImport(algorithm: .pbkdfSHA1, rounds: 120_000).validate()
        try PasswordHashImport(algorithm: .scrypt, signerKey: [1], rounds: 1, memoryCost: 1).validate()
        try PasswordHashImport(algorithm: .bcrypt).validate()
        try PasswordHashImport(algorithm: .hmacMD5, signerKey: [0]).validate()
    }

    @Test("algorithm names are Identity Toolkit's; others are refused")
    func algorithmNames() throws {
        #expect(try PasswordHashImport.Algorithm(wireName: "PBKDF_SHA1") == .pbkdfSHA1)
        #expect(PasswordHashImport.Algorithm.allCases.count == 13)
        for name in ["sha256", "ARGON2", "", "SHA256\u{0}"] {
            let error = failure { _ = try PasswordHashImport.Algorithm(wireName: name) }
            #expect(error?.detail == "INVALID_HASH_ALGORITHM : Unsupported hash algorithm provider \"\(name)\".")
            #expect(error?.reason == "INVALID_HASH_ALGORITHM")
        }
    }

    @Test("a hash of the wrong length for its algorithm is refused at import")
    func wrongLength() {
        let cases: [(PasswordHashImport, Int)] = [
            (Self.firebase, 63), (PasswordHashImport(algorithm: .sha256, rounds: 1), 31),
            (PasswordHashImport(algorithm: .hmacSHA1, signerKey: [1]), 32),
            (PasswordHashImport(algorithm: .pbkdf2SHA256, rounds: 1), 8), (PasswordHashImport(algorithm: .pbkdf2SHA256, rounds: 1), 65),
            (PasswordHashImport(algorithm: .standardScrypt, cpuMemCost: 16, parallelization: 1, blockSize: 1, dkLen: 64), 32),
        ]
        for (options, length) in cases {
            let error = failure { _ = try options.storedHash(passwordHash: [UInt8](repeating: 1, count: length), salt: []) }
            #expect(error?.reason == "INVALID_PASSWORD_HASH")
        }
    }

    // MARK: Hostile stored strings

    @Test(
        "malformed or hostile stored hashes never match (and never run unbounded work)",
        arguments: [
            "$firebase-scrypt$r=8,m=15$AA==$Bw==$AQ==$AQ==",  // memory cost above 14
            "$firebase-scrypt$r=9,m=14$AA==$Bw==$AQ==$AQ==",
            "$firebase-scrypt$r=8,m=14$AA==$Bw==$AQ==$AQI=",  // hash not as long as the signer key
            "$firebase-scrypt$r=8,m=14$AA==$Bw==$$",  // no signer key
            "$firebase-scrypt$r=8,m=14$AA==$Bw==$AQ==",  // a field missing
            "$firebase-scrypt$r=8,m=14,m=1$AA==$Bw==$AQ==$AQ==",  // duplicate parameter
            "$firebase-scrypt$r=8,m=1\u{0}4$AA==$Bw==$AQ==$AQ==",  // NUL
            "$scrypt$ln=20,r=32,p=16$AAAA$AAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAA=",  // 4 GiB: refused
            "$scrypt$ln=20,r=8,p=16$AAAA$AAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAA=",  // 1 GiB sixteen times: refused
            "$scrypt$ln=4,r=8,p=1$AAAA$AAAA",  // 3-byte hash: too short to mean anything
            "$scrypt$ln=4,r=8,p=1$AAAA$",
            "$scrypt$ln=4,r=8,p=1,x=1$AAAA$AAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAA=",
            "$pbkdf2-sha256$i=0$AAAA$AAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAA=",
            "$pbkdf2-sha256$i=999999999999$AAAA$AAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAA=",
            "$pbkdf2-sha1$i=-1$AAAA$AAAAAAAAAAAAAAAAAAAAAAAAAAA=",
            "$pbkdf2-sha1$i=+1$AAAA$AAAAAAAAAAAAAAAAAAAAAAAAAAA=",
            "$sha256$r=8193,o=sp$TmFDbA==$XMo//7AbD6658ofgrJECdJTEWOVlxXFt+ZI66keUcYk=",
            "$sha256$r=1,o=xx$TmFDbA==$XMo//7AbD6658ofgrJECdJTEWOVlxXFt+ZI66keUcYk=",
            "$sha256$r=1$TmFDbA==$XMo//7AbD6658ofgrJECdJTEWOVlxXFt+ZI66keUcYk=",
            "$sha256$r=1,o=sp$TmFDbA==$XMo//7AbD6658ofgrJECdJTEWOVlxXFt+ZI66keUcY",  // truncated base64
            "$sha256$r=1,o=sp$TmFDbA==$XMo//7AbD6658ofgrJECdJTEWOVlxXFt+ZI66keU=",  // hash too short
            "$sha256$r=1,o=sp$TmFDbA==$XMo//7AbD6658ofgrJECdJTEWOVlxXFt+ZI66keUcYk=$",
            "$md5$r=1,o=sp$TmFDbA==$M2JkNjMyMzIxZWI2YWNjMjBiYjgyYTc4NTkyOTY5Y2I=",  // hex only with rounds 0
            "$hmac-sha256$o=ps$$TmFDbA==$oPoXtVC2CqQqCUiIhoihgFloMb2fQ8Q3IImcd0FDMR0=",  // empty key
            "$hmac-sha999$o=ps$c2VjcmV0$TmFDbA==$oPoXtVC2CqQqCUiIhoihgFloMb2fQ8Q3IImcd0FDMR0=",
            "$$$$", "$", "$sha256", "$sha256$$", String(repeating: "$", count: 10_000),
            "$sha256$r=1,o=sp$" + String(repeating: "A", count: 100_000) + "$XMo//7AbD6658ofgrJECdJTEWOVlxXFt+ZI66keUcYk=",
        ])
    func hostile(encoded: String) {
        #expect(!hasher.verify("hunter2", against: encoded))
        #expect(!hasher.verify("", against: encoded))
    }
}
