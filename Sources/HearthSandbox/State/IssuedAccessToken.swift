import Foundation

/// An opaque access token the sandbox issued.
struct IssuedAccessToken: Sendable {
    let provider: SandboxProvider
    let identity: SandboxIdentity
    /// Google client id, Facebook app id, GitHub, Yahoo or Apple client id the token was issued to.
    let clientID: String
    let scopes: [String]
    let issuedAt: Date
    let expiresAt: Date?
    var revoked = false
}
