import Foundation

/// FirebaseAuth's provider-driven calls: the credential comes from a browser sign-in (``AuthUIDelegate``),
/// then signs in, links or reauthenticates like any credential.
extension Auth {
    public func signIn(
        with provider: OAuthProvider, uiDelegate: (any AuthUIDelegate)?,
        completion: (@MainActor @Sendable (AuthDataResult?, (any Error)?) -> Void)? = nil
    ) {
        complete(completion) { try await self.signIn(with: provider, uiDelegate: uiDelegate) }
    }

    @discardableResult
    public func signIn(with provider: OAuthProvider, uiDelegate: (any AuthUIDelegate)?) async throws -> AuthDataResult {
        try await signIn(with: try await provider.credential(with: uiDelegate))
    }
}

extension User {
    public func link(
        with provider: OAuthProvider, uiDelegate: (any AuthUIDelegate)?,
        completion: (@MainActor @Sendable (AuthDataResult?, (any Error)?) -> Void)? = nil
    ) {
        complete(completion) { try await self.link(with: provider, uiDelegate: uiDelegate) }
    }

    @discardableResult
    public func link(with provider: OAuthProvider, uiDelegate: (any AuthUIDelegate)?) async throws -> AuthDataResult {
        try await link(with: try await provider.credential(with: uiDelegate))
    }

    public func reauthenticate(
        with provider: OAuthProvider, uiDelegate: (any AuthUIDelegate)?,
        completion: (@MainActor @Sendable (AuthDataResult?, (any Error)?) -> Void)? = nil
    ) {
        complete(completion) { try await self.reauthenticate(with: provider, uiDelegate: uiDelegate) }
    }

    @discardableResult
    public func reauthenticate(with provider: OAuthProvider, uiDelegate: (any AuthUIDelegate)?) async throws -> AuthDataResult {
        try await reauthenticate(with: try await provider.credential(with: uiDelegate))
    }
}
