// Identity Platform's passkey API (`/v2/accounts/passkeyEnrollment:*`, `/v2/accounts/passkeySignIn:*`) and the
// `passkeyInfo` of accounts. The options are WebAuthn Level 3's JSON serialisation (what
// `PublicKeyCredential.parseCreationOptionsFromJSON` and `parseRequestOptionsFromJSON` take); the authenticator's
// answers are the browser's `PublicKeyCredential.toJSON()`, or Google's REST form of them, read into one shape.

/// One passkey of an account, as `accounts:lookup` and the admin API show it.
public struct PasskeyInfo: Codable, Sendable, Equatable {
    /// The credential id, base64url.
    public var credentialId: String
    public var name: String?

    public init(credentialId: String, name: String?) {
        self.credentialId = credentialId
        self.name = name
    }
}

/// A WebAuthn credential's public-key type and reference (`PublicKeyCredentialDescriptorJSON`).
public struct PublicKeyCredentialDescriptorJSON: Codable, Sendable, Equatable {
    /// `public-key`.
    public var type: String
    /// The credential id, base64url.
    public var id: String
    public var transports: [String]?

    public init(id: String, transports: [String]? = nil) {
        self.type = "public-key"
        self.id = id
        self.transports = transports
    }
}

/// WebAuthn's `PublicKeyCredentialCreationOptionsJSON`: what the browser's `navigator.credentials.create()` is given.
public struct PublicKeyCredentialCreationOptionsJSON: Codable, Sendable, Equatable {
    public var rp: RelyingParty
    public var user: User
    /// base64url.
    public var challenge: String
    public var pubKeyCredParams: [Parameters]
    /// Milliseconds.
    public var timeout: Int?
    /// The account's passkeys, which an authenticator must not register again.
    public var excludeCredentials: [PublicKeyCredentialDescriptorJSON]?
    public var authenticatorSelection: AuthenticatorSelection?
    /// `none`: Hearth asks for no attestation (it verifies `packed` when an authenticator sends it anyway).
    public var attestation: String?

    /// `PublicKeyCredentialRpEntity`: the RP ID the passkey is bound to and the name an authenticator shows.
    public struct RelyingParty: Codable, Sendable, Equatable {
        public var id: String
        public var name: String

        public init(id: String, name: String) {
            self.id = id
            self.name = name
        }
    }

    /// `PublicKeyCredentialUserEntityJSON`: `id` is the user handle (base64url), which a discoverable credential
    /// gives back at sign-in.
    public struct User: Codable, Sendable, Equatable {
        public var id: String
        public var name: String
        public var displayName: String

        public init(id: String, name: String, displayName: String) {
            self.id = id
            self.name = name
            self.displayName = displayName
        }
    }

    /// `PublicKeyCredentialParameters`: one COSE algorithm the server verifies (-7 ES256, -8 EdDSA, -257 RS256).
    public struct Parameters: Codable, Sendable, Equatable {
        public var type: String
        public var alg: Int

        public init(alg: Int) {
            self.type = "public-key"
            self.alg = alg
        }
    }

    /// `AuthenticatorSelectionCriteria`: resident (discoverable) keys preferred, for username-less sign-in.
    public struct AuthenticatorSelection: Codable, Sendable, Equatable {
        /// `required`, `preferred` or `discouraged`.
        public var residentKey: String?
        public var requireResidentKey: Bool?
        /// `required` or `preferred`.
        public var userVerification: String?
        public var authenticatorAttachment: String?

        public init(residentKey: String?, requireResidentKey: Bool?, userVerification: String?) {
            self.residentKey = residentKey
            self.requireResidentKey = requireResidentKey
            self.userVerification = userVerification
        }
    }

    public init(
        rp: RelyingParty, user: User, challenge: String, pubKeyCredParams: [Parameters], timeout: Int?,
        excludeCredentials: [PublicKeyCredentialDescriptorJSON]?, authenticatorSelection: AuthenticatorSelection?, attestation: String?
    ) {
        self.rp = rp
        self.user = user
        self.challenge = challenge
        self.pubKeyCredParams = pubKeyCredParams
        self.timeout = timeout
        self.excludeCredentials = excludeCredentials
        self.authenticatorSelection = authenticatorSelection
        self.attestation = attestation
    }
}

/// WebAuthn's `PublicKeyCredentialRequestOptionsJSON`: what the browser's `navigator.credentials.get()` is given.
/// `allowCredentials` is empty for a username-less sign-in: the authenticator offers its discoverable credentials.
public struct PublicKeyCredentialRequestOptionsJSON: Codable, Sendable, Equatable {
    /// base64url.
    public var challenge: String
    /// Milliseconds.
    public var timeout: Int?
    public var rpId: String
    public var allowCredentials: [PublicKeyCredentialDescriptorJSON]?
    /// `required` or `preferred`.
    public var userVerification: String?

    public init(challenge: String, timeout: Int?, rpId: String, allowCredentials: [PublicKeyCredentialDescriptorJSON]?, userVerification: String?) {
        self.challenge = challenge
        self.timeout = timeout
        self.rpId = rpId
        self.allowCredentials = allowCredentials
        self.userVerification = userVerification
    }
}

/// Google's REST form names the credential id `credentialId` and its type `credentialType`, the response
/// `authenticatorAttestationResponse` or `authenticatorAssertionResponse`, and spells `clientDataJSON` `clientDataJson`;
/// these are the keys read from either form.
private struct AlternativeKey: CodingKey {
    let stringValue: String
    init(stringValue: String) { self.stringValue = stringValue }
    var intValue: Int? { nil }
    init?(intValue: Int) { nil }

    static let credentialId = AlternativeKey(stringValue: "credentialId")
    static let credentialType = AlternativeKey(stringValue: "credentialType")
    static let clientDataJson = AlternativeKey(stringValue: "clientDataJson")
}

/// What an authenticator answered inside a ``PublicKeyCredentialJSON``: a registration's attestation or an assertion.
public protocol AuthenticatorResponseJSON: Codable, Sendable, Equatable {
    /// The response's key in Google's REST form (`authenticatorAttestationResponse`, `authenticatorAssertionResponse`).
    static var googleKey: String { get }
}

/// The browser's answer to `create()` or `get()`, `PublicKeyCredential.toJSON()`: `{id, rawId, type, response,
/// authenticatorAttachment}`. Google's REST form, `{credentialId, credentialType, <Response.googleKey>: {clientDataJson,
/// …}}`, decodes to the same value. Encoding writes the `toJSON()` form. Byte fields are base64url (or, in Google's form,
/// proto3 JSON's base64); the server decodes them.
public struct PublicKeyCredentialJSON<Response: AuthenticatorResponseJSON>: Codable, Sendable, Equatable {
    public var id: String?
    public var rawId: String?
    public var type: String?
    public var response: Response?
    public var authenticatorAttachment: String?

    public init(id: String?, response: Response?, authenticatorAttachment: String? = nil) {
        self.id = id
        self.rawId = id
        self.type = "public-key"
        self.response = response
        self.authenticatorAttachment = authenticatorAttachment
    }

    enum CodingKeys: String, CodingKey { case id, rawId, type, response, authenticatorAttachment }

    public init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        let alternative = try decoder.container(keyedBy: AlternativeKey.self)
        id = try container.decodeIfPresent(String.self, forKey: .id) ?? alternative.decodeIfPresent(String.self, forKey: .credentialId)
        rawId = try container.decodeIfPresent(String.self, forKey: .rawId)
        type = try container.decodeIfPresent(String.self, forKey: .type) ?? alternative.decodeIfPresent(String.self, forKey: .credentialType)
        response =
            try container.decodeIfPresent(Response.self, forKey: .response)
            ?? alternative.decodeIfPresent(Response.self, forKey: AlternativeKey(stringValue: Response.googleKey))
        authenticatorAttachment = try container.decodeIfPresent(String.self, forKey: .authenticatorAttachment)
    }
}

/// `clientDataJSON`, or Google's `clientDataJson`.
private func decodeClientDataJSON(_ decoder: any Decoder) throws -> String? {
    let alternative = try decoder.container(keyedBy: AlternativeKey.self)
    return try alternative.decodeIfPresent(String.self, forKey: AlternativeKey(stringValue: "clientDataJSON"))
        ?? alternative.decodeIfPresent(String.self, forKey: .clientDataJson)
}

/// A registration (`passkeyEnrollment:finalize`'s `authenticatorRegistrationResponse`).
public typealias AuthenticatorRegistrationResponse = PublicKeyCredentialJSON<AuthenticatorAttestationResponseJSON>
/// An assertion (`passkeySignIn:finalize`'s `authenticatorAuthenticationResponse`).
public typealias AuthenticatorAuthenticationResponse = PublicKeyCredentialJSON<AuthenticatorAssertionResponseJSON>

extension PublicKeyCredentialJSON where Response == AuthenticatorAttestationResponseJSON {
    public typealias AttestationResponse = AuthenticatorAttestationResponseJSON
}

extension PublicKeyCredentialJSON where Response == AuthenticatorAssertionResponseJSON {
    public typealias AssertionResponse = AuthenticatorAssertionResponseJSON
}

/// `AuthenticatorAttestationResponseJSON`: what `create()` answered.
public struct AuthenticatorAttestationResponseJSON: AuthenticatorResponseJSON {
    public static let googleKey = "authenticatorAttestationResponse"
    public var clientDataJSON: String?
    public var attestationObject: String?
    public var transports: [String]?

    public init(clientDataJSON: String?, attestationObject: String?, transports: [String]? = nil) {
        self.clientDataJSON = clientDataJSON
        self.attestationObject = attestationObject
        self.transports = transports
    }

    enum CodingKeys: String, CodingKey { case clientDataJSON, attestationObject, transports }

    public init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        clientDataJSON = try decodeClientDataJSON(decoder)
        attestationObject = try container.decodeIfPresent(String.self, forKey: .attestationObject)
        transports = try container.decodeIfPresent([String].self, forKey: .transports)
    }
}

/// `AuthenticatorAssertionResponseJSON`: what `get()` answered.
public struct AuthenticatorAssertionResponseJSON: AuthenticatorResponseJSON {
    public static let googleKey = "authenticatorAssertionResponse"
    public var clientDataJSON: String?
    public var authenticatorData: String?
    public var signature: String?
    /// The user handle a discoverable credential stored at registration (the `user.id` of the creation options).
    public var userHandle: String?

    public init(clientDataJSON: String?, authenticatorData: String?, signature: String?, userHandle: String?) {
        self.clientDataJSON = clientDataJSON
        self.authenticatorData = authenticatorData
        self.signature = signature
        self.userHandle = userHandle
    }

    enum CodingKeys: String, CodingKey { case clientDataJSON, authenticatorData, signature, userHandle }

    public init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        clientDataJSON = try decodeClientDataJSON(decoder)
        authenticatorData = try container.decodeIfPresent(String.self, forKey: .authenticatorData)
        signature = try container.decodeIfPresent(String.self, forKey: .signature)
        userHandle = try container.decodeIfPresent(String.self, forKey: .userHandle)
    }
}

// MARK: - Enrolment

/// `POST /v2/accounts/passkeyEnrollment:start`: creation options for the ID token's account.
public struct StartPasskeyEnrollmentRequest: Codable, Sendable, Equatable {
    public var idToken: String?
    public var tenantId: String?

    public init(idToken: String?, tenantId: String? = nil) {
        self.idToken = idToken
        self.tenantId = tenantId
    }
}

public struct StartPasskeyEnrollmentResponse: Codable, Sendable, Equatable {
    public var credentialCreationOptions: PublicKeyCredentialCreationOptionsJSON

    public init(credentialCreationOptions: PublicKeyCredentialCreationOptionsJSON) {
        self.credentialCreationOptions = credentialCreationOptions
    }
}

/// `POST /v2/accounts/passkeyEnrollment:finalize`: the authenticator's registration and the passkey's name
/// (`name`, or `displayName` as the JS SDK also sends it).
public struct FinalizePasskeyEnrollmentRequest: Codable, Sendable, Equatable {
    public var idToken: String?
    public var authenticatorRegistrationResponse: AuthenticatorRegistrationResponse?
    public var name: String?
    public var displayName: String?
    public var tenantId: String?

    public init(
        idToken: String?, authenticatorRegistrationResponse: AuthenticatorRegistrationResponse?, name: String? = nil, tenantId: String? = nil
    ) {
        self.idToken = idToken
        self.authenticatorRegistrationResponse = authenticatorRegistrationResponse
        self.name = name
        self.tenantId = tenantId
    }
}

/// The new session of `passkeyEnrollment:finalize` and `passkeySignIn:finalize`.
public struct PasskeyTokensResponse: Codable, Sendable, Equatable {
    public var localId: String
    public var idToken: String
    public var refreshToken: String
    /// Seconds, as a string (`"3600"`).
    public var expiresIn: String?

    public init(localId: String, idToken: String, refreshToken: String, expiresIn: String?) {
        self.localId = localId
        self.idToken = idToken
        self.refreshToken = refreshToken
        self.expiresIn = expiresIn
    }
}

// MARK: - Sign-in

/// `POST /v2/accounts/passkeySignIn:start`: a challenge for a username-less sign-in. `sessionId` is accepted and
/// not used.
public struct StartPasskeySignInRequest: Codable, Sendable, Equatable {
    public var sessionId: String?
    public var tenantId: String?

    public init(tenantId: String? = nil) { self.tenantId = tenantId }
}

public struct StartPasskeySignInResponse: Codable, Sendable, Equatable {
    public var credentialRequestOptions: PublicKeyCredentialRequestOptionsJSON

    public init(credentialRequestOptions: PublicKeyCredentialRequestOptionsJSON) {
        self.credentialRequestOptions = credentialRequestOptions
    }
}

/// `POST /v2/accounts/passkeySignIn:finalize`: the authenticator's assertion.
public struct FinalizePasskeySignInRequest: Codable, Sendable, Equatable {
    public var authenticatorAuthenticationResponse: AuthenticatorAuthenticationResponse?
    public var sessionId: String?
    public var tenantId: String?

    public init(authenticatorAuthenticationResponse: AuthenticatorAuthenticationResponse?, tenantId: String? = nil) {
        self.authenticatorAuthenticationResponse = authenticatorAuthenticationResponse
        self.tenantId = tenantId
    }
}
