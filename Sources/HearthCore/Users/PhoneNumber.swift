/// Phone numbers as accounts keep them: E.164, a `+` and 2 to 15 digits, nothing else.
public enum PhoneNumber {
    /// `raw` when it is E.164; `nil` otherwise (spaces, dashes and letters are refused, not removed).
    public static func validated(_ raw: String) -> String? {
        let digits = raw.utf8.dropFirst()
        guard raw.utf8.first == UInt8(ascii: "+"), (2...15).contains(digits.count),
            digits.first != UInt8(ascii: "0"), digits.allSatisfy({ $0 >= 0x30 && $0 <= 0x39 })
        else { return nil }
        return raw
    }
}
