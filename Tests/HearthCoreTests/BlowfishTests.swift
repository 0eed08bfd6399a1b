import Crypto
import Testing

@testable import HearthCore

@Suite("Blowfish tables")
struct BlowfishTests {
    @Test("the generated tables are pi's fractional hex digits: known entries and a checksum")
    func tables() {
        // First words of P and of each S-box as printed in Schneier's description of Blowfish.
        #expect(Blowfish.initialP.count == 18)
        #expect(Blowfish.initialS.count == 1024)
        #expect(Blowfish.initialP.first == 0x243f_6a88)
        #expect(Blowfish.initialP.last == 0x8979_fb1b)
        #expect([0, 256, 512, 768, 1023].map { Blowfish.initialS[$0] } == [0xd131_0ba6, 0x4b7a_70e9, 0xe93d_5a68, 0x3a39_ce37, 0x3ac3_72e6])
        // SHA-256 of all 1042 words, big-endian, from scripts/generate-blowfish-tables.py's output.
        let bytes = (Blowfish.initialP + Blowfish.initialS).flatMap { w in [24, 16, 8, 0].map { UInt8(truncatingIfNeeded: w >> $0) } }
        let checksum = SHA256.hash(data: bytes).map { String(format: "%02x", $0) }.joined()
        #expect(checksum == "b5643208907b11b20e499a42187dc921f9579d28dadfccbe69a5ce232a55952f")
    }
}
