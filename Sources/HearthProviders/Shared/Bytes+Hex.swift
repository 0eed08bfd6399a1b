extension Sequence where Element == UInt8 {
    /// Lower-case hexadecimal, two digits per byte.
    var lowercaseHex: String {
        let digits: [Character] = Array("0123456789abcdef")
        var result = ""
        for byte in self {
            result.append(digits[Int(byte >> 4)])
            result.append(digits[Int(byte & 0x0f)])
        }
        return result
    }
}
