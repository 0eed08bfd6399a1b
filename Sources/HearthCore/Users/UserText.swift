/// What text Hearth stores about a user, and what it refuses.
///
/// Every value must come back from storage exactly as it went in, on both backends: PostgreSQL refuses
/// a NUL in `text`, and SQLite's driver reads text back only up to the first NUL, so a uid `victim\0x`
/// would be read as `victim`. NUL never enters, and uids, which address accounts, take no control or
/// format characters at all.
public enum UserText {
    /// The longest display name accepted, in characters.
    public static let maxDisplayNameLength = 256
    /// The longest photo URL accepted, in UTF-8 bytes.
    public static let maxPhotoURLBytes = 2_048
    /// The longest uid, in UTF-8 bytes (Firebase: 128 characters).
    public static let maxUIDBytes = 128

    /// Whether `uid` can name an account: 1 to 128 bytes of printable characters.
    public static func isValidUID(_ uid: String) -> Bool {
        !uid.isEmpty && uid.utf8.count <= maxUIDBytes && uid.unicodeScalars.allSatisfy(isPrintable)
    }

    /// `name` when it is a display name Hearth keeps: at most 256 characters, no control characters.
    /// Throws `INVALID_DISPLAY_NAME`.
    public static func displayName(_ name: String) throws -> String {
        guard name.count <= maxDisplayNameLength, name.unicodeScalars.allSatisfy({ !isControl($0) }) else {
            throw HearthError(.invalidDisplayName, reason: "display name of \(name.utf8.count) bytes with control characters or too long")
        }
        return name
    }

    /// `url` when it is a photo URL Hearth keeps: an absolute `http(s)` URL of at most 2,048 bytes, no
    /// white space or control characters (never `javascript:`, `data:` or `file:`). Throws `INVALID_PHOTO_URL`.
    public static func photoURL(_ url: String) throws -> String {
        let lowered = url.lowercased()
        guard url.utf8.count <= maxPhotoURLBytes, lowered.hasPrefix("https://") || lowered.hasPrefix("http://"),
            url.unicodeScalars.allSatisfy({ isPrintable($0) && !$0.properties.isWhitespace && $0 != "\\" }),
            url.split(separator: "/", maxSplits: 3, omittingEmptySubsequences: false).count >= 3,
            !url.split(separator: "/", maxSplits: 3, omittingEmptySubsequences: false)[2].isEmpty
        else {
            throw HearthError(.invalidPhotoURL, reason: "photo URL of \(url.utf8.count) bytes that is not an absolute http(s) URL")
        }
        return url
    }

    /// A display name or photo URL from an identity provider, kept only when Hearth would accept it from
    /// the user: a provider's odd profile never fails a sign-in, it is left out.
    public static func fromProvider(displayName: String?) -> String? {
        displayName.flatMap { try? Self.displayName($0) }
    }

    /// See ``fromProvider(displayName:)``.
    public static func fromProvider(photoURL: String?) -> String? {
        photoURL.flatMap { try? Self.photoURL($0) }
    }

    /// Whether `text` can be stored and read back whole (no NUL).
    public static func isStorable(_ text: String) -> Bool { !text.utf8.contains(0) }

    private static func isControl(_ scalar: Unicode.Scalar) -> Bool {
        scalar.value < 0x20 || (0x7F...0x9F).contains(scalar.value)
    }

    private static func isPrintable(_ scalar: Unicode.Scalar) -> Bool {
        !isControl(scalar) && scalar.properties.generalCategory != .format && scalar.properties.generalCategory != .lineSeparator
            && scalar.properties.generalCategory != .paragraphSeparator
    }
}
