import Foundation
import HTTPTypes
import HearthCore
import HearthTelemetry
import HearthTokens
import HearthWire
import Hummingbird

/// `accounts:*` of Identity Toolkit v1 (and their legacy v3 names): sign-up, password sign-in, lookup,
/// update, delete, and the sign-in methods of an e-mail.
struct AccountsController<Context: CallerRequestContext>: Sendable {
    let services: HearthServices

    private var configuration: ServerConfiguration { services.configuration }
    private var store: any HearthStore { services.store }
    private var expiresIn: String { String(Int(configuration.idTokenLifetime)) }
    private var admin: AdminAccountsController<Context> { AdminAccountsController(services: services) }
    private var emailActions: EmailActionsController<Context> { EmailActionsController(services: services) }
    private var audit: AuditTrail { AuditTrail(services: services) }

    enum RouteNames { case v1, legacyV3 }

    func addRoutes(to group: RouterGroup<Context>, names: RouteNames) {
        let federated = FederatedController<Context>(services: services)
        let routes: [(v1: String, v3: String, handler: @Sendable (Request, Context) async throws -> Response)] = [
            ("accounts:signUp", "signupNewUser", signUp),
            ("accounts:signInWithPassword", "verifyPassword", signInWithPassword),
            ("accounts:lookup", "getAccountInfo", lookup),
            ("accounts:update", "setAccountInfo", update),
            ("accounts:delete", "deleteAccount", delete),
            ("accounts:createAuthUri", "createAuthUri", createAuthUri),
            ("accounts:signInWithIdp", "verifyAssertion", federated.signInWithIdp),
            ("accounts:signInWithCustomToken", "verifyCustomToken", CustomTokenController<Context>(services: services).signInWithCustomToken),
            ("accounts:sendOobCode", "getOobConfirmationCode", emailActions.sendOobCode),
            ("accounts:resetPassword", "resetPassword", emailActions.resetPassword),
            ("accounts:signInWithEmailLink", "emailLinkSignin", emailActions.signInWithEmailLink),
        ]
        for route in routes {
            group.post(RouterPath(names == .v1 ? route.v1 : route.v3), use: route.handler)
        }
    }

    private func body<T: Decodable>(_ type: T.Type, _ request: Request) async throws -> T {
        try await WireCoding.decode(type, from: request, limit: configuration.maxBodyBytes)
    }

    // MARK: accounts:signUp

    @Sendable func signUp(_ request: Request, context: Context) async throws -> Response {
        let input = try await body(SignUpRequest.self, request)
        try checkTarget(input.targetProjectId, context)
        if context.caller == .administrator {
            return try await admin.create(input, origin: audit.origin(request, context: context))
        }
        RequestRecord.noteSignInAttempt(provider: input.email != nil || input.password != nil ? "password" : "anonymous", signUp: true)
        if input.localId != nil { throw HearthError(.unexpectedLocalID) }
        let signedIn = try await SignInUseCases(services: services).signUp(
            .init(email: input.email, password: input.password, displayName: input.displayName, idToken: input.idToken),
            from: audit.clientOrigin(request, context: context))
        let user = signedIn.user
        return WireCoding.response(
            SignUpResponse(
                localId: user.uid, email: user.email, displayName: user.displayName, idToken: signedIn.idToken,
                refreshToken: signedIn.refreshToken, expiresIn: String(signedIn.expiresIn)))
    }

    // MARK: accounts:signInWithPassword

    @Sendable func signInWithPassword(_ request: Request, context: Context) async throws -> Response {
        RequestRecord.noteSignInAttempt(provider: "password", signUp: false)
        let input = try await body(SignInWithPasswordRequest.self, request)
        let (email, signedIn) = try await SignInUseCases(services: services).passwordSignIn(
            email: input.email, password: input.password, from: audit.clientOrigin(request, context: context))
        let user = signedIn.user
        return WireCoding.response(
            SignInWithPasswordResponse(
                localId: user.uid, email: email, displayName: user.displayName ?? "", profilePicture: user.photoURL,
                idToken: signedIn.idToken, refreshToken: signedIn.refreshToken, expiresIn: String(signedIn.expiresIn)))
    }

    // MARK: accounts:lookup

    @Sendable func lookup(_ request: Request, context: Context) async throws -> Response {
        let input = try await body(LookupRequest.self, request)
        try checkTarget(input.targetProjectId, context)
        if context.caller == .administrator,
            input.idToken == nil || input.localId != nil || input.email != nil || input.phoneNumber != nil
                || input.federatedUserId != nil
        {
            return try await admin.lookup(input)
        }
        guard let idToken = input.idToken else { throw HearthError(.missingIDToken) }
        let (_, user) = try await authenticate(idToken)
        return WireCoding.response(LookupResponse(users: [UserInfo(user)]))
    }

    // MARK: accounts:update

    @Sendable func update(_ request: Request, context: Context) async throws -> Response {
        let input = try await body(UpdateRequest.self, request)
        try checkTarget(input.targetProjectId, context)
        if let code = input.oobCode, input.idToken == nil, input.localId == nil {
            return try await emailActions.applyCode(code, origin: audit.origin(request, context: context))
        }
        if context.caller == .administrator, input.localId != nil || input.idToken == nil {
            return try await admin.update(input, origin: audit.origin(request, context: context))
        }
        guard let idToken = input.idToken else {
            if input.localId != nil { throw HearthError(.insufficientPermission) }
            throw HearthError(.invalidRequestType)
        }
        if input.customAttributes != nil || input.phoneNumber != nil || input.emailVerified != nil || input.linkProviderUserInfo != nil
            || input.createdAt != nil || input.lastLoginAt != nil
        {
            throw HearthError(.insufficientPermission)
        }
        if input.disableUser != nil { throw HearthError(.operationNotAllowed) }
        let (claims, current) = try await authenticate(idToken)
        let now = services.clock.now
        let update = try Self.profileUpdate(input)
        try update.check(
            current, authTime: claims.authTime, now: now, recentLoginWindow: configuration.recentLoginWindow,
            emailEnumerationProtection: try await services.projectSettings().emailEnumerationProtection)
        if let email = update.email { try update.checkEmail(ownedBy: try await store.user(email: email), for: current) }
        let hash = try await input.password.asyncMap { try await services.hashPassword($0) }

        // New tokens when the credentials changed: the old ones stop working (validSince moves).
        let provider = update.setsPassword ? "password" : claims.firebase.signInProvider
        let session =
            update.changesCredentials(of: current)
            ? RefreshSessionRecord.issue(uid: current.uid, signInProvider: provider, authTime: now, now: now) : nil
        let user = try await updateUser(current.uid, session: session?.record) { try update.apply(to: &$0, passwordHash: hash, now: now) }
        await recordChanges(from: current, to: user, passwordSet: hash != nil, request: request, context: context)
        if hash != nil { try await store.deleteActionCodes(uid: user.uid, kinds: [.passwordReset]) }
        if let oldEmail = current.email, oldEmail != user.email {
            // The old address hears of the change and can undo it; links sent to it stop working.
            try await store.deleteActionCodes(uid: user.uid, kinds: Set(ActionCodeKind.allCases))
            if let newEmail = user.email, !current.isAnonymous {
                try await EmailActions(services: services).mailRecoveryLink(
                    uid: user.uid, oldEmail: oldEmail, newEmail: newEmail, languageCode: request.headers[HTTPField.Name("X-Firebase-Locale")!])
            }
        }
        var response = Self.updateResponse(user)
        if let session {
            response.idToken = try await services.mintIDToken(for: user, signInProvider: provider, authTime: now)
            response.refreshToken = session.token
            response.expiresIn = expiresIn
        }
        return WireCoding.response(response)
    }

    /// The update the request asks for. Throws `INVALID_EMAIL`, `WEAK_PASSWORD`, `INVALID_DISPLAY_NAME`,
    /// `INVALID_PHOTO_URL`; unknown attribute names are ignored.
    static func profileUpdate(_ input: UpdateRequest) throws -> ProfileUpdate {
        let email = try input.email.map { raw in
            guard let normalized = EmailAddress.normalize(raw) else { throw HearthError(.invalidEmail) }
            return normalized
        }
        try input.password.map(PasswordPolicy.check)
        let attributes: [String: ProfileUpdate.Attribute] = [
            "DISPLAY_NAME": .displayName, "PHOTO_URL": .photoURL, "EMAIL": .email, "PASSWORD": .password,
        ]
        return ProfileUpdate(
            email: email, setsPassword: input.password != nil,
            displayName: try input.displayName.map(UserText.displayName), photoURL: try input.photoUrl.map(UserText.photoURL),
            deletedAttributes: Set((input.deleteAttribute ?? []).compactMap { attributes[$0.name] }),
            deletedProviders: Set(input.deleteProvider ?? []))
    }

    /// The audit events of a person's own `accounts:update`: a password added (a link) or changed, a new
    /// e-mail address, sign-in methods removed.
    private func recordChanges(from before: UserRecord, to after: UserRecord, passwordSet: Bool, request: Request, context: Context) async {
        if passwordSet {
            let kind: AuditEvent.Kind = before.passwordHash == nil ? .linked : .passwordChanged
            await audit.record(
                kind, uid: after.uid, actor: .user, method: kind == .linked ? "password" : "update", request: request, context: context)
        }
        if before.email != after.email {
            await audit.record(.emailChanged, uid: after.uid, actor: .user, method: "update", request: request, context: context)
        }
        let removed = Self.signInMethods(before).subtracting(Self.signInMethods(after))
        if !removed.isEmpty {
            await audit.record(
                .unlinked, uid: after.uid, actor: .user, request: request, context: context,
                details: ["providers": removed.sorted().joined(separator: ",")])
        }
    }

    /// The providers a user can sign in with: linked providers, `password` and `phone`.
    static func signInMethods(_ user: UserRecord) -> Set<String> {
        var methods = Set(user.providers.map(\.providerID))
        if user.passwordHash != nil { methods.insert("password") }
        if user.phoneNumber != nil { methods.insert("phone") }
        return methods
    }

    static func updateResponse(_ user: UserRecord) -> UpdateResponse {
        var response = UpdateResponse(localId: user.uid)
        response.email = user.email
        response.emailVerified = user.email == nil ? nil : user.emailVerified
        response.displayName = user.displayName
        response.photoUrl = user.photoURL
        response.providerUserInfo = UserInfo(user).providerUserInfo ?? []
        response.passwordHash = user.passwordHash == nil ? nil : UserInfo.redactedPasswordHash
        return response
    }

    // MARK: accounts:delete

    @Sendable func delete(_ request: Request, context: Context) async throws -> Response {
        let input = try await body(DeleteAccountRequest.self, request)
        try checkTarget(input.targetProjectId, context)
        if context.caller == .administrator, input.localId != nil || input.idToken == nil {
            return try await admin.delete(input, origin: audit.origin(request, context: context))
        }
        guard let idToken = input.idToken else { throw HearthError(.missingIDToken) }
        let (claims, user) = try await authenticate(idToken)
        if !user.isAnonymous {
            try RecentSignIn.require(authTime: claims.authTime, now: services.clock.now, window: configuration.recentLoginWindow)
        }
        if try await store.deleteUser(uid: user.uid) {
            await audit.record(.deleted, uid: user.uid, actor: .user, request: request, context: context)
        }
        return WireCoding.response(DeleteAccountResponse())
    }

    // MARK: accounts:createAuthUri

    @Sendable func createAuthUri(_ request: Request, context: Context) async throws -> Response {
        let input = try await body(CreateAuthUriRequest.self, request)
        // With a provider: the start of a browser sign-in.
        if input.providerId != nil {
            let authority = BrowserSignIn.authority(of: request)
            return WireCoding.response(try await BrowserSignIn(services: services).createAuthUri(input, authority: authority))
        }
        guard let identifier = input.identifier else { throw HearthError(.missingIdentifier) }
        guard let continueUri = input.continueUri else { throw HearthError(.missingContinueURI) }
        guard let url = URL(string: continueUri), url.scheme != nil, url.host != nil else { throw HearthError(.invalidContinueURI) }
        guard let email = EmailAddress.normalize(identifier) else { throw HearthError(.invalidIdentifier) }
        let abuse = AbuseGuard(services: services)
        try await abuse.count(\.createAuthUri, address: abuse.clientAddress(request, context: context))
        let sessionID = input.sessionId ?? Self.randomSessionID()
        if try await services.projectSettings().emailEnumerationProtection {
            return WireCoding.response(CreateAuthUriResponse(registered: nil, allProviders: nil, signinMethods: nil, sessionId: sessionID))
        }
        let users = try await store.users(anyEmail: email)
        let owner = users.first { $0.email == email } ?? users.first
        let methods = owner?.signInMethods ?? []
        return WireCoding.response(
            CreateAuthUriResponse(
                registered: owner != nil, allProviders: methods.isEmpty ? nil : methods,
                signinMethods: methods.isEmpty ? nil : methods, sessionId: sessionID))
    }

    private static func randomSessionID() -> String {
        let alphabet = Array("ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789")
        return String((0..<27).map { _ in alphabet.randomElement()! })
    }

    // MARK: Shared steps

    private func checkTarget(_ targetProjectId: String?, _ context: Context) throws {
        try AdminAccountsController<Context>.checkTarget(targetProjectId, context, projectID: configuration.projectID)
    }

    /// Verifies an ID token and loads its user, with Firebase's checks in Firebase's order.
    func authenticate(_ idToken: String) async throws -> (IDTokenClaims, UserRecord) {
        try await services.authenticate(idToken)
    }

    private func updateUser(_ uid: String, session: RefreshSessionRecord?, _ mutate: @escaping @Sendable (inout UserRecord) throws -> Void)
        async throws -> UserRecord
    {
        try await StoreConflict.mapped { try await store.updateUser(uid: uid, session: session, mutate) }
    }
}

extension HearthServices {
    /// Verifies an ID token and loads its user: `INVALID_ID_TOKEN`, `TOKEN_EXPIRED`, `USER_NOT_FOUND`,
    /// `USER_DISABLED`, and `TOKEN_EXPIRED` again for a token of a sign-in before the user's `validSince`.
    ///
    /// Revocation is judged by `auth_time`, as the Firebase Admin SDKs judge it: a token minted from an old
    /// session in the very second of a password change has an `iat` equal to `validSince`, but the sign-in
    /// it carries is older, so it is refused. Sessions started by the change itself sign in at `validSince`.
    ///
    /// Each check is counted in `hearth_id_token_checks_total` by result.
    func authenticate(_ idToken: String) async throws -> (IDTokenClaims, UserRecord) {
        do {
            let claims = try await tokens.verifyIDToken(idToken)
            guard let user = try await store.user(uid: claims.userID) else { throw HearthError(.userNotFound) }
            if user.disabled { throw HearthError(.userDisabled) }
            let validSince = Int64(user.validSince.timeIntervalSince1970.rounded(.down))
            if claims.authTime < validSince || claims.issuedAt < validSince {
                throw HearthError(.tokenExpired, reason: "signed in before validSince")
            }
            RequestRecord.noteUser(user.uid)
            metrics.count(.idTokenChecks, "ok")
            return (claims, user)
        } catch let error as HearthError {
            metrics.count(.idTokenChecks, error.errorCode)
            throw error
        }
    }

    /// Signs an ID token for `user` (see ``TokenService/mintIDToken(for:signInProvider:authTime:sessionClaims:)``)
    /// and notes the user for the access log.
    func mintIDToken(
        for user: UserRecord, signInProvider: String, authTime: Date, sessionClaims: [String: JSONValue] = [:]
    ) async throws -> String {
        RequestRecord.noteUser(user.uid)
        return try await tokens.mintIDToken(for: user, signInProvider: signInProvider, authTime: authTime, sessionClaims: sessionClaims)
    }
}
