import Foundation
import HearthBase64URL
import HearthWire

extension Auth {
    /// Starts a username-less passkey sign-in (`passkeySignIn:start`, in ``tenantID``'s tenant): the challenge and RP ID
    /// for an authenticator, whose answer goes to `finalizePasskeySignIn(withPlatformCredential:)`. On Apple platforms
    /// FirebaseAuth's form, which gives an `ASAuthorizationPlatformPublicKeyCredentialAssertionRequest`, is the one an
    /// unannotated call picks; this one is for `let request: PasskeyAssertionRequest = …`.
    @_disfavoredOverload
    public func startPasskeySignIn() async throws -> PasskeyAssertionRequest {
        try await passkeyAssertionRequest()
    }

    public func startPasskeySignIn(completion: (@MainActor @Sendable (PasskeyAssertionRequest?, (any Error)?) -> Void)?) {
        complete(completion) { try await self.passkeyAssertionRequest() }
    }

    func passkeyAssertionRequest() async throws -> PasskeyAssertionRequest {
        let response: StartPasskeySignInResponse = try await engine.backend.call(.startPasskeySignIn, StartPasskeySignInRequest(tenantId: tenantID))
        let options = response.credentialRequestOptions
        guard let challenge = Base64URL.decode(options.challenge) else {
            throw AuthErrorFactory.error(.internalError, message: "The server's passkey request options are not base64url.")
        }
        return PasskeyAssertionRequest(relyingPartyIdentifier: options.rpId, challenge: Data(challenge))
    }

    /// Signs in with an authenticator's assertion (`passkeySignIn:finalize`): the passkey's account becomes the current
    /// user. A passkey the server does not know (removed, or of another tenant) fails with
    /// ``AuthErrorCode/missingPasskeyEnrollment``, an answer it cannot verify with
    /// ``AuthErrorCode/invalidAuthenticatorResponse``; an account with second factors whose authenticator did not verify
    /// the user asks for one (``AuthErrorCode/secondFactorRequired``).
    @discardableResult
    public func finalizePasskeySignIn(withPlatformCredential platformCredential: PasskeyAssertion) async throws -> AuthDataResult {
        let credential = AuthenticatorAuthenticationResponse(
            id: Base64URL.encode(platformCredential.credentialID),
            response: AuthenticatorAssertionResponseJSON(
                clientDataJSON: Base64URL.encode(platformCredential.rawClientDataJSON),
                authenticatorData: Base64URL.encode(platformCredential.rawAuthenticatorData),
                signature: Base64URL.encode(platformCredential.signature),
                userHandle: platformCredential.userID.isEmpty ? nil : Base64URL.encode(platformCredential.userID)))
        let response: PasskeyTokensResponse = try await engine.backend.call(
            .finalizePasskeySignIn, FinalizePasskeySignInRequest(authenticatorAuthenticationResponse: credential, tenantId: tenantID))
        let user = try await engine.makeUser(
            idToken: response.idToken, refreshToken: response.refreshToken, expiresIn: response.expiresIn, isAnonymous: false)
        try engine.setCurrentUser(user)
        return AuthDataResult(user: user, additionalUserInfo: nil, credential: nil)
    }

    public func finalizePasskeySignIn(
        withPlatformCredential platformCredential: PasskeyAssertion, completion: (@MainActor @Sendable (AuthDataResult?, (any Error)?) -> Void)?
    ) {
        complete(completion) { try await self.finalizePasskeySignIn(withPlatformCredential: platformCredential) }
    }
}
