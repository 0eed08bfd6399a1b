import Foundation

/// An OAuth 1.0a access token the sandbox issued.
struct IssuedTwitterToken: Sendable {
    let identity: SandboxIdentity
    let consumerKey: String
    let secret: String
    var revoked = false
}
