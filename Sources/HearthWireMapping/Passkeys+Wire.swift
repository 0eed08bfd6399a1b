import HearthBase64URL
import HearthCore
import HearthWire

// The passkey use cases' values as Identity Platform's passkey API has them (`/v2/accounts/passkeyEnrollment:*`,
// `/v2/accounts/passkeySignIn:*`, `passkeyInfo`).

extension PublicKeyCredentialCreationOptionsJSON {
    /// The creation options of `passkeyEnrollment:start`: resident (discoverable) keys preferred, for username-less
    /// sign-in; attestation asked for (`direct`) only when the server has trust anchors to check it against.
    public init(_ options: PasskeyEnrollment.CreationOptions) {
        self.init(
            rp: .init(id: options.rpID, name: options.rpName),
            user: .init(id: options.userID, name: options.userName, displayName: options.userDisplayName), challenge: options.challenge,
            pubKeyCredParams: options.algorithms.map { .init(alg: $0) }, timeout: options.timeoutMilliseconds,
            excludeCredentials: options.excludeCredentials.map { .init(id: $0) },
            authenticatorSelection: .init(
                residentKey: "preferred", requireResidentKey: false, userVerification: options.requiresUserVerification ? "required" : "preferred"),
            attestation: options.asksForAttestation ? "direct" : "none")
    }
}

extension PublicKeyCredentialRequestOptionsJSON {
    /// The request options of `passkeySignIn:start`: no allowed credentials, so the authenticator offers the
    /// discoverable ones it holds for the RP ID.
    public init(_ options: PasskeySignIn.RequestOptions) {
        self.init(
            challenge: options.challenge, timeout: options.timeoutMilliseconds, rpId: options.rpID, allowCredentials: [],
            userVerification: options.requiresUserVerification ? "required" : "preferred")
    }
}

extension PasskeyEnrollment.Registration {
    /// The registration the browser answered (`passkeyEnrollment:finalize`): `MISSING_AUTHENTICATOR_RESPONSE` without
    /// one, `INVALID_CREDENTIAL_ID` for a missing or malformed credential id, `INVALID_AUTHENTICATOR_RESPONSE` for a
    /// missing or malformed field.
    public init(_ wire: AuthenticatorRegistrationResponse?) throws {
        guard let wire, let response = wire.response else { throw HearthError(.missingAuthenticatorResponse) }
        try PasskeyBytes.checkType(wire.type)
        let transports = response.transports ?? []
        guard transports.count <= 16, transports.allSatisfy({ (1...32).contains($0.utf8.count) && $0.utf8.allSatisfy { (0x21...0x7E).contains($0) } })
        else {
            throw PasskeyBytes.invalid("response.transports must be at most 16 short names.")
        }
        self.init(
            credentialID: try PasskeyBytes.credentialID(wire.id, rawID: wire.rawId),
            clientDataJSON: try PasskeyBytes.field(response.clientDataJSON, "clientDataJSON"),
            attestationObject: try PasskeyBytes.field(response.attestationObject, "attestationObject"), transports: transports)
    }
}

extension PasskeySignIn.Assertion {
    /// The assertion the browser answered (`passkeySignIn:finalize`), with the errors of
    /// ``PasskeyEnrollment/Registration/init(_:)``.
    public init(_ wire: AuthenticatorAuthenticationResponse?) throws {
        guard let wire, let response = wire.response else { throw HearthError(.missingAuthenticatorResponse) }
        try PasskeyBytes.checkType(wire.type)
        self.init(
            credentialID: try PasskeyBytes.credentialID(wire.id, rawID: wire.rawId),
            clientDataJSON: try PasskeyBytes.field(response.clientDataJSON, "clientDataJSON"),
            authenticatorData: try PasskeyBytes.field(response.authenticatorData, "authenticatorData"),
            signature: try PasskeyBytes.field(response.signature, "signature"),
            userHandle: try response.userHandle.flatMap { $0.isEmpty ? nil : try PasskeyBytes.field($0, "userHandle") })
    }
}

extension PasskeyInfo {
    public init(_ passkey: PasskeyCredential) {
        self.init(credentialId: passkey.credentialID, name: passkey.name)
    }
}

extension UserInfo {
    /// `users` as lookups answer them, each with its passkeys (`passkeyInfo`, absent when none).
    public static func list(_ users: [UserRecord], passkeysIn store: any PasskeyStore) async throws -> [UserInfo] {
        var infos: [UserInfo] = []
        for user in users {
            var info = UserInfo(user)
            let passkeys = try await store.passkeys(uid: user.uid)
            info.passkeyInfo = passkeys.isEmpty ? nil : passkeys.map(PasskeyInfo.init)
            infos.append(info)
        }
        return infos
    }
}

/// The byte fields of an authenticator's answer: base64url as `toJSON()` writes them, or proto3 JSON's base64 (with
/// `+`, `/` and padding) as Google's REST form may.
enum PasskeyBytes {
    /// The most bytes a field may have (an RSA attestation with a certificate chain is a few kilobytes).
    static let maximumSize = 16_384
    /// WebAuthn's longest credential id.
    static let maximumCredentialIDSize = 1023

    static func invalid(_ detail: String) -> HearthError {
        HearthError(.invalidAuthenticatorResponse, detail: detail)
    }

    static func decode(_ text: String) -> [UInt8]? {
        guard text.utf8.count <= maximumSize * 4 / 3 + 4 else { return nil }
        if let bytes = Base64URL.decode(text) { return bytes }
        var unpadded = Substring(text)
        for _ in 0..<2 where unpadded.hasSuffix("=") { unpadded = unpadded.dropLast() }
        let converted = String(unpadded.map { $0 == "+" ? "-" : $0 == "/" ? "_" : $0 })
        return Base64URL.decode(converted)
    }

    /// `public-key`, or none.
    static func checkType(_ type: String?) throws {
        guard type == nil || type == "public-key" else { throw invalid("type must be public-key.") }
    }

    /// The credential id in base64url, the form it is stored and shown in; `rawId`, when sent, must be the same bytes.
    static func credentialID(_ id: String?, rawID: String?) throws -> String {
        guard let id, let bytes = decode(id), (1...maximumCredentialIDSize).contains(bytes.count) else {
            throw HearthError(.invalidCredentialID)
        }
        if let rawID, decode(rawID) != bytes { throw HearthError(.invalidCredentialID, reason: "rawId is not id") }
        return Base64URL.encode(bytes)
    }

    static func field(_ text: String?, _ name: String) throws -> [UInt8] {
        guard let text, !text.isEmpty else { throw invalid("response.\(name) is missing.") }
        guard let bytes = decode(text), bytes.count <= maximumSize else {
            throw invalid("response.\(name) must be base64url of at most \(maximumSize) bytes.")
        }
        return bytes
    }
}

extension PasskeyTokensResponse {
    /// The new session of `passkeyEnrollment:finalize` and `passkeySignIn:finalize`.
    public init(_ signedIn: SignedIn) {
        self.init(
            localId: signedIn.user.uid, idToken: signedIn.idToken, refreshToken: signedIn.refreshToken, expiresIn: String(signedIn.expiresIn))
    }
}
