import Foundation
import HTTPTypes
import HearthConfiguration
import HearthCore
import HearthTelemetry
import HearthTokens
import HearthWire
import HearthWireMapping
import Hummingbird

/// `accounts:*` of Identity Toolkit v1 (and their legacy v3 names): sign-up, password sign-in, lookup,
/// update, delete, and the sign-in methods of an e-mail.
///
/// A class: each request takes its tenant's controller, and a copy of so many parts would cost more than a lookup.
final class AccountsController<Context: CallerRequestContext>: Sendable {
    let signIn: SignInUseCases
    let accountUseCases: AccountUseCases
    let idTokens: ServerIDTokens
    /// Where an administrator's calls of the same routes go.
    let admin: AdminAccountsController<Context>
    let emailActions: EmailActionsController<Context>
    let federated: FederatedController<Context>
    let customToken: CustomTokenController<Context>
    let phone: PhoneSignInController<Context>
    let browserSignIn: BrowserSignIn
    let audit: AuditTrail
    let configuration: ServerConfiguration

    init(
        signIn: SignInUseCases, accountUseCases: AccountUseCases, idTokens: ServerIDTokens, admin: AdminAccountsController<Context>,
        emailActions: EmailActionsController<Context>, federated: FederatedController<Context>, customToken: CustomTokenController<Context>,
        phone: PhoneSignInController<Context>, browserSignIn: BrowserSignIn, audit: AuditTrail, configuration: ServerConfiguration
    ) {
        (self.signIn, self.accountUseCases, self.idTokens, self.admin) = (signIn, accountUseCases, idTokens, admin)
        (self.emailActions, self.federated, self.customToken, self.phone) = (emailActions, federated, customToken, phone)
        (self.browserSignIn, self.audit, self.configuration) = (browserSignIn, audit, configuration)
    }

    enum RouteNames { case v1, legacyV3 }

    static func addRoutes(to group: RouterGroup<Context>, names: RouteNames, from source: ControllerSource<AccountsController, Context>) {
        let routes: [(v1: String, v3: String, handler: @Sendable (Request, Context) async throws -> Response)] = [
            ("accounts:signUp", "signupNewUser", source { $0.signUp }),
            ("accounts:signInWithPassword", "verifyPassword", source { $0.signInWithPassword }),
            ("accounts:lookup", "getAccountInfo", source { $0.lookup }),
            ("accounts:update", "setAccountInfo", source { $0.update }),
            ("accounts:delete", "deleteAccount", source { $0.delete }),
            ("accounts:createAuthUri", "createAuthUri", source { $0.createAuthUri }),
            ("accounts:signInWithIdp", "verifyAssertion", source { $0.federated.signInWithIdp }),
            ("accounts:signInWithCustomToken", "verifyCustomToken", source { $0.customToken.signInWithCustomToken }),
            ("accounts:sendOobCode", "getOobConfirmationCode", source { $0.emailActions.sendOobCode }),
            ("accounts:resetPassword", "resetPassword", source { $0.emailActions.resetPassword }),
            ("accounts:signInWithEmailLink", "emailLinkSignin", source { $0.emailActions.signInWithEmailLink }),
            ("accounts:sendVerificationCode", "sendVerificationCode", source { $0.phone.sendVerificationCode }),
            ("accounts:signInWithPhoneNumber", "verifyPhoneNumber", source { $0.phone.signInWithPhoneNumber }),
        ]
        for route in routes {
            group.post(RouterPath(names == .v1 ? route.v1 : route.v3), use: route.handler)
        }
        group.get(RouterPath(names == .v1 ? "recaptchaParams" : "getRecaptchaParam"), use: source { $0.phone.recaptchaParams })
    }

    private func body<T: Decodable>(_ type: T.Type, _ request: Request) async throws -> T {
        try await WireCoding.decode(type, from: request, limit: configuration.maxBodyBytes)
    }

    // MARK: accounts:signUp

    @Sendable func signUp(_ request: Request, context: Context) async throws -> Response {
        let input = try await body(SignUpRequest.self, request)
        try checkTarget(input.targetProjectId, context)
        // A chosen uid and an account to upgrade are two different accounts, whoever asks.
        if input.localId != nil, input.idToken != nil { throw HearthError(.unexpectedLocalID) }
        if context.caller == .administrator {
            return try await admin.create(input, origin: audit.origin(request, context: context))
        }
        RequestRecord.noteSignInAttempt(provider: input.email != nil || input.password != nil ? "password" : "anonymous", signUp: true)
        if input.localId != nil { throw HearthError(.unexpectedLocalID) }
        let signedIn = try await signIn.signUp(
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
        let (email, signedIn) = try await signIn.passwordSignIn(
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
        let user = try await idTokens.authenticate(idToken).user
        return WireCoding.response(LookupResponse(users: try await UserInfo.list([user], passkeysIn: admin.store)))
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
        let updated = try await accountUseCases.update(
            OwnAccountUpdate.Input(input, languageCode: request.headers[HTTPField.Name("X-Firebase-Locale")!]), idToken: idToken,
            from: audit.origin(request, context: context))
        var response = UpdateResponse(updated.user)
        if let session = updated.session {
            response.idToken = session.idToken
            response.refreshToken = session.refreshToken
            response.expiresIn = String(session.expiresIn)
        }
        return WireCoding.response(response)
    }

    // MARK: accounts:delete

    @Sendable func delete(_ request: Request, context: Context) async throws -> Response {
        let input = try await body(DeleteAccountRequest.self, request)
        try checkTarget(input.targetProjectId, context)
        if context.caller == .administrator, input.localId != nil || input.idToken == nil {
            return try await admin.delete(input, origin: audit.origin(request, context: context))
        }
        guard let idToken = input.idToken else { throw HearthError(.missingIDToken) }
        try await accountUseCases.deletion(idToken: idToken, from: audit.origin(request, context: context))
        return WireCoding.response(DeleteAccountResponse())
    }

    // MARK: accounts:createAuthUri

    @Sendable func createAuthUri(_ request: Request, context: Context) async throws -> Response {
        let input = try await body(CreateAuthUriRequest.self, request)
        // With a provider: the start of a browser sign-in.
        if input.providerId != nil {
            let authority = BrowserSignIn.authority(of: request)
            return WireCoding.response(try await browserSignIn.createAuthUri(input, authority: authority))
        }
        let sessionID = input.sessionId ?? Self.randomSessionID()
        let found = try await accountUseCases.signInMethods(
            identifier: input.identifier, continueURI: input.continueUri, from: audit.clientOrigin(request, context: context))
        guard let found else {
            return WireCoding.response(CreateAuthUriResponse(registered: nil, allProviders: nil, signinMethods: nil, sessionId: sessionID))
        }
        let methods = found.methods.isEmpty ? nil : found.methods
        return WireCoding.response(
            CreateAuthUriResponse(registered: found.registered, allProviders: methods, signinMethods: methods, sessionId: sessionID))
    }

    private static func randomSessionID() -> String {
        let alphabet = Array("ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789")
        return String((0..<27).map { _ in alphabet.randomElement()! })
    }

    // MARK: Shared steps

    private func checkTarget(_ targetProjectId: String?, _ context: Context) throws {
        try AdminAccountsController<Context>.checkTarget(targetProjectId, context, projectID: configuration.projectID)
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
            // A token of another tenant (or of the project, in a tenant) is not this scope's.
            guard claims.firebase.tenant == tenantID else { throw HearthError(.tenantIDMismatch, reason: "ID token of another tenant") }
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
        for user: UserRecord, signInProvider: String, authTime: Date, sessionClaims: [String: JSONValue] = [:],
        secondFactor: SecondFactorUse? = nil
    ) async throws -> String {
        RequestRecord.noteUser(user.uid)
        // The scope decides the tenant, not the record: a user made in this request has not been read back.
        var user = user
        user.tenantID = tenantID
        return try await tokens.mintIDToken(
            for: user, signInProvider: signInProvider, authTime: authTime, sessionClaims: sessionClaims, secondFactor: secondFactor)
    }
}
