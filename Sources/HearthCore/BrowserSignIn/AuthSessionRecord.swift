import Foundation
import HearthBase64URL

/// One step of a browser sign-in that Hearth must remember between two HTTP requests, possibly answered by
/// different replicas.
///
/// A browser sign-in has two such steps, each a row that is consumed (read and deleted) exactly once:
///
/// 1. ``Kind-swift.enum/pending``: written by `accounts:createAuthUri`, keyed by the OAuth `state` sent to the
///    provider. It holds what the redirect handler needs to finish the protocol: the PKCE verifier, the raw
///    nonce, the Microsoft tenant, Twitter's request-token secret, and where to send the browser back.
/// 2. ``Kind-swift.enum/completed``: written by the redirect handler once the provider has answered and the
///    code was exchanged, keyed by a fresh one-time result code carried in the `requestUri` the app receives.
///    It holds the provider credential (tokens, Apple's first-time `user` JSON) until `accounts:signInWithIdp`
///    with the same `sessionId` consumes it.
///
/// Both are short-lived (``expiresAt``) and bound to the client's `sessionId`.
public struct AuthSessionRecord: Sendable, Equatable {
    /// Which step of the flow the row is.
    public enum Kind: String, Sendable, Equatable {
        /// Waiting for the provider's answer at the redirect handler.
        case pending
        /// The provider answered; waiting for `signInWithIdp`.
        case completed
    }

    /// The key: the OAuth `state` (pending) or the one-time result code (completed). Random, 256 bits.
    public var id: String
    public var kind: Kind
    /// The `sessionId` of `createAuthUri`; `signInWithIdp` must present the same one.
    public var sessionID: String
    /// `google.com`, `apple.com`, …, `oidc.<name>`.
    public var providerID: String
    /// The app's return URL (`continueUri`): a custom scheme or a loopback address.
    public var continueURI: String
    public var createdAt: Date
    public var expiresAt: Date
    /// Everything else, by name: `code_verifier`, `nonce`, `tenant`, `request_token`, `request_token_secret`
    /// for a pending row; `id_token`, `access_token`, `oauth_token_secret`, `nonce`, `user` for a completed one.
    /// Secrets while they live; the row is deleted when consumed and pruned when expired.
    public var values: [String: String]

    public init(
        id: String, kind: Kind, sessionID: String, providerID: String, continueURI: String, createdAt: Date,
        expiresAt: Date, values: [String: String] = [:]
    ) {
        self.id = id
        self.kind = kind
        self.sessionID = sessionID
        self.providerID = providerID
        self.continueURI = continueURI
        self.createdAt = createdAt
        self.expiresAt = expiresAt
        self.values = values
    }

    /// Whether `id` has the form of ``makeID()``: 43 base64url characters. Anything else names no sign-in
    /// and need not be looked up.
    public static func isWellFormedID(_ id: String) -> Bool {
        id.utf8.count == 43
            && id.utf8.allSatisfy { byte in
                (UInt8(ascii: "A")...UInt8(ascii: "Z")).contains(byte) || (UInt8(ascii: "a")...UInt8(ascii: "z")).contains(byte)
                    || (UInt8(ascii: "0")...UInt8(ascii: "9")).contains(byte) || byte == UInt8(ascii: "-") || byte == UInt8(ascii: "_")
            }
    }

    /// Whether `sessionID` (the client's `sessionId` of `createAuthUri`) can be kept: 1 to 512 bytes of
    /// printable ASCII.
    public static func isValidSessionID(_ sessionID: String) -> Bool {
        !sessionID.isEmpty && sessionID.utf8.count <= 512 && sessionID.utf8.allSatisfy { (0x21...0x7E).contains($0) }
    }

    /// A random key: 32 bytes, base64url without padding (43 characters).
    public static func makeID() -> String {
        var generator = SystemRandomNumberGenerator()
        var bytes: [UInt8] = []
        bytes.reserveCapacity(32)
        for _ in 0..<4 {
            withUnsafeBytes(of: generator.next() as UInt64) { bytes.append(contentsOf: $0) }
        }
        return Base64URL.encode(bytes)
    }
}
