import Foundation

/// What an authenticator needs for a username-less sign-in: ``Auth/startPasskeySignIn()``'s answer where
/// AuthenticationServices is not, the values of FirebaseAuth's `ASAuthorizationPlatformPublicKeyCredentialAssertionRequest`.
///
/// Hand them to an authenticator (WebAuthn's `get()` with no allowed credentials: it offers its passkeys for the RP ID)
/// and give its answer to ``Auth/finalizePasskeySignIn(withPlatformCredential:)``.
public struct PasskeyAssertionRequest: Sendable, Equatable {
    public var relyingPartyIdentifier: String
    /// The challenge, bytes; good for one sign-in.
    public var challenge: Data

    public init(relyingPartyIdentifier: String, challenge: Data) {
        self.relyingPartyIdentifier = relyingPartyIdentifier
        self.challenge = challenge
    }
}

/// An authenticator's signature with a passkey, for ``Auth/finalizePasskeySignIn(withPlatformCredential:)``: the values of
/// `ASAuthorizationPlatformPublicKeyCredentialAssertion` (WebAuthn's `AuthenticatorAssertionResponse`), bytes.
public struct PasskeyAssertion: Sendable, Equatable {
    public var credentialID: Data
    public var rawClientDataJSON: Data
    public var rawAuthenticatorData: Data
    public var signature: Data
    /// The user handle the passkey stored at enrolment (``PasskeyRegistrationRequest/userID``).
    public var userID: Data

    public init(credentialID: Data, rawClientDataJSON: Data, rawAuthenticatorData: Data, signature: Data, userID: Data) {
        self.credentialID = credentialID
        self.rawClientDataJSON = rawClientDataJSON
        self.rawAuthenticatorData = rawAuthenticatorData
        self.signature = signature
        self.userID = userID
    }
}
