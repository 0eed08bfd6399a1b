/// One entry of GitHub's `/user/emails`.
public struct SandboxEmailAddress: Sendable, Hashable {
    public var email: String
    public var verified: Bool
    /// `public`, `private`, or `nil` (GitHub reports `null` for non-primary addresses).
    public var visibility: String?

    public init(email: String, verified: Bool, visibility: String? = nil) {
        self.email = email
        self.verified = verified
        self.visibility = visibility
    }
}
