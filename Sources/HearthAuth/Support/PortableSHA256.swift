/// SHA-256 as FIPS 180-4 defines it, in plain Swift: the digest ``AuthNonce/sha256Hex(_:)`` uses where
/// CryptoKit is not available (Linux, Windows, Android), so that HearthAuth needs no cryptography package.
///
/// It hashes a nonce of a few dozen bytes, not secrets or large files: it is written to be read against the
/// standard (section numbers below), not to be fast. It runs in time independent of the message's contents.
struct PortableSHA256 {
    /// The first 32 bits of the fractional parts of the cube roots of the first 64 primes (FIPS 180-4 §4.2.2).
    private static let roundConstants: [UInt32] = [
        0x428a_2f98, 0x7137_4491, 0xb5c0_fbcf, 0xe9b5_dba5, 0x3956_c25b, 0x59f1_11f1, 0x923f_82a4, 0xab1c_5ed5,
        0xd807_aa98, 0x1283_5b01, 0x2431_85be, 0x550c_7dc3, 0x72be_5d74, 0x80de_b1fe, 0x9bdc_06a7, 0xc19b_f174,
        0xe49b_69c1, 0xefbe_4786, 0x0fc1_9dc6, 0x240c_a1cc, 0x2de9_2c6f, 0x4a74_84aa, 0x5cb0_a9dc, 0x76f9_88da,
        0x983e_5152, 0xa831_c66d, 0xb003_27c8, 0xbf59_7fc7, 0xc6e0_0bf3, 0xd5a7_9147, 0x06ca_6351, 0x1429_2967,
        0x27b7_0a85, 0x2e1b_2138, 0x4d2c_6dfc, 0x5338_0d13, 0x650a_7354, 0x766a_0abb, 0x81c2_c92e, 0x9272_2c85,
        0xa2bf_e8a1, 0xa81a_664b, 0xc24b_8b70, 0xc76c_51a3, 0xd192_e819, 0xd699_0624, 0xf40e_3585, 0x106a_a070,
        0x19a4_c116, 0x1e37_6c08, 0x2748_774c, 0x34b0_bcb5, 0x391c_0cb3, 0x4ed8_aa4a, 0x5b9c_ca4f, 0x682e_6ff3,
        0x748f_82ee, 0x78a5_636f, 0x84c8_7814, 0x8cc7_0208, 0x90be_fffa, 0xa450_6ceb, 0xbef9_a3f7, 0xc671_78f2,
    ]

    /// The first 32 bits of the fractional parts of the square roots of the first 8 primes (FIPS 180-4 §5.3.3).
    private static let initialHash: [UInt32] = [
        0x6a09_e667, 0xbb67_ae85, 0x3c6e_f372, 0xa54f_f53a, 0x510e_527f, 0x9b05_688c, 0x1f83_d9ab, 0x5be0_cd19,
    ]

    /// The 32-byte digest of `message`.
    static func hash(_ message: some Collection<UInt8>) -> [UInt8] {
        var state = initialHash
        for block in padded(Array(message)).chunked(by: 64) {
            compress(&state, block)
        }
        // The digest is the state's eight words, big-endian (§6.2.2 step 4).
        return state.flatMap { word in (0..<4).map { UInt8(truncatingIfNeeded: word >> (24 - 8 * $0)) } }
    }

    /// The message followed by a 1 bit, zeros up to 56 bytes modulo 64, and the message's length in bits as a
    /// 64-bit big-endian number (§5.1.1): a whole number of 64-byte blocks.
    private static func padded(_ message: [UInt8]) -> [UInt8] {
        var bytes = message
        bytes.append(0x80)
        while bytes.count % 64 != 56 { bytes.append(0) }
        let bitLength = UInt64(message.count) &* 8
        bytes += (0..<8).map { UInt8(truncatingIfNeeded: bitLength >> (56 - 8 * UInt64($0))) }
        return bytes
    }

    /// Mixes one 64-byte block into the state (§6.2.2).
    private static func compress(_ state: inout [UInt32], _ block: ArraySlice<UInt8>) {
        // Step 1: the message schedule.
        var w = [UInt32](repeating: 0, count: 64)
        let base = block.startIndex
        for t in 0..<16 {
            w[t] = (0..<4).reduce(0) { word, i in word << 8 | UInt32(block[base + 4 * t + i]) }
        }
        for t in 16..<64 {
            w[t] = smallSigma1(w[t - 2]) &+ w[t - 7] &+ smallSigma0(w[t - 15]) &+ w[t - 16]
        }

        // Steps 2 and 3: 64 rounds over the working variables a…h.
        var (a, b, c, d, e, f, g, h) = (state[0], state[1], state[2], state[3], state[4], state[5], state[6], state[7])
        for t in 0..<64 {
            let t1 = h &+ bigSigma1(e) &+ choose(e, f, g) &+ roundConstants[t] &+ w[t]
            let t2 = bigSigma0(a) &+ majority(a, b, c)
            (h, g, f, e, d, c, b, a) = (g, f, e, d &+ t1, c, b, a, t1 &+ t2)
        }

        // Step 4: the intermediate hash value.
        for (i, value) in [a, b, c, d, e, f, g, h].enumerated() {
            state[i] = state[i] &+ value
        }
    }

    // The six functions of §4.1.2.
    private static func choose(_ x: UInt32, _ y: UInt32, _ z: UInt32) -> UInt32 { (x & y) ^ (~x & z) }
    private static func majority(_ x: UInt32, _ y: UInt32, _ z: UInt32) -> UInt32 { (x & y) ^ (x & z) ^ (y & z) }
    private static func bigSigma0(_ x: UInt32) -> UInt32 { rotr(x, 2) ^ rotr(x, 13) ^ rotr(x, 22) }
    private static func bigSigma1(_ x: UInt32) -> UInt32 { rotr(x, 6) ^ rotr(x, 11) ^ rotr(x, 25) }
    private static func smallSigma0(_ x: UInt32) -> UInt32 { rotr(x, 7) ^ rotr(x, 18) ^ (x >> 3) }
    private static func smallSigma1(_ x: UInt32) -> UInt32 { rotr(x, 17) ^ rotr(x, 19) ^ (x >> 10) }

    /// Rotation right by `n` bits, 0 < n < 32 (§3.2).
    private static func rotr(_ x: UInt32, _ n: UInt32) -> UInt32 { (x >> n) | (x << (32 - n)) }
}

extension Array {
    /// Consecutive slices of `size` elements; the last one may be shorter.
    fileprivate func chunked(by size: Int) -> [ArraySlice<Element>] {
        stride(from: 0, to: count, by: size).map { self[$0..<Swift.min($0 + size, count)] }
    }
}
