/// A QR code (ISO/IEC 18004) of some bytes, drawn by the console itself (no library in reach): byte mode, error
/// correction level M, the smallest version from 1 to 20 that holds the bytes (up to 666 of them: an authenticator's
/// `otpauth://` link is about 150), the mask with the lowest penalty. Shown as inline SVG, so that a new operator scans
/// their authenticator secret instead of typing it. Follows the standard's construction step by step, as Project
/// Nayuki's reference implementation lays it out.
struct QRCode {
    /// The modules, row by row: `true` is dark.
    private(set) var modules: [[Bool]]
    private var isFunction: [[Bool]]
    let version: Int
    var size: Int { version * 4 + 17 }

    /// Level M's error-correction codewords per block, and blocks, by version (index 0 unused).
    private static let eccPerBlock = [0, 10, 16, 26, 18, 24, 16, 18, 22, 22, 26, 30, 22, 22, 24, 24, 28, 28, 26, 26, 26]
    private static let blocks = [0, 1, 1, 1, 2, 2, 4, 4, 4, 5, 5, 5, 8, 9, 9, 10, 10, 11, 13, 14, 16]
    static let maximumVersion = 20

    /// The code of `bytes`; `nil` when they are more than version 20 holds.
    init?(_ bytes: [UInt8]) {
        guard let version = (1...Self.maximumVersion).first(where: { Self.dataBits(bytes.count, $0) <= Self.dataCodewords($0) * 8 }) else {
            return nil
        }
        self.version = version
        let size = version * 4 + 17
        modules = Array(repeating: Array(repeating: false, count: size), count: size)
        isFunction = modules
        drawFunctionPatterns()
        drawCodewords(Self.interleaved(Self.dataCodewords(bytes, version: version), version: version))
        var best = 0
        var lowest = Int.max
        for mask in 0..<8 {
            apply(mask: mask)
            drawFormatBits(mask: mask)
            let penalty = penaltyScore()
            if penalty < lowest { (best, lowest) = (mask, penalty) }
            apply(mask: mask)  // undoes it: a mask is its own inverse
        }
        apply(mask: best)
        drawFormatBits(mask: best)
    }

    /// The code as an SVG image (a quiet zone of 4 modules around it), with `label` for screen readers.
    func svg(label: String) -> String {
        var path = ""
        for y in 0..<size {
            for x in 0..<size where modules[y][x] { path += "M\(x + 4) \(y + 4)h1v1h-1z" }
        }
        let side = size + 8
        return """
            <svg class="qr" xmlns="http://www.w3.org/2000/svg" viewBox="0 0 \(side) \(side)" role="img" aria-label="\(label)" \
            shape-rendering="crispEdges"><rect width="\(side)" height="\(side)" fill="#fff"/><path fill="#000" d="\(path)"/></svg>
            """
    }

    // MARK: The data

    private static func dataBits(_ count: Int, _ version: Int) -> Int {
        4 + (version < 10 ? 8 : 16) + 8 * count
    }

    /// Modules left for data and error correction once the function patterns are drawn.
    private static func rawDataModules(_ version: Int) -> Int {
        var result = (16 * version + 128) * version + 64
        if version >= 2 {
            let alignments = version / 7 + 2
            result -= (25 * alignments - 10) * alignments - 55
            if version >= 7 { result -= 36 }
        }
        return result
    }

    private static func dataCodewords(_ version: Int) -> Int {
        rawDataModules(version) / 8 - eccPerBlock[version] * blocks[version]
    }

    /// Mode, length, the bytes, the terminator and the padding, as codewords.
    private static func dataCodewords(_ bytes: [UInt8], version: Int) -> [UInt8] {
        var bits: [Bool] = []
        func append(_ value: Int, _ count: Int) {
            for i in stride(from: count - 1, through: 0, by: -1) { bits.append((value >> i) & 1 == 1) }
        }
        append(0b0100, 4)
        append(bytes.count, version < 10 ? 8 : 16)
        for byte in bytes { append(Int(byte), 8) }
        let capacity = dataCodewords(version) * 8
        append(0, min(4, capacity - bits.count))
        append(0, (8 - bits.count % 8) % 8)
        var codewords = stride(from: 0, to: bits.count, by: 8).map { start in
            bits[start..<start + 8].reduce(UInt8(0)) { $0 << 1 | ($1 ? 1 : 0) }
        }
        var pad: UInt8 = 0xEC
        while codewords.count < capacity / 8 {
            codewords.append(pad)
            pad ^= 0xEC ^ 0x11
        }
        return codewords
    }

    /// The data split into blocks, each with its Reed–Solomon codewords, interleaved.
    private static func interleaved(_ data: [UInt8], version: Int) -> [UInt8] {
        let count = blocks[version]
        let eccLength = eccPerBlock[version]
        let raw = rawDataModules(version) / 8
        let shortBlocks = count - raw % count
        let shortLength = raw / count
        let divisor = reedSolomonDivisor(eccLength)
        var split: [[UInt8]] = []
        var start = 0
        for index in 0..<count {
            var block = Array(data[start..<start + shortLength - eccLength + (index < shortBlocks ? 0 : 1)])
            start += block.count
            let ecc = reedSolomonRemainder(block, divisor)
            if index < shortBlocks { block.append(0) }
            split.append(block + ecc)
        }
        var result: [UInt8] = []
        for i in 0..<split[0].count {
            for (j, block) in split.enumerated() where i != shortLength - eccLength || j >= shortBlocks {
                result.append(block[i])
            }
        }
        return result
    }

    private static func reedSolomonDivisor(_ degree: Int) -> [UInt8] {
        var result = Array(repeating: UInt8(0), count: degree - 1) + [1]
        var root: UInt8 = 1
        for _ in 0..<degree {
            for j in 0..<result.count {
                result[j] = multiply(result[j], root)
                if j + 1 < result.count { result[j] ^= result[j + 1] }
            }
            root = multiply(root, 2)
        }
        return result
    }

    private static func reedSolomonRemainder(_ data: [UInt8], _ divisor: [UInt8]) -> [UInt8] {
        var result = Array(repeating: UInt8(0), count: divisor.count)
        for byte in data {
            let factor = byte ^ result.removeFirst()
            result.append(0)
            for i in result.indices { result[i] ^= multiply(divisor[i], factor) }
        }
        return result
    }

    /// The product in GF(2⁸) modulo x⁸ + x⁴ + x³ + x² + 1.
    private static func multiply(_ x: UInt8, _ y: UInt8) -> UInt8 {
        var z = 0
        for i in stride(from: 7, through: 0, by: -1) {
            z = (z << 1) ^ ((z >> 7) * 0x11D)
            z ^= Int((y >> UInt8(i)) & 1) * Int(x)
        }
        return UInt8(z)
    }

    // MARK: Drawing

    private mutating func set(_ x: Int, _ y: Int, _ dark: Bool) {
        modules[y][x] = dark
        isFunction[y][x] = true
    }

    private mutating func drawFunctionPatterns() {
        for i in 0..<size {
            set(6, i, i % 2 == 0)
            set(i, 6, i % 2 == 0)
        }
        for (x, y) in [(3, 3), (size - 4, 3), (3, size - 4)] {
            for dy in -4...4 {
                for dx in -4...4 where (0..<size).contains(x + dx) && (0..<size).contains(y + dy) {
                    let distance = max(abs(dx), abs(dy))
                    set(x + dx, y + dy, distance != 2 && distance != 4)
                }
            }
        }
        let positions = alignmentPositions
        for (i, x) in positions.enumerated() {
            for (j, y) in positions.enumerated() {
                // Not over the finder patterns' corners.
                if (i == 0 && j == 0) || (i == 0 && j == positions.count - 1) || (i == positions.count - 1 && j == 0) { continue }
                for dy in -2...2 {
                    for dx in -2...2 { set(x + dx, y + dy, max(abs(dx), abs(dy)) != 1) }
                }
            }
        }
        drawFormatBits(mask: 0)  // reserves the format areas; redrawn with the chosen mask
        if version >= 7 {
            var remainder = version
            for _ in 0..<12 { remainder = (remainder << 1) ^ ((remainder >> 11) * 0x1F25) }
            let bits = version << 12 | remainder
            for i in 0..<18 {
                let dark = (bits >> i) & 1 == 1
                let (a, b) = (size - 11 + i % 3, i / 3)
                set(a, b, dark)
                set(b, a, dark)
            }
        }
    }

    private var alignmentPositions: [Int] {
        guard version > 1 else { return [] }
        let count = version / 7 + 2
        let step = (version * 8 + count * 3 + 5) / (count * 4 - 4) * 2
        return [6] + (0..<count - 1).map { size - 7 - $0 * step }.reversed()
    }

    /// Level M (`00`) and the mask, with their BCH code, in both copies; and the dark module.
    private mutating func drawFormatBits(mask: Int) {
        let data = mask
        var remainder = data
        for _ in 0..<10 { remainder = (remainder << 1) ^ ((remainder >> 9) * 0x537) }
        let bits = (data << 10 | remainder) ^ 0x5412
        func bit(_ i: Int) -> Bool { (bits >> i) & 1 == 1 }
        for i in 0...5 { set(8, i, bit(i)) }
        set(8, 7, bit(6))
        set(8, 8, bit(7))
        set(7, 8, bit(8))
        for i in 9..<15 { set(14 - i, 8, bit(i)) }
        for i in 0..<8 { set(size - 1 - i, 8, bit(i)) }
        for i in 8..<15 { set(8, size - 15 + i, bit(i)) }
        set(8, size - 8, true)
    }

    /// The codewords in the zigzag of two-module columns, right to left, skipping the vertical timing pattern.
    private mutating func drawCodewords(_ codewords: [UInt8]) {
        var index = 0
        var right = size - 1
        while right >= 1 {
            if right == 6 { right = 5 }
            for vertical in 0..<size {
                for j in 0..<2 {
                    let x = right - j
                    let upward = (right + 1) & 2 == 0
                    let y = upward ? size - 1 - vertical : vertical
                    if !isFunction[y][x], index < codewords.count * 8 {
                        modules[y][x] = (codewords[index >> 3] >> UInt8(7 - index & 7)) & 1 == 1
                        index += 1
                    }
                }
            }
            right -= 2
        }
    }

    private mutating func apply(mask: Int) {
        for y in 0..<size {
            for x in 0..<size where !isFunction[y][x] {
                let invert =
                    switch mask {
                    case 0: (x + y) % 2 == 0
                    case 1: y % 2 == 0
                    case 2: x % 3 == 0
                    case 3: (x + y) % 3 == 0
                    case 4: (x / 3 + y / 2) % 2 == 0
                    case 5: x * y % 2 + x * y % 3 == 0
                    case 6: (x * y % 2 + x * y % 3) % 2 == 0
                    default: ((x + y) % 2 + x * y % 3) % 2 == 0
                    }
                if invert { modules[y][x].toggle() }
            }
        }
    }

    // MARK: Choosing the mask

    /// The standard's penalty: runs of five or more, 2×2 blocks, finder-like patterns, and the dark share's distance
    /// from half.
    private func penaltyScore() -> Int {
        var result = 0
        for line in 0..<2 {
            for a in 0..<size {
                let row = (0..<size).map { line == 0 ? modules[a][$0] : modules[$0][a] }
                var run = 1
                for i in 1...size {
                    if i < size, row[i] == row[i - 1] {
                        run += 1
                    } else {
                        if run >= 5 { result += run - 2 }
                        run = 1
                    }
                }
                // 1:1:3:1:1 with four light modules on one side (or off the edge).
                let padded = Array(repeating: false, count: 4) + row + Array(repeating: false, count: 4)
                for i in 0...(padded.count - 11) {
                    let window = Array(padded[i..<i + 11])
                    let core = [true, false, true, true, true, false, true]
                    if Array(window[0..<7]) == core && window[7...].allSatisfy({ !$0 }) { result += 40 }
                    if Array(window[4..<11]) == core && window[0..<4].allSatisfy({ !$0 }) { result += 40 }
                }
            }
        }
        for y in 0..<size - 1 {
            for x in 0..<size - 1 {
                let color = modules[y][x]
                if color == modules[y][x + 1], color == modules[y + 1][x], color == modules[y + 1][x + 1] { result += 3 }
            }
        }
        let dark = modules.reduce(0) { $0 + $1.filter { $0 }.count }
        let total = size * size
        result += ((abs(dark * 20 - total * 10) + total - 1) / total - 1) * 10
        return result
    }
}
