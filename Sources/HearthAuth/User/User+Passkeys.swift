import Foundation
import HearthBase64URL
import HearthWire

extension User {
    /// The name FirebaseAuth gives a passkey enrolled without one.
    #if canImport(AuthenticationServices)
    static let defaultPasskeyName = "Unnamed account (Apple)"
    #else
    static let defaultPasskeyName = "Unnamed account"
    #endif

    /// The user's passkeys, as the last sign-in or ``reload()`` read them; nil when it has none (FirebaseAuth's
    /// `enrolledPasskeys`).
    public var enrolledPasskeys: [PasskeyInfo]? {
        snapshot.passkeys.map { $0.map { PasskeyInfo(name: $0.name ?? "", credentialID: $0.credentialId) } }
    }

    // MARK: Enrolling

    /// Starts enrolling a passkey named `name` (`passkeyEnrollment:start`): the challenge, RP ID and user handle for an
    /// authenticator, whose answer goes to `finalizePasskeyEnrollment(withPlatformCredential:)`.
    /// On Apple platforms FirebaseAuth's form, which gives an `ASAuthorizationPlatformPublicKeyCredentialRegistrationRequest`,
    /// is the one an unannotated call picks; this one is for `let request: PasskeyRegistrationRequest = …`.
    @_disfavoredOverload
    public func startPasskeyEnrollment(withName name: String?) async throws -> PasskeyRegistrationRequest {
        try await passkeyRegistrationRequest(name: name)
    }

    public func startPasskeyEnrollment(
        withName name: String?, completion: (@MainActor @Sendable (PasskeyRegistrationRequest?, (any Error)?) -> Void)?
    ) {
        complete(completion) { try await self.passkeyRegistrationRequest(name: name) }
    }

    func passkeyRegistrationRequest(name: String?) async throws -> PasskeyRegistrationRequest {
        let response: StartPasskeyEnrollmentResponse = try await engine.withIDToken(of: self) { token in
            try await engine.backend.call(.startPasskeyEnrollment, StartPasskeyEnrollmentRequest(idToken: token, tenantId: tenantID))
        }
        let options = response.credentialCreationOptions
        guard let challenge = Base64URL.decode(options.challenge), let userID = Base64URL.decode(options.user.id) else {
            throw AuthErrorFactory.error(.internalError, message: "The server's passkey creation options are not base64url.")
        }
        let passkeyName = name.flatMap { $0.isEmpty ? nil : $0 } ?? Self.defaultPasskeyName
        pendingPasskeyName.withLock { $0 = passkeyName }
        return PasskeyRegistrationRequest(
            relyingPartyIdentifier: options.rp.id, challenge: Data(challenge), userID: Data(userID), name: passkeyName)
    }

    /// Enrolls the passkey an authenticator made (`passkeyEnrollment:finalize`) under the name given to
    /// `startPasskeyEnrollment(withName:)`. The user takes the new session and is reloaded, so
    /// ``enrolledPasskeys`` has the passkey. An answer the server cannot verify fails with
    /// ``AuthErrorCode/invalidAuthenticatorResponse`` (the broken rule in its description), a credential id registered
    /// already with ``AuthErrorCode/credentialAlreadyInUse``.
    @discardableResult
    public func finalizePasskeyEnrollment(withPlatformCredential platformCredential: PasskeyRegistration) async throws -> AuthDataResult {
        let credential = AuthenticatorRegistrationResponse(
            id: Base64URL.encode(platformCredential.credentialID),
            response: AuthenticatorAttestationResponseJSON(
                clientDataJSON: Base64URL.encode(platformCredential.rawClientDataJSON),
                attestationObject: Base64URL.encode(platformCredential.rawAttestationObject)))
        let name = pendingPasskeyName.withLock { $0 } ?? Self.defaultPasskeyName
        let response: PasskeyTokensResponse = try await engine.withIDToken(of: self) { token in
            try await engine.backend.call(
                .finalizePasskeyEnrollment,
                FinalizePasskeyEnrollmentRequest(idToken: token, authenticatorRegistrationResponse: credential, name: name, tenantId: tenantID))
        }
        pendingPasskeyName.withLock { $0 = nil }
        try await adopt(idToken: response.idToken, refreshToken: response.refreshToken, expiresIn: response.expiresIn)
        return AuthDataResult(user: self, additionalUserInfo: nil, credential: nil)
    }

    public func finalizePasskeyEnrollment(
        withPlatformCredential platformCredential: PasskeyRegistration, completion: (@MainActor @Sendable (AuthDataResult?, (any Error)?) -> Void)?
    ) {
        complete(completion) { try await self.finalizePasskeyEnrollment(withPlatformCredential: platformCredential) }
    }

    // MARK: Removing

    /// Removes the passkey whose ``PasskeyInfo/credentialID`` is `credentialID` (`accounts:update` with `deletePasskey`)
    /// and reloads the user. A passkey the account does not have fails with ``AuthErrorCode/missingPasskeyEnrollment``.
    /// The authenticator keeps its copy, which signs in no more.
    public func unenrollPasskey(withCredentialID credentialID: String) async throws {
        let response: UpdateResponse = try await engine.withIDToken(of: self) { token in
            var request = UpdateRequest(idToken: token)
            request.deletePasskey = [credentialID]
            request.returnSecureToken = true
            request.tenantId = tenantID
            return try await engine.backend.call(.update, request)
        }
        if let idToken = response.idToken, let refreshToken = response.refreshToken {
            updateTokens(TokenSet(idToken: idToken, refreshToken: refreshToken, expirationDate: engine.expiry(response.expiresIn)))
        }
        try await reload()
    }

    public func unenrollPasskey(withCredentialID credentialID: String, completion: (@MainActor @Sendable ((any Error)?) -> Void)?) {
        complete(completion) { try await self.unenrollPasskey(withCredentialID: credentialID) }
    }
}
