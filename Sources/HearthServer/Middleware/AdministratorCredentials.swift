import Crypto
import Foundation
import HTTPTypes
import HearthConfiguration
import HearthTokens
import Hummingbird

/// Decides whether a bearer credential (`Authorization: Bearer <credential>`) is an administrator's: one of
/// `admin.tokens`, an access token a service-account key obtained at the token endpoint
/// (``AdminAccessTokens``), or in development mode the Firebase emulator's `owner`.
struct AdministratorCredentials: Sendable {
    let acceptsOwner: Bool
    let tokens: [String]
    let accessTokens: AdminAccessTokens?

    init(configuration: ServerConfiguration, accessTokens: AdminAccessTokens? = nil) {
        acceptsOwner = configuration.mode == .development
        tokens = configuration.adminTokens
        self.accessTokens = accessTokens
    }

    /// The bearer credential of `request`: `nil` without an `Authorization` header or with another scheme
    /// (the emulator ignores those too), `""` for a bearer without a value.
    static func bearer(of request: Request) -> String? {
        guard let header = request.headers[.authorization] else { return nil }
        let parts = header.split(separator: " ", maxSplits: 1, omittingEmptySubsequences: true)
        guard parts.first?.lowercased() == "bearer" else { return nil }
        return parts.count == 2 ? parts[1].trimmingCharacters(in: .whitespaces) : ""
    }

    /// Which administrator's credential `presented` is, as audit events name it: `owner`, `token:` and the first 8 hex
    /// digits of an `admin.tokens` entry's SHA-256 (nothing a guess could use), or `key:<key id>:<service account>` for
    /// an access token; `nil` when it is none.
    func identify(_ presented: String) async throws -> Administrator? {
        guard !presented.isEmpty else { return nil }
        if acceptsOwner && presented.lowercased() == "owner" { return Administrator(name: "owner") }
        if tokens.contains(where: { Self.constantTimeEquals($0, presented) }) {
            return Administrator(name: "token:" + SHA256.hash(data: Data(presented.utf8)).prefix(4).map { String(format: "%02x", $0) }.joined())
        }
        guard let accessTokens, presented.utf8.count <= AdminAccessTokens.maximumAssertionLength,
            presented.utf8.count(where: { $0 == UInt8(ascii: ".") }) == 2
        else { return nil }
        return try await accessTokens.key(of: presented).map { Administrator(name: "key:\($0.keyID):\($0.clientEmail)", tenantID: $0.tenantID) }
    }

    /// Compares the SHA-256 digests of both, byte by byte without stopping at the first difference: the
    /// time taken says nothing about the token, and any difference in length or content changes the digest.
    static func constantTimeEquals(_ expected: String, _ presented: String) -> Bool {
        let a = SHA256.hash(data: Data(expected.utf8))
        let b = SHA256.hash(data: Data(presented.utf8))
        var difference: UInt8 = 0
        for (x, y) in zip(a, b) { difference |= x ^ y }
        return difference == 0
    }
}

/// An administrator's credential: its name in audit events, and the one tenant it administers (a service-account key
/// made with `--tenant`); `nil`: the whole project.
struct Administrator: Sendable, Equatable {
    var name: String
    var tenantID: String?
}
