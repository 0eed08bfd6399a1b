import Foundation

/// E-mail normalisation and validation: lower-cased in full, an RFC 5322-ish addr-spec under 256 characters.
public enum EmailAddress {
    public static func normalize(_ raw: String) -> String? {
        let email = raw.trimmingCharacters(in: .whitespaces).lowercased()
        guard email.count < 256, email.unicodeScalars.allSatisfy({ $0.value > 0x20 && $0.value != 0x7F }) else { return nil }
        let parts = email.split(separator: "@", omittingEmptySubsequences: false)
        guard parts.count == 2, let local = parts.first, let domain = parts.last,
            !local.isEmpty, local.count <= 64, !domain.isEmpty,
            !local.hasPrefix("."), !local.hasSuffix("."), !local.contains(".."),
            !domain.hasPrefix("."), !domain.hasSuffix("."), !domain.contains(".."), !domain.hasPrefix("-")
        else { return nil }
        let forbidden = CharacterSet(charactersIn: "()<>[]\\,;:\"")
        guard local.unicodeScalars.allSatisfy({ !forbidden.contains($0) }),
            domain.unicodeScalars.allSatisfy({ CharacterSet.alphanumerics.contains($0) || $0 == "-" || $0 == "." })
        else { return nil }
        return email
    }
}
