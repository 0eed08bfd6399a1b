import Foundation
import HearthConfiguration
import HearthCore
import HearthOTP
import HearthStorage
import HearthTelemetry
import HearthTokens
import Logging

/// The sign-in use cases of HearthCore, given this server's parts: the store, the hashing lanes, the token
/// service, the audit trail, the project settings and the abuse counters. Controllers take the one they call.
struct SignInUseCases: Sendable {
    let signUp: SignUp
    let passwordSignIn: PasswordSignIn
    let federatedSignIn: FederatedSignIn
    let customTokenSignIn: CustomTokenSignIn
    let emailLinkSignIn: EmailLinkSignIn
    let phoneSignIn: PhoneSignIn
    let secondFactorSignIn: SecondFactorSignIn
    let secondFactorEnrollments: SecondFactorEnrollments
    let passkeyEnrollment: PasskeyEnrollment
    let passkeySignIn: PasskeySignIn
    let completion: SignInCompletion

    init(services: HearthServices) {
        let tokens = ServerIDTokens(services: services)
        let audit = AuditTrail(services: services)
        let passwords = ServerPasswords(services: services)
        let abuse = services.abuseCounter
        var completion = SignInCompletion(store: services.store, tokens: tokens, audit: audit, clock: services.clock, tenantID: services.tenantID)
        let hooks = BlockingHooks(settings: services.projectSettings, caller: HTTPBlockingHooks(services: services), tenantID: services.tenantID)
        completion.hooks = hooks
        self.completion = completion
        signUp = SignUp(
            settings: services.projectSettings, store: services.store, passwords: passwords, abuse: abuse, idTokens: tokens, completion: completion,
            anonymousMaxAge: services.configuration.anonymousCleanup.maxAge, recentLoginWindow: services.configuration.recentLoginWindow)
        passwordSignIn = PasswordSignIn(
            settings: services.projectSettings, store: services.store, passwords: passwords, abuse: abuse, audit: audit, completion: completion)
        federatedSignIn = FederatedSignIn(
            settings: services.projectSettings, store: services.store, abuse: abuse, idTokens: tokens, completion: completion)
        customTokenSignIn = CustomTokenSignIn(customTokens: ServerCustomTokens(services: services), completion: completion)
        emailLinkSignIn = EmailLinkSignIn(
            settings: services.projectSettings, store: services.store, codes: ActionCodes(store: services.store, clock: services.clock), abuse: abuse,
            idTokens: tokens, completion: completion)
        var phone = PhoneSignIn(
            settings: services.projectSettings, store: services.store, sender: services.verificationCodeSender, abuse: abuse, idTokens: tokens,
            completion: completion)
        let (metrics, logger) = (services.metrics, services.logger)
        phone.budgetUsed = { used, budget in
            metrics.set(.smsBudgetUsed, to: Double(used) / Double(max(1, budget)))
            // Once per window, as it passes 80 %: the operator's cue that codes will soon answer QUOTA_EXCEEDED.
            if used == budget * 4 / 5 + 1 || used == budget + 1 {
                logger.warning("The SMS budget is nearly spent", metadata: ["sent_this_hour": "\(used)", "budget": "\(budget)"])
            }
        }
        phone.appVerifier = services.appVerifier
        phone.hooks = hooks
        phone.externalCodes = services.externalPhoneVerification
        phoneSignIn = phone
        let totp = TOTPCodes(algorithm: HummingbirdTOTP())
        let secrets = MultiFactorSecrets(sealer: services.database.sealer)
        secondFactorSignIn = SecondFactorSignIn(
            settings: services.projectSettings, store: services.store, phone: phone, totp: totp, secrets: secrets, abuse: abuse,
            completion: completion)
        var enrollments = SecondFactorEnrollments(
            settings: services.projectSettings, store: services.store, idTokens: tokens, phone: phone, totp: totp, secrets: secrets,
            completion: completion, recentLoginWindow: services.configuration.recentLoginWindow, issuer: services.configuration.projectID)
        enrollments.mail = EmailActions(services: services)
        secondFactorEnrollments = enrollments
        passkeyEnrollment = PasskeyEnrollment(
            store: services.store, idTokens: tokens, completion: completion, settings: services.projectSettings, abuse: abuse,
            attestation: services.configuration.signIn.passkeyAttestation)
        passkeySignIn = PasskeySignIn(store: services.store, completion: completion, settings: services.projectSettings, abuse: abuse)
    }
}

/// ID tokens as the token service signs and checks them; each signed or checked token notes its user for the access log.
struct ServerIDTokens: IDTokenMinting, IDTokenAuthenticating {
    let services: HearthServices

    var idTokenLifetime: TimeInterval { services.configuration.idTokenLifetime }

    func mintIDToken(
        for user: UserRecord, signInProvider: String, authTime: Date, sessionClaims: [String: JSONValue], secondFactor: SecondFactorUse?
    ) async throws -> String {
        try await services.mintIDToken(
            for: user, signInProvider: signInProvider, authTime: authTime, sessionClaims: sessionClaims, secondFactor: secondFactor)
    }

    func authenticate(_ idToken: String) async throws -> AuthenticatedUser {
        let (claims, user) = try await services.authenticate(idToken)
        return AuthenticatedUser(
            user: user, authTime: claims.authTime, signInProvider: claims.firebase.signInProvider, secondFactor: claims.firebase.secondFactor)
    }

    /// The token's claims and its user (``HearthServices/authenticate(_:)``).
    func verify(_ idToken: String) async throws -> (IDTokenClaims, UserRecord) {
        try await services.authenticate(idToken)
    }
}

/// Password hashing on the blocking thread pool, never on an event loop, with every check counted.
struct ServerPasswords: PasswordChecking {
    let services: HearthServices

    func hash(_ password: String) async throws -> String { try await services.hashPassword(password) }
    func verify(_ password: String, against hash: String) async throws -> Bool { try await services.verifyPassword(password, against: hash) }
    func verifyDecoy(_ password: String) async throws { _ = try await services.verifyDecoyPassword(password) }
    func needsRehash(_ hash: String) -> Bool { services.passwords.needsRehash(hash) }
}

/// Custom tokens checked against the configured public keys and the service-account keys of `hearth admin create-key`
/// (read per request: every replica sees a new or deleted key at once); unsigned ones in development mode.
struct ServerCustomTokens: CustomTokenChecking {
    let services: HearthServices

    func check(_ token: String) async throws -> (uid: String, claims: [String: JSONValue]) {
        let storedSigners = token.hasPrefix("{") ? [] : try await ServiceAccountKeys(store: services.store).customTokenSigners()
        let verified = try services.customTokens.verify(token, now: services.clock.now, storedSigners: storedSigners)
        // A token made for one tenant signs in to that tenant alone (and one made for none, to none).
        guard verified.tenantID == services.tenantID else { throw HearthError(.tenantIDMismatch, reason: "custom token of another tenant") }
        return (verified.uid, verified.claims)
    }
}

/// The use cases of a person's own account (and its e-mail lookup), given this server's parts.
struct AccountUseCases: Sendable {
    let update: OwnAccountUpdate
    let deletion: OwnAccountDeletion
    let signInMethods: SignInMethodsLookup
    /// Which account an e-mail action's code is for (`accounts:sendOobCode`).
    let addressing: ActionCodeAddressing

    init(services: HearthServices) {
        let tokens = ServerIDTokens(services: services)
        let audit = AuditTrail(services: services)
        let window = services.configuration.recentLoginWindow
        update = OwnAccountUpdate(
            settings: services.projectSettings, store: services.store, passwords: ServerPasswords(services: services), idTokens: tokens,
            tokens: tokens,
            audit: audit, mail: EmailActions(services: services), clock: services.clock, recentLoginWindow: window)
        deletion = OwnAccountDeletion(store: services.store, idTokens: tokens, audit: audit, clock: services.clock, recentLoginWindow: window)
        signInMethods = SignInMethodsLookup(settings: services.projectSettings, store: services.store, abuse: services.abuseCounter)
        addressing = ActionCodeAddressing(
            settings: services.projectSettings, store: services.store, idTokens: tokens, abuse: services.abuseCounter, clock: services.clock,
            recentLoginWindow: window)
    }
}
