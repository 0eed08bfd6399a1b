import Foundation

/// One request Apple's `/auth/revoke` accepted, as the sandbox recorded it.
public struct AppleRevocation: Sendable, Equatable {
    /// The `client_id` (Services ID or bundle id) that authenticated.
    public let clientID: String
    /// The `token` sent.
    public let token: String
    /// `token_type_hint` as sent (`refresh_token`, `access_token`), `nil` when absent.
    public let tokenTypeHint: String?
    /// The Apple account the token belongs to; `nil` for a token the sandbox never issued to `clientID` (Apple
    /// answers 200 for those too).
    public let subject: String?
    public let revokedAt: Date
}
