import Foundation

extension Data {
    /// Lower-case hexadecimal.
    var hexString: String { map { String(format: "%02x", $0) }.joined() }
}

extension Data {
    /// The bytes of an even-length hexadecimal string (either case); `nil` for anything else.
    init?(hexString: some StringProtocol) {
        guard hexString.count.isMultiple(of: 2), hexString.allSatisfy(\.isHexDigit), hexString.utf8.count == hexString.count else { return nil }
        var bytes: [UInt8] = []
        bytes.reserveCapacity(hexString.count / 2)
        var index = hexString.startIndex
        while index < hexString.endIndex {
            let next = hexString.index(index, offsetBy: 2)
            guard let byte = UInt8(hexString[index..<next], radix: 16) else { return nil }
            bytes.append(byte)
            index = next
        }
        self.init(bytes)
    }
}
