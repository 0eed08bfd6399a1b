#if canImport(AuthenticationServices) && !os(watchOS)
import AuthenticationServices
import Foundation

// FirebaseAuth's passkey calls on Apple platforms, over ASAuthorizationPlatformPublicKeyCredentialProvider: each turns
// AuthenticationServices' requests and credentials into the portable values and calls the portable form.
// Not compiled in this project's CI (Linux); kept to these few lines so that it can be read as right.

@available(iOS 15.0, macOS 12.0, tvOS 16.0, *)
extension User {
    /// Starts enrolling a passkey named `name`: the registration request to perform with an `ASAuthorizationController`,
    /// whose credential goes to `finalizePasskeyEnrollment(withPlatformCredential:)`.
    public func startPasskeyEnrollment(withName name: String?) async throws -> ASAuthorizationPlatformPublicKeyCredentialRegistrationRequest {
        let request = try await passkeyRegistrationRequest(name: name)
        let provider = ASAuthorizationPlatformPublicKeyCredentialProvider(relyingPartyIdentifier: request.relyingPartyIdentifier)
        return provider.createCredentialRegistrationRequest(challenge: request.challenge, name: request.name, userID: request.userID)
    }

    /// Enrolls the passkey the authorization controller made; see the portable form.
    @discardableResult
    public func finalizePasskeyEnrollment(
        withPlatformCredential platformCredential: ASAuthorizationPlatformPublicKeyCredentialRegistration
    ) async throws -> AuthDataResult {
        guard let attestationObject = platformCredential.rawAttestationObject else {
            throw AuthErrorFactory.error(.invalidAuthenticatorResponse, message: "The registration has no attestation object.")
        }
        return try await finalizePasskeyEnrollment(
            withPlatformCredential: PasskeyRegistration(
                credentialID: platformCredential.credentialID, rawClientDataJSON: platformCredential.rawClientDataJSON,
                rawAttestationObject: attestationObject))
    }
}

@available(iOS 15.0, macOS 12.0, tvOS 16.0, *)
extension Auth {
    /// Starts a username-less passkey sign-in: the assertion request to perform with an `ASAuthorizationController`,
    /// whose credential goes to `finalizePasskeySignIn(withPlatformCredential:)`.
    public func startPasskeySignIn() async throws -> ASAuthorizationPlatformPublicKeyCredentialAssertionRequest {
        let request = try await passkeyAssertionRequest()
        let provider = ASAuthorizationPlatformPublicKeyCredentialProvider(relyingPartyIdentifier: request.relyingPartyIdentifier)
        return provider.createCredentialAssertionRequest(challenge: request.challenge)
    }

    /// Signs in with the assertion the authorization controller made; see the portable form.
    @discardableResult
    public func finalizePasskeySignIn(
        withPlatformCredential platformCredential: ASAuthorizationPlatformPublicKeyCredentialAssertion
    ) async throws -> AuthDataResult {
        try await finalizePasskeySignIn(
            withPlatformCredential: PasskeyAssertion(
                credentialID: platformCredential.credentialID, rawClientDataJSON: platformCredential.rawClientDataJSON,
                rawAuthenticatorData: platformCredential.rawAuthenticatorData, signature: platformCredential.signature,
                userID: platformCredential.userID))
    }
}
#endif
