import Foundation

/// What an Apple authorization code or refresh token stands for.
struct AppleGrant: Sendable {
    let identity: SandboxIdentity
    let clientID: String
    let redirectURI: String?
    let nonce: SandboxNonce?
    let issuedAt: Date
    var used = false
}
