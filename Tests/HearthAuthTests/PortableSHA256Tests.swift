import Crypto
import Foundation
import Testing

@testable import HearthAuth

/// HearthAuth's own SHA-256 (used where CryptoKit is missing) against the FIPS 180-4 examples and NIST's
/// "SHA-256 short message" vectors, around the padding boundaries, and against swift-crypto.
@Suite struct PortableSHA256Tests {
    static func hex(_ bytes: some Sequence<UInt8>) -> String {
        bytes.map { String(format: "%02x", $0) }.joined()
    }

    @Test(
        "FIPS 180-4 / NIST vectors",
        arguments: [
            ("", "e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855"),
            ("abc", "ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad"),
            // 448 bits: the padding needs a second block.
            (
                "abcdbcdecdefdefgefghfghighijhijkijkljklmklmnlmnomnopnopq",
                "248d6a61d20638b8e5c026930c3e6039a33ce45964ff2167f6ecedd419db06c1"
            ),
            // 896 bits.
            (
                "abcdefghbcdefghicdefghijdefghijkefghijklfghijklmghijklmnhijklmnoijklmnopjklmnopqklmnopqrlmnopqrsmnopqrstnopqrstu",
                "cf5b16a778af8380036ce59e7b0492370b249b11e8f07a51afac45037afee9d1"
            ),
        ])
    func vectors(message: String, digest: String) {
        #expect(Self.hex(PortableSHA256.hash(message.utf8)) == digest)
        #expect(AuthNonce.sha256Hex(message) == digest)
    }

    @Test("One million times 'a'")
    func millionA() {
        let message = [UInt8](repeating: UInt8(ascii: "a"), count: 1_000_000)
        #expect(Self.hex(PortableSHA256.hash(message)) == "cdc76e5c9914fb9281a1c7e284d73e67f1809a48a497200e046d39ccc7112cd0")
    }

    @Test(
        "Lengths around the 56- and 64-byte padding boundaries",
        arguments: [
            (55, "9f4390f8d30c2dd92ec9f095b65e2b9ae9b0a925a5258e241c9f1e910f734318"),
            (56, "b35439a4ac6f0948b6d6f9e3c6af0f5f590ce20f1bde7090ef7970686ec6738a"),
            (63, "7d3e74a05d7db15bce4ad9ec0658ea98e3f06eeecf16b4c6fff2da457ddc2f34"),
            (64, "ffe054fe7ae0cb6dc65c3af9b61d5209f439851db43d0ba5997337df154668eb"),
            (65, "635361c48bb9eab14198e76ea8ab7f1a41685d6ad62aa9146d301d4f17eb0ae0"),
        ])
    func boundaries(length: Int, digest: String) {
        let message = String(repeating: "a", count: length)
        #expect(Self.hex(PortableSHA256.hash(message.utf8)) == digest)
        #expect(Self.hex(SHA256.hash(data: Data(message.utf8))) == digest)
        #expect(AuthNonce.sha256Hex(message) == digest)
    }

    @Test("Agrees with swift-crypto on every length from 0 to 300 bytes of random data, and on non-ASCII nonces")
    func againstSwiftCrypto() {
        var generator = SystemRandomNumberGenerator()
        for length in 0...300 {
            let message = (0..<length).map { _ in UInt8.random(in: .min ... .max, using: &generator) }
            #expect(PortableSHA256.hash(message) == Array(SHA256.hash(data: message)), "length \(length)")
        }
        for nonce in ["nonce-é-🔑", AuthNonce.random(), AuthNonce.random(length: 64)] {
            #expect(AuthNonce.sha256Hex(nonce) == Self.hex(SHA256.hash(data: Data(nonce.utf8))))
        }
        #expect(AuthNonce.sha256Hex("nonce-é-🔑") == "95f5efd49bf571eaff666123e25cd83b2901b895c3fa3c29a2a5a4a7ac8e4037")
    }
}
