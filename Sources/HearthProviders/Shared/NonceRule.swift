import Crypto
import Foundation
import HearthCore

/// The nonce rule of every ID-token provider: the token carries `lowercase_hex(SHA-256(raw nonce))` and the
/// request carries the raw nonce. A token with a nonce needs the raw nonce; a raw nonce needs a token
/// nonce; and they must match.
enum NonceRule {
    /// Lower-case hex SHA-256 of `raw`, as clients put it in the authorization request.
    static func hash(_ raw: String) -> String {
        SHA256.hash(data: Data(raw.utf8)).lowercaseHex
    }

    /// Throws `MISSING_OR_INVALID_NONCE` unless the token's `nonce` claim and the request's raw nonce agree.
    static func check(tokenNonce: JSONValue?, rawNonce: String?, required: Bool) throws {
        let raw = rawNonce.flatMap { $0.isEmpty ? nil : $0 }
        guard let raw else {
            if tokenNonce != nil || required { throw ProviderFailure.nonce("Nonce is missing in the request.") }
            return
        }
        guard let tokenNonce else { throw ProviderFailure.nonce("Nonce is missing in the ID token.") }
        guard case .string(let claim) = tokenNonce, claim == hash(raw) else {
            let shown: String = if case .string(let s) = tokenNonce { s } else { tokenNonce.jsonText }
            throw ProviderFailure.nonce(
                "The nonce in ID Token \"\(shown)\" does not match the SHA256 hash of the raw nonce \"\(raw)\" in the request.")
        }
    }
}
