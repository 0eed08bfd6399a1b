import Foundation

/// A finished sign-in: the user as stored, and the session's tokens.
public struct SignedIn: Sendable {
    public var user: UserRecord
    public var idToken: String
    public var refreshToken: String
    /// Seconds the ID token lives.
    public var expiresIn: Int
    /// Whether the sign-in made the account.
    public var isNewUser: Bool
    /// The `sign_in_provider` of the session (`anonymous`, `password`, `custom`, `google.com`, …).
    public var signInProvider: String

    public init(user: UserRecord, idToken: String, refreshToken: String, expiresIn: Int, isNewUser: Bool, signInProvider: String) {
        self.user = user
        self.idToken = idToken
        self.refreshToken = refreshToken
        self.expiresIn = expiresIn
        self.isNewUser = isNewUser
        self.signInProvider = signInProvider
    }
}
