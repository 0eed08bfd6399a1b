import Foundation

/// What the sandbox SAML IdP remembers, inside ``SandboxState``.
struct SandboxSAMLState: Sendable {
    /// Made on first use: an RSA key costs time, and most sandboxes never sign a SAML response.
    var key: SandboxSAMLKey?
    var users: [SandboxSAMLUser] = SandboxSAMLUser.presets
    var signsAssertion = true
    var signsResponse = true
    /// The last AuthnRequest the SSO endpoint accepted.
    var lastRequest: SandboxSAMLRequest?

    mutating func signingKey(now: Date) throws -> SandboxSAMLKey {
        if let key { return key }
        let made = try SandboxSAMLKey(now: now)
        key = made
        return made
    }
}
