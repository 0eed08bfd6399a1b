import Foundation
import HearthConfiguration
import HearthCore
import HearthTokens
import HearthWire
import HearthWireMapping
import Hummingbird

/// `accounts:signInWithCustomToken` (legacy `verifyCustomToken`): ``CustomTokenSignIn``.
struct CustomTokenController<Context: RequestContext>: Sendable {
    let signIn: CustomTokenSignIn
    let audit: AuditTrail
    let maxBodyBytes: Int

    @Sendable func signInWithCustomToken(_ request: Request, context: Context) async throws -> Response {
        RequestRecord.noteSignInAttempt(provider: "custom", signUp: false)
        let input = try await WireCoding.decode(SignInWithCustomTokenRequest.self, from: request, limit: maxBodyBytes)
        let signedIn = try await signIn(input.token, from: audit.clientOrigin(request, context: context))
        return WireCoding.response(
            SignInWithCustomTokenResponse(
                isNewUser: signedIn.isNewUser, idToken: signedIn.idToken, refreshToken: signedIn.refreshToken,
                expiresIn: String(signedIn.expiresIn)))
    }
}
