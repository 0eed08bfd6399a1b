import Foundation
import HearthBase64URL
import Testing

/// The one base64url of server, sandbox and SDK: RFC 4648's vectors, agreement with Foundation's base64 for every
/// length, and the strict decoder's refusals (padding, other alphabets, stray characters, non-canonical text).
@Suite struct Base64URLTests {
    /// Foundation's standard base64 turned into base64url, as an independent reference.
    static func reference(_ bytes: [UInt8]) -> String {
        Data(bytes).base64EncodedString()
            .replacingOccurrences(of: "+", with: "-").replacingOccurrences(of: "/", with: "_")
            .replacingOccurrences(of: "=", with: "")
    }

    @Test(
        "RFC 4648 §10 vectors, without padding",
        arguments: [
            ("", ""), ("f", "Zg"), ("fo", "Zm8"), ("foo", "Zm9v"), ("foob", "Zm9vYg"), ("fooba", "Zm9vYmE"),
            ("foobar", "Zm9vYmFy"),
        ])
    func vectors(plain: String, encoded: String) {
        #expect(Base64URL.encode(Array(plain.utf8)) == encoded)
        #expect(Base64URL.decode(encoded) == Array(plain.utf8))
    }

    @Test("The URL-safe characters stand for 62 and 63")
    func urlSafeAlphabet() {
        #expect(Base64URL.encode([0xFB, 0xFF]) == "-_8")
        #expect(Base64URL.encode([0xFF, 0xFF, 0xFF]) == "____")
        #expect(Base64URL.encode([0xF8, 0x00, 0x00]) == "-AAA")
        #expect(Base64URL.decode("-_8") == [0xFB, 0xFF])
    }

    @Test("Every length from 0 to 200 bytes matches Foundation and decodes back")
    func lengths() {
        var generator = SystemRandomNumberGenerator()
        for length in 0...200 {
            let bytes = (0..<length).map { _ in UInt8.random(in: .min ... .max, using: &generator) }
            let text = Base64URL.encode(bytes)
            #expect(text == Self.reference(bytes))
            #expect(Base64URL.decode(text) == bytes)
            #expect(Base64URL.decode(text[...]) == bytes, "a Substring decodes the same")
        }
    }

    @Test("Data, digests and other sequences encode the same as arrays")
    func sequences() {
        let bytes: [UInt8] = Array(0...255)
        #expect(Base64URL.encode(Data(bytes)) == Self.reference(bytes))
        #expect(Base64URL.encode(Data(bytes).dropFirst(7)) == Self.reference(Array(bytes.dropFirst(7))))
        #expect(Base64URL.encode(bytes.lazy.map { $0 }) == Self.reference(bytes), "a sequence without contiguous storage")
    }

    @Test(
        "Padding is refused, even where it would be correct",
        arguments: ["Zg==", "Zg=", "Zm8=", "Zm9vYg==", "=", "====", "Zm9v=", "Zm9v===="])
    func padding(text: String) {
        #expect(Base64URL.decode(text) == nil)
    }

    @Test(
        "Characters outside the alphabet are refused",
        arguments: [
            "Zm+v", "Zm/v", "+/+/", "Zm9v YmFy", " Zm9v", "Zm9v\n", "Zm9v\r\n", "Zm\u{0}9v", "Zm9v\t", "Zm.v", "Zm9é",
            "Ｚm9v", "Zm9v%3D",
        ])
    func foreignCharacters(text: String) {
        #expect(Base64URL.decode(text) == nil)
    }

    @Test("A length that leaves one character over is refused", arguments: ["Z", "Zm9vY", "Zm9vYmFyZ"])
    func danglingCharacter(text: String) {
        #expect(Base64URL.decode(text) == nil)
    }

    @Test(
        "Unused low bits must be zero: each byte string has exactly one text",
        arguments: [
            ("Zh", "Zg"),  // 'f' with a stray bit in the last character
            ("Zv", "Zg"),
            ("Zm9", "Zm8"),  // "fo"
            ("Zm-", "Zm8"),
            ("AB", "AA"),
        ])
    func nonCanonical(altered: String, canonical: String) {
        #expect(Base64URL.decode(altered) == nil)
        #expect(Base64URL.decode(canonical) != nil)
    }

    @Test("Empty text is zero bytes")
    func empty() {
        #expect(Base64URL.decode("") == [])
        #expect(Base64URL.encode([UInt8]()) == "")
    }
}
