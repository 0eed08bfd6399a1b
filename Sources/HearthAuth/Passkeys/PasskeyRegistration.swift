import Foundation

/// What an authenticator needs to make a passkey for the user: ``User/startPasskeyEnrollment(withName:)``'s answer
/// where AuthenticationServices is not, the values of FirebaseAuth's
/// `ASAuthorizationPlatformPublicKeyCredentialRegistrationRequest`.
///
/// Hand them to an authenticator (WebAuthn's `create()`: `relyingPartyIdentifier` is `rp.id`, `userID` is `user.id`,
/// `name` is `user.name`) and give its answer to ``User/finalizePasskeyEnrollment(withPlatformCredential:)``.
public struct PasskeyRegistrationRequest: Sendable, Equatable {
    /// The RP ID the passkey is bound to (`localhost` on a server in development mode).
    public var relyingPartyIdentifier: String
    /// The challenge, bytes; good for one enrolment.
    public var challenge: Data
    /// The user handle the passkey stores, bytes; it gives it back at sign-in.
    public var userID: Data
    /// The passkey's name: the name asked for, or FirebaseAuth's default.
    public var name: String

    public init(relyingPartyIdentifier: String, challenge: Data, userID: Data, name: String) {
        self.relyingPartyIdentifier = relyingPartyIdentifier
        self.challenge = challenge
        self.userID = userID
        self.name = name
    }
}

/// An authenticator's new passkey, for ``User/finalizePasskeyEnrollment(withPlatformCredential:)``: the values of
/// `ASAuthorizationPlatformPublicKeyCredentialRegistration` (WebAuthn's `AuthenticatorAttestationResponse`), bytes.
public struct PasskeyRegistration: Sendable, Equatable {
    public var credentialID: Data
    public var rawClientDataJSON: Data
    public var rawAttestationObject: Data

    public init(credentialID: Data, rawClientDataJSON: Data, rawAttestationObject: Data) {
        self.credentialID = credentialID
        self.rawClientDataJSON = rawClientDataJSON
        self.rawAttestationObject = rawAttestationObject
    }
}
