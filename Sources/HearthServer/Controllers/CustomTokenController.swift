import Foundation
import HearthConfiguration
import HearthCore
import HearthTokens
import HearthWire
import Hummingbird

/// `accounts:signInWithCustomToken` (legacy `verifyCustomToken`): ``CustomTokenSignIn``.
struct CustomTokenController<Context: RequestContext>: Sendable {
    let services: HearthServices

    @Sendable func signInWithCustomToken(_ request: Request, context: Context) async throws -> Response {
        RequestRecord.noteSignInAttempt(provider: "custom", signUp: false)
        let input = try await WireCoding.decode(SignInWithCustomTokenRequest.self, from: request, limit: services.configuration.maxBodyBytes)
        let signedIn = try await SignInUseCases(services: services).customTokenSignIn(
            input.token, from: AuditTrail(services: services).clientOrigin(request, context: context))
        return WireCoding.response(
            SignInWithCustomTokenResponse(
                isNewUser: signedIn.isNewUser, idToken: signedIn.idToken, refreshToken: signedIn.refreshToken,
                expiresIn: String(signedIn.expiresIn)))
    }
}
