/// One passkey of a user, as FirebaseAuth's `PasskeyInfo` (``User/enrolledPasskeys``).
public final class PasskeyInfo: Sendable {
    /// The name given when it was enrolled.
    public let name: String
    /// The credential id, base64url, as ``User/unenrollPasskey(withCredentialID:)`` takes it.
    public let credentialID: String

    public init(name: String, credentialID: String) {
        self.name = name
        self.credentialID = credentialID
    }
}
