import HearthCore

/// The lockout's subject keys for what an administrator types, normalised as the server keys them.
public enum LockoutSubjects {
    /// The subject of the account with `email`; `nil` when it is not an e-mail address.
    public static func account(email: String) -> String? {
        EmailAddress.normalize(email).map { PasswordLockout.accountSubject(email: $0) }
    }

    /// The subject of the client address `text` (IPv4 or IPv6, any spelling; IPv6 addresses count per
    /// /64); `nil` when it is none.
    public static func address(_ text: String) -> String? {
        IPAddress(text.hasSuffix("/64") ? String(text.dropLast(3)) : text).map { PasswordLockout.addressSubject($0.limitKey) }
    }
}
