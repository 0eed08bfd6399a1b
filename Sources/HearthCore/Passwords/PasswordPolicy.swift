/// What a new password must be: Firebase's rule, at least six characters (`WEAK_PASSWORD`). The one place it is
/// written; sign-up, a person's own update, an administrator's create and update, and a password reset ask it.
public enum PasswordPolicy {
    /// The fewest characters a password may have.
    public static let minimumLength = 6

    /// Whether `password` is long enough.
    public static func accepts(_ password: String) -> Bool {
        password.count >= minimumLength
    }

    /// Throws `WEAK_PASSWORD` unless ``accepts(_:)``.
    public static func check(_ password: String) throws {
        guard accepts(password) else { throw HearthError(.weakPassword) }
    }
}
