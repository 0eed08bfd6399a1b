import Foundation
import HearthBase64URL
import HearthWebAuthn

/// The challenges of passkey ceremonies, kept as multi-factor sessions (the store's short-lived, tenant-scoped,
/// single-use records) under the hash of the challenge's base64url: a challenge is issued by one `start` call,
/// for one ceremony, to one account (an enrolment) or none (a sign-in), in one tenant, and is taken once.
struct PasskeyChallenges: Sendable {
    let store: any MultiFactorSessionStore
    let clock: WallClock

    /// How long a challenge waits for its ceremony (the `timeout` the options carry).
    static let lifetime: TimeInterval = 300

    /// A new challenge of `kind` for `uid` ("" for a sign-in), stored until ``lifetime`` has passed.
    func issue(_ kind: MultiFactorSessionRecord.Kind, uid: String) async throws -> [UInt8] {
        var generator = SystemRandomNumberGenerator()
        let challenge = (0..<32).map { _ in UInt8.random(in: .min ... .max, using: &generator) }
        let now = clock.now
        try await store.insertMultiFactorSession(
            MultiFactorSessionRecord(
                key: VerificationCode.key(Base64URL.encode(challenge)), kind: kind, uid: uid, payload: "{}", attemptsLeft: 1,
                createdAt: now, expiresAt: now.addingTimeInterval(Self.lifetime)))
        return challenge
    }

    /// Takes the challenge `clientDataJSON` names, when it was issued for `kind` (and `uid`, for an enrolment) and
    /// has not expired or been taken: parallel callers with one challenge, one gets it. Its bytes, which the
    /// ceremony is then verified against.
    func take(from clientDataJSON: [UInt8], _ kind: MultiFactorSessionRecord.Kind, uid: String) async throws -> [UInt8] {
        struct Named: Decodable { let challenge: String }
        guard clientDataJSON.count <= 4096, let named = try? JSONDecoder().decode(Named.self, from: Data(clientDataJSON)),
            let challenge = Base64URL.decode(named.challenge), challenge.count == 32
        else {
            throw HearthError(.invalidAuthenticatorResponse, detail: "clientDataJSON names no challenge.", reason: "no challenge in clientDataJSON")
        }
        let key = VerificationCode.key(named.challenge)
        // Another tenant's challenge is not in this tenant's store; a used one is gone.
        guard let record = try await store.multiFactorSession(key: key), record.kind == kind, record.uid == uid else {
            throw Self.unknown
        }
        guard try await store.spendMultiFactorSession(key: key) else { throw Self.unknown }
        guard !record.isExpired(at: clock.now) else { throw HearthError(.sessionExpired, reason: "passkey challenge expired") }
        return challenge
    }

    /// A challenge not issued here (another tenant's, another ceremony's or account's) or already taken.
    static let unknown = HearthError(
        .invalidAuthenticatorResponse, detail: "The challenge was not issued for this ceremony or was used already.",
        reason: "unknown or spent passkey challenge")
}

extension PasskeySettings {
    /// The settings in force: `OPERATION_NOT_ALLOWED` where passkeys are off (no relying party configured).
    static func current(_ settings: any ProjectSettingsReading) async throws -> PasskeySettings {
        guard let passkeys = try await settings.projectSettings().passkeys else {
            throw HearthError(.operationNotAllowed, detail: "Passkeys are not configured.", reason: "no passkey relying party")
        }
        return passkeys
    }
}

extension WebAuthnError {
    /// The client's error for a refused ceremony: the rule it broke, which tells an attacker nothing they did not send.
    var hearthError: HearthError {
        HearthError(.invalidAuthenticatorResponse, detail: "\(description.prefix(300)).", reason: "webauthn: \(description.prefix(300))")
    }
}
