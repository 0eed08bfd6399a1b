import Crypto
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
/// In Firebase's own mode the provider sends the browser to the app's redirect URI instead, and the app hands
/// the callback to `accounts:signInWithIdp` (docs/browser-sign-in.md, "The app's own redirect URI"). That mode
/// has one step, ``Kind-swift.enum/callback``: written by `createAuthUri` like a pending row, consumed by
/// `signInWithIdp`, never by the redirect handler.
///
/// All are short-lived (``expiresAt``) and bound to the client's `sessionId`.
public struct AuthSessionRecord: Sendable, Equatable {
    /// Which step of the flow the row is.
    public enum Kind: String, Sendable, Equatable {
        /// Waiting for the provider's answer at the redirect handler.
        case pending
        /// The provider answered; waiting for `signInWithIdp`.
        case completed
        /// Waiting for the app to hand the provider's answer to `signInWithIdp` (the app's redirect URI is the
        /// provider's `redirect_uri`).
        case callback
    }

    /// The key: the OAuth `state` (pending, callback) or the one-time result code (completed). Random, 256 bits;
    /// Twitter's callback rows are keyed by ``id(forRequestToken:)``, as Twitter sends no `state` back.
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

    /// The key of a row found by Twitter's request token (`oauth_token` in Twitter's callback): SHA-256 of the
    /// token, base64url (43 characters, the form of ``makeID()``). The token itself is not stored as a key.
    public static func id(forRequestToken token: String) -> String {
        Base64URL.encode(Data(SHA256.hash(data: Data(token.utf8))))
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
