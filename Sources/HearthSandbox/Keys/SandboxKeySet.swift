import Foundation

/// A provider's keys: the published ones (newest first; the first signs) and one deliberately unpublished key
/// used to forge tokens for rejection tests.
struct SandboxKeySet: Sendable {
    let style: SandboxSigningKey.KeyIDStyle
    /// RS256 for most providers, ES256 for Yahoo; every key of the set, the unpublished one included, uses it.
    let algorithm: SandboxSigningKey.Algorithm
    private(set) var published: [SandboxSigningKey]
    private var unpublishedKey: SandboxSigningKey?

    init(style: SandboxSigningKey.KeyIDStyle, algorithm: SandboxSigningKey.Algorithm = .rs256) throws {
        self.style = style
        self.algorithm = algorithm
        published = [try SandboxSigningKey(style: style, algorithm: algorithm)]
    }

    /// The key new tokens are signed with.
    var active: SandboxSigningKey { published[0] }

    /// A key that never appears in the JWKS, created on first use.
    mutating func unpublished() throws -> SandboxSigningKey {
        if let unpublishedKey { return unpublishedKey }
        let key = try SandboxSigningKey(style: style, algorithm: algorithm)
        unpublishedKey = key
        return key
    }

    /// Makes a new key the active one. The previous keys stay published when `keepPrevious` (as the real
    /// providers do during a rotation), otherwise only the new key is published.
    mutating func rotate(keepPrevious: Bool) throws -> SandboxSigningKey {
        let key = try SandboxSigningKey(style: style, algorithm: algorithm)
        published = keepPrevious ? [key] + published : [key]
        return key
    }

    func key(withID kid: String) -> SandboxSigningKey? { published.first { $0.kid == kid } }

    /// `{"keys":[…]}`.
    func jwks() throws -> SandboxJSON {
        .object(["keys": .array(try published.map { try $0.jwk() })])
    }
}
