import Foundation
import HearthWire

/// Sign in with Apple's token revocation, which App Store Review Guideline 5.1.1(v) asks of apps that let people
/// delete their account.
extension Auth {
    /// Has the server revoke the current user's Apple tokens (`accounts:revokeToken`): it redeems
    /// `authorizationCode` (`ASAuthorizationAppleIDCredential.authorizationCode` as a string) at Apple and revokes
    /// what Apple issued for it. Call it before ``User/delete()``. As in FirebaseAuth, without a current user it
    /// does nothing. A code Apple refuses (used, expired, for another app) fails with
    /// ``AuthErrorCode/invalidCredential``.
    public func revokeToken(withAuthorizationCode authorizationCode: String, completion: (@MainActor @Sendable ((any Error)?) -> Void)? = nil) {
        complete(completion) { try await self.revokeToken(withAuthorizationCode: authorizationCode) }
    }

    public func revokeToken(withAuthorizationCode authorizationCode: String) async throws {
        guard let user = currentUser else { return }
        let idToken = try await user.getIDToken()
        var request = RevokeTokenRequest(idToken: idToken, providerId: "apple.com", tokenType: "CODE", token: authorizationCode)
        request.tenantId = tenantID
        let _: RevokeTokenResponse = try await engine.backend.call(.revokeToken, request)
    }
}
