import Foundation

// Older FirebaseAuth spellings that documentation snippets still use, so that those snippets compile with only
// the import and configuration line changed. Each forwards to the current API; prefer that in new code.

extension Auth {
    /// FirebaseAuth ≤ 5: `fetchProviders(forEmail:)`, now ``fetchSignInMethods(forEmail:completion:)``.
    @available(*, deprecated, renamed: "fetchSignInMethods(forEmail:completion:)")
    public func fetchProviders(forEmail email: String, completion: (@MainActor @Sendable ([String]?, (any Error)?) -> Void)? = nil) {
        complete(completion) { try await self.signInMethods(forEmail: email) }
    }

    /// FirebaseAuth ≤ 5: `signInAndRetrieveData(with:)`, now ``Auth/signIn(with:completion:)-(AuthCredential,_)``.
    @available(*, deprecated, renamed: "signIn(with:completion:)")
    public func signInAndRetrieveData(
        with credential: AuthCredential, completion: (@MainActor @Sendable (AuthDataResult?, (any Error)?) -> Void)? = nil
    ) {
        signIn(with: credential, completion: completion)
    }

    /// ``signIn(with:completion:)`` for a credential that may be nil (snippets pass the optional a
    /// `getCredentialWith` completion received). Nil fails with ``AuthErrorCode/invalidCredential``.
    @available(*, deprecated, message: "Unwrap the credential and call signIn(with:completion:)")
    public func signIn(with credential: AuthCredential?, completion: (@MainActor @Sendable (AuthDataResult?, (any Error)?) -> Void)? = nil) {
        guard let credential else {
            complete(completion) { () async throws -> AuthDataResult in
                throw AuthErrorFactory.error(.invalidCredential, message: "The credential is nil.")
            }
            return
        }
        signIn(with: credential, completion: completion)
    }
}

extension User {
    /// FirebaseAuth ≤ 5: `linkAndRetrieveData(with:)`, now ``link(with:completion:)``.
    @available(*, deprecated, renamed: "link(with:completion:)")
    public func linkAndRetrieveData(
        with credential: AuthCredential, completion: (@MainActor @Sendable (AuthDataResult?, (any Error)?) -> Void)? = nil
    ) {
        link(with: credential, completion: completion)
    }

    /// FirebaseAuth ≤ 5: `reauthenticateAndRetrieveData(with:)`, now ``reauthenticate(with:completion:)``.
    @available(*, deprecated, renamed: "reauthenticate(with:completion:)")
    public func reauthenticateAndRetrieveData(
        with credential: AuthCredential, completion: (@MainActor @Sendable (AuthDataResult?, (any Error)?) -> Void)? = nil
    ) {
        reauthenticate(with: credential, completion: completion)
    }
}

/// Snippets that call `Auth().currentUser.link(withCredential:)` without unwrapping `currentUser` (the Microsoft and
/// Twitter guides). With no current user the completion gets ``AuthErrorCode/nullUser``.
extension Optional where Wrapped == User {
    @available(*, deprecated, message: "Use currentUser?.link(with:completion:)")
    public func link(withCredential credential: AuthCredential?, completion: (@MainActor @Sendable (AuthDataResult?, (any Error)?) -> Void)? = nil) {
        guard let user = self else { return failNullUser(completion) }
        guard let credential else { return failNilCredential(completion) }
        user.link(with: credential, completion: completion)
    }

    @available(*, deprecated, message: "Use currentUser?.reauthenticate(with:completion:)")
    public func reauthenticateWithCredential(
        withCredential credential: AuthCredential?, completion: (@MainActor @Sendable (AuthDataResult?, (any Error)?) -> Void)? = nil
    ) {
        guard let user = self else { return failNullUser(completion) }
        guard let credential else { return failNilCredential(completion) }
        user.reauthenticate(with: credential, completion: completion)
    }

    private func failNullUser(_ completion: (@MainActor @Sendable (AuthDataResult?, (any Error)?) -> Void)?) {
        complete(completion) { () async throws -> AuthDataResult in throw AuthErrorFactory.error(.nullUser) }
    }

    private func failNilCredential(_ completion: (@MainActor @Sendable (AuthDataResult?, (any Error)?) -> Void)?) {
        complete(completion) { () async throws -> AuthDataResult in
            throw AuthErrorFactory.error(.invalidCredential, message: "The credential is nil.")
        }
    }
}
