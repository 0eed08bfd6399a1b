/// Percent-encoding of a query value: everything but RFC 3986's unreserved characters.
enum URLQueryEncoding {
    static func encode(_ value: String) -> String {
        var encoded = ""
        let hex: [Character] = Array("0123456789ABCDEF")
        for byte in value.utf8 {
            switch byte {
            case UInt8(ascii: "a")...UInt8(ascii: "z"), UInt8(ascii: "A")...UInt8(ascii: "Z"), UInt8(ascii: "0")...UInt8(ascii: "9"),
                UInt8(ascii: "-"), UInt8(ascii: "."), UInt8(ascii: "_"), UInt8(ascii: "~"):
                encoded.append(Character(UnicodeScalar(byte)))
            default:
                encoded += "%" + String(hex[Int(byte >> 4)]) + String(hex[Int(byte & 0xF)])
            }
        }
        return encoded
    }
}
