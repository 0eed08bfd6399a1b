import Foundation
import HearthBase64URL
import HearthWebAuthn

/// Signing in with a passkey, username-less: `passkeySignIn:start` issues a challenge with no allowed credentials
/// (the authenticator offers the discoverable ones it holds for the RP ID), `finalize` finds the passkey by the
/// credential id the browser answered with, verifies the assertion (WebAuthn §7.2) and ends in
/// ``SignInCompletion`` with `sign_in_provider` "passkey". A signature counter that did not advance refuses the
/// sign-in: two authenticators may hold the key.
///
/// Multi-factor: a passkey whose authenticator verified the user (the UV flag: a PIN or biometric unlocked a key only
/// that device holds) is two factors by itself, as NIST SP 800-63B counts a multi-factor cryptographic authenticator;
/// an account with second factors is signed in without being asked for one (no `mfaPendingCredential`), and the ID
/// token names no `sign_in_second_factor`. A passkey that only saw the user present (user verification `PREFERRED`
/// and not done) is one factor, and such an account answers `mfaPendingCredential` as a password sign-in does.
public struct PasskeySignIn: Sendable {
    public let store: any AccountStore & MultiFactorSessionStore & PasskeyStore
    public let completion: SignInCompletion
    public let settings: any ProjectSettingsReading
    public let abuse: AbuseCounter

    public init(
        store: any AccountStore & MultiFactorSessionStore & PasskeyStore, completion: SignInCompletion, settings: any ProjectSettingsReading,
        abuse: AbuseCounter
    ) {
        self.store = store
        self.completion = completion
        self.settings = settings
        self.abuse = abuse
    }

    /// WebAuthn's `PublicKeyCredentialRequestOptions`, what the browser's `get()` is given.
    public struct RequestOptions: Sendable, Equatable {
        public var rpID: String
        public var challenge: String
        public var timeoutMilliseconds: Int
        public var requiresUserVerification: Bool
    }

    /// What the browser's `get()` answered, decoded from base64url.
    public struct Assertion: Sendable {
        public var credentialID: String
        public var clientDataJSON: [UInt8]
        public var authenticatorData: [UInt8]
        public var signature: [UInt8]
        /// The user handle the authenticator stored at registration; when present it must name the passkey's account.
        public var userHandle: [UInt8]?

        public init(credentialID: String, clientDataJSON: [UInt8], authenticatorData: [UInt8], signature: [UInt8], userHandle: [UInt8]?) {
            self.credentialID = credentialID
            self.clientDataJSON = clientDataJSON
            self.authenticatorData = authenticatorData
            self.signature = signature
            self.userHandle = userHandle
        }
    }

    /// A challenge for a username-less sign-in. Throws `OPERATION_NOT_ALLOWED` where passkeys are off,
    /// `TOO_MANY_ATTEMPTS_TRY_LATER` past ``AbuseLimits/passkeyChallenges`` for the address.
    public func start(from origin: ClientOrigin) async throws -> RequestOptions {
        let settings = try await PasskeySettings.current(settings)
        try await abuse.count(\.passkeyChallenges, address: origin.counterAddress)
        let challenge = try await PasskeyChallenges(store: store, clock: completion.clock).issue(.passkeySignIn, uid: "")
        return RequestOptions(
            rpID: settings.rpID, challenge: Base64URL.encode(challenge), timeoutMilliseconds: Int(PasskeyChallenges.lifetime * 1000),
            requiresUserVerification: settings.requiresUserVerification)
    }

    /// Verifies the assertion against the challenge `start` issued (in this tenant) and the passkey the credential id
    /// names, and signs its account in. Throws `OPERATION_NOT_ALLOWED`, `INVALID_AUTHENTICATOR_RESPONSE` (the rule the
    /// assertion broke, a counter that did not advance; the challenge is spent either way), `SESSION_EXPIRED`,
    /// `PASSKEY_CREDENTIAL_NOT_FOUND`, `USER_DISABLED`, ``SecondFactorRequired`` (see above).
    public func finalize(_ assertion: Assertion, from origin: ClientOrigin) async throws -> SignedIn {
        let settings = try await PasskeySettings.current(settings)
        let challenge = try await PasskeyChallenges(store: store, clock: completion.clock)
            .take(from: assertion.clientDataJSON, .passkeySignIn, uid: "")
        guard let passkey = try await store.passkey(credentialID: assertion.credentialID) else {
            throw HearthError(.passkeyCredentialNotFound, reason: "no passkey with the credential id")
        }
        if let handle = assertion.userHandle, handle != Array(passkey.uid.utf8) {
            throw HearthError(.invalidAuthenticatorResponse, detail: "The user handle is not the passkey's account.")
        }
        let verified: VerifiedAssertion
        do {
            let stored = RegisteredCredential(
                publicKey: try COSEPublicKey(encoded: passkey.publicKey), signCount: passkey.signCount, backupEligible: passkey.backupEligible)
            verified = try settings.relyingParty.verifyAssertion(
                AssertionResponse(
                    clientDataJSON: assertion.clientDataJSON, authenticatorData: assertion.authenticatorData, signature: assertion.signature),
                challenge: challenge, credential: stored)
        } catch { throw error.hearthError }
        if case .regressed(let stored, let received) = verified.counter {
            throw HearthError(
                .invalidAuthenticatorResponse, detail: "The signature counter did not advance.",
                reason: "possibly cloned authenticator: counter \(received) after \(stored)")
        }
        let now = completion.clock.now
        guard
            try await store.recordPasskeyUse(
                credentialID: passkey.credentialID, signCount: verified.signCount, backedUp: verified.flags.contains(.backedUp), at: now)
        else { throw HearthError(.passkeyCredentialNotFound, reason: "passkey removed during sign-in") }
        var record = SignInCompletion.Record(provider: "passkey", origin: origin.audit)
        record.isMultiFactor = verified.flags.contains(.userVerified)
        return try await completion.complete(
            .update(uid: passkey.uid) { user in
                if user.disabled { throw HearthError(.userDisabled) }
                user.lastLoginAt = now
            },
            record)
    }
}
