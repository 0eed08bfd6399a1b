import Foundation
import HearthBase64URL
import HearthWebAuthn

/// A signed-in person's passkeys: `passkeyEnrollment:start` issues the creation options, `finalize` verifies the
/// authenticator's registration (WebAuthn §7.1, HearthWebAuthn), stores the passkey and starts a new session
/// (`sign_in_provider` "passkey"). Removal is ``PasskeyRemoval``'s (`accounts:update`'s `deletePasskey`). The relying
/// party is the project's or tenant's (``ProjectSettings/passkeys``), read per call; the attestation it trusts is the
/// server's (``PasskeyAttestation``). Each `start` stores a challenge, so it is counted per address
/// (``AbuseLimits/passkeyEnrollments``) and per account (``AbuseLimits/passkeyEnrollmentsPerAccount``).
public struct PasskeyEnrollment: Sendable {
    public let store: any AccountStore & MultiFactorSessionStore & PasskeyStore
    public let idTokens: any IDTokenAuthenticating
    public let completion: SignInCompletion
    public let settings: any ProjectSettingsReading
    public let abuse: AbuseCounter
    public let attestation: PasskeyAttestation

    public init(
        store: any AccountStore & MultiFactorSessionStore & PasskeyStore, idTokens: any IDTokenAuthenticating, completion: SignInCompletion,
        settings: any ProjectSettingsReading, abuse: AbuseCounter, attestation: PasskeyAttestation = .any
    ) {
        self.store = store
        self.idTokens = idTokens
        self.completion = completion
        self.settings = settings
        self.abuse = abuse
        self.attestation = attestation
    }

    /// WebAuthn's `PublicKeyCredentialCreationOptions`, what the browser's `create()` is given.
    public struct CreationOptions: Sendable, Equatable {
        public var rpID: String
        public var rpName: String
        /// The user handle: the uid's UTF-8 in base64url.
        public var userID: String
        public var userName: String
        public var userDisplayName: String
        public var challenge: String
        public var algorithms: [Int]
        /// The account's passkeys, which the authenticator must not register twice.
        public var excludeCredentials: [String]
        public var timeoutMilliseconds: Int
        public var requiresUserVerification: Bool
        /// Whether the authenticator is asked for its attestation (`direct`): when there are trust anchors to check it
        /// against.
        public var asksForAttestation: Bool
    }

    /// What the browser's `create()` answered (`PublicKeyCredential.toJSON()`), decoded from base64url.
    public struct Registration: Sendable {
        public var credentialID: String
        public var clientDataJSON: [UInt8]
        public var attestationObject: [UInt8]
        public var transports: [String]

        public init(credentialID: String, clientDataJSON: [UInt8], attestationObject: [UInt8], transports: [String]) {
            self.credentialID = credentialID
            self.clientDataJSON = clientDataJSON
            self.attestationObject = attestationObject
            self.transports = transports
        }
    }

    /// The largest number of passkeys one account may hold.
    public static let limit = 20

    /// The creation options for the ID token's account. Throws `MISSING_ID_TOKEN`, the ID token's errors,
    /// `USER_DISABLED`, `OPERATION_NOT_ALLOWED` (passkeys off), `TOO_MANY_ATTEMPTS_TRY_LATER` past
    /// ``AbuseLimits/passkeyEnrollments`` for the address or ``AbuseLimits/passkeyEnrollmentsPerAccount`` for the account.
    public func start(idToken: String?, from origin: ClientOrigin) async throws -> CreationOptions {
        let settings = try await PasskeySettings.current(settings)
        let user = try await authenticated(idToken)
        try await abuse.count(\.passkeyEnrollments, address: origin.counterAddress)
        try await abuse.count(\.passkeyEnrollmentsPerAccount, address: user.uid)
        let existing = try await store.passkeys(uid: user.uid)
        let challenge = try await PasskeyChallenges(store: store, clock: completion.clock).issue(.passkeyEnrollment, uid: user.uid)
        let name = user.email ?? user.phoneNumber ?? user.uid
        return CreationOptions(
            rpID: settings.rpID, rpName: settings.rpName, userID: Base64URL.encode(Array(user.uid.utf8)), userName: name,
            userDisplayName: user.displayName ?? name, challenge: Base64URL.encode(challenge),
            algorithms: COSEAlgorithm.allCases.map(\.rawValue), excludeCredentials: existing.map(\.credentialID),
            timeoutMilliseconds: Int(PasskeyChallenges.lifetime * 1000), requiresUserVerification: settings.requiresUserVerification,
            asksForAttestation: attestation.anchors != nil)
    }

    /// Verifies the registration against the challenge `start` issued to this account, stores the passkey and
    /// starts a new session (`sign_in_provider` "passkey", continuing the one the ID token is of: no second factor is
    /// asked). Throws `start`'s errors, `INVALID_AUTHENTICATOR_RESPONSE` (the rule the registration broke; the challenge
    /// is spent either way), `SESSION_EXPIRED`, `CREDENTIAL_ALREADY_IN_USE`, `INVALID_DISPLAY_NAME`.
    public func finalize(idToken: String?, _ registration: Registration, name: String?, from origin: ClientOrigin) async throws -> SignedIn {
        let settings = try await PasskeySettings.current(settings)
        let user = try await authenticated(idToken)
        let challenge = try await PasskeyChallenges(store: store, clock: completion.clock)
            .take(from: registration.clientDataJSON, .passkeyEnrollment, uid: user.uid)
        let verified: VerifiedRegistration
        do {
            verified = try await settings.relyingParty(trusting: attestation).verifyRegistration(
                RegistrationResponse(clientDataJSON: registration.clientDataJSON, attestationObject: registration.attestationObject),
                challenge: challenge, now: completion.clock.now)
        } catch { throw error.hearthError }
        let credentialID = Base64URL.encode(verified.credentialID)
        guard credentialID == registration.credentialID else {
            throw HearthError(.invalidAuthenticatorResponse, detail: "The credential id is not the attested one.")
        }
        guard try await store.passkeys(uid: user.uid).count < Self.limit else {
            throw HearthError(.invalidAuthenticatorResponse, detail: "The account has \(Self.limit) passkeys, the most it may hold.")
        }
        let name = try name.flatMap { $0.isEmpty ? nil : try UserText.displayName($0) } ?? "Passkey"
        let now = completion.clock.now
        let passkey = PasskeyCredential(
            credentialID: credentialID, uid: user.uid, name: name, publicKey: verified.publicKey.encoded,
            algorithm: verified.publicKey.algorithm.rawValue, signCount: verified.signCount,
            transports: Array(registration.transports.prefix(8)), backupEligible: verified.flags.contains(.backupEligible),
            backedUp: verified.flags.contains(.backedUp), createdAt: now)
        guard try await store.insertPasskey(passkey) else { throw HearthError(.credentialAlreadyInUse, reason: "credential id taken") }
        return try await completion.complete(
            .update(uid: user.uid) { user in if user.disabled { throw HearthError(.userDisabled) } },
            .init(provider: "passkey", event: .passkeyEnrolled, method: "passkey", origin: origin.audit, continuesSession: true))
    }

    private func authenticated(_ idToken: String?) async throws -> UserRecord {
        guard let idToken, !idToken.isEmpty else { throw HearthError(.missingIDToken) }
        let user = try await idTokens.authenticate(idToken).user
        if user.disabled { throw HearthError(.userDisabled) }
        return user
    }
}
