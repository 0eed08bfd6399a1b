import Foundation

/// Checks a custom token a backend signed (its signature, issuer, audience, times and claims).
public protocol CustomTokenChecking: Sendable {
    /// The uid the token vouches for and its developer claims; `INVALID_CUSTOM_TOKEN` and the claims' errors.
    func check(_ token: String) async throws -> (uid: String, claims: [String: JSONValue])
}

/// `accounts:signInWithCustomToken`: signs in the uid a backend vouches for, making the account on first use.
/// The token's developer claims ride in every ID token of the session, refreshes included.
public struct CustomTokenSignIn: Sendable {
    public let customTokens: any CustomTokenChecking
    public let completion: SignInCompletion

    public init(customTokens: any CustomTokenChecking, completion: SignInCompletion) {
        self.customTokens = customTokens
        self.completion = completion
    }

    /// Throws `MISSING_CUSTOM_TOKEN`, the token's errors, and `USER_DISABLED`.
    public func callAsFunction(_ token: String?, from origin: ClientOrigin) async throws -> SignedIn {
        guard let token, !token.isEmpty else { throw HearthError(.missingCustomToken) }
        let verified = try await customTokens.check(token)
        let now = completion.clock.now
        let signIn: @Sendable (inout UserRecord) throws -> Void = { user in
            if user.disabled { throw HearthError(.userDisabled) }
            user.customAuth = true
            user.lastLoginAt = now
        }
        // Most sign-ins are of a uid seen before: read first, so they write once.
        let write: SignInCompletion.Write =
            if try await completion.store.user(uid: verified.uid) != nil {
                .update(uid: verified.uid, change: signIn)
            } else {
                .createOrUpdate(UserRecord(uid: verified.uid, customAuth: true, createdAt: now, lastLoginAt: now, validSince: now), change: signIn)
            }
        return try await StoreConflict.mapped {
            try await completion.complete(write, .init(provider: "custom", origin: origin.audit, sessionClaims: verified.claims))
        }
    }
}
