import Foundation
import HearthWire

extension User {
    // MARK: Linking

    /// Links a credential to this user, which keeps its uid and stops being anonymous. Fails with
    /// ``AuthErrorCode/providerAlreadyLinked`` if the provider is already linked, and with
    /// ``AuthErrorCode/credentialAlreadyInUse`` (carrying the e-mail and a credential to sign in with instead)
    /// if another user owns the credential.
    public func link(with credential: AuthCredential, completion: (@MainActor @Sendable (AuthDataResult?, (any Error)?) -> Void)? = nil) {
        complete(completion) { try await self.link(with: credential) }
    }

    @discardableResult
    public func link(with credential: AuthCredential) async throws -> AuthDataResult {
        if providerData.contains(where: { $0.providerID == credential.provider }) {
            throw AuthErrorFactory.error(.providerAlreadyLinked)
        }
        switch credential {
        case let email as EmailAuthCredential:
            if snapshot.hasPassword { throw AuthErrorFactory.error(.providerAlreadyLinked) }
            switch email.proof {
            case .password(let password):
                let response: SignUpResponse = try await engine.withIDToken(of: self) { token in
                    var request = SignUpRequest(email: email.email, password: password, idToken: token)
                    request.tenantId = tenantID
                    return try await engine.backend.call(.signUp, request)
                }
                try await adopt(idToken: response.idToken, refreshToken: response.refreshToken, expiresIn: response.expiresIn)
            case .link(let link):
                let code = try Auth.signInCode(of: link)
                let response: SignInWithEmailLinkResponse = try await engine.withIDToken(of: self) { token in
                    var request = SignInWithEmailLinkRequest(email: email.email, oobCode: code, idToken: token)
                    request.tenantId = tenantID
                    request.returnSecureToken = true
                    return try await engine.backend.call(.signInWithEmailLink, request)
                }
                try await adopt(idToken: response.idToken, refreshToken: response.refreshToken, expiresIn: response.expiresIn)
            }
            return AuthDataResult(user: self, additionalUserInfo: nil, credential: nil)
        case let oauth as OAuthCredential:
            let response = try await engine.withIDToken(of: self) { token in
                try await engine.signInWithIdp(oauth, linkingTo: token, autoCreate: true, checkConfirmation: false)
            }
            try await adopt(idToken: response.idToken, refreshToken: response.refreshToken, expiresIn: response.expiresIn)
            return AuthEngine.result(response, user: self)
        case let phone as PhoneAuthCredential:
            try await linkOrUpdate(phone, operation: "LINK")
            return AuthDataResult(user: self, additionalUserInfo: nil, credential: nil)
        default:
            throw AuthErrorFactory.error(.invalidCredential, message: "Unsupported credential for provider \(credential.provider).")
        }
    }

    /// `accounts:signInWithPhoneNumber` with this user's ID token: the number joins this account (replacing the one it
    /// had), or, when another account has it, ``AuthErrorCode/credentialAlreadyInUse`` with a credential for that account.
    /// `operation`: `LINK` or `UPDATE`, as FirebaseAuth sends them.
    private func linkOrUpdate(_ credential: PhoneAuthCredential, operation: String) async throws {
        let response = try await engine.withIDToken(of: self) { token in
            try await engine.signInWithPhoneNumber(credential, idToken: token, operation: operation)
        }
        try await adopt(idToken: response.idToken, refreshToken: response.refreshToken, expiresIn: response.expiresIn)
    }

    /// Takes new tokens from a link (or a second factor's enrolment or removal), reloads the profile and announces
    /// the change.
    func adopt(idToken: String?, refreshToken: String?, expiresIn: String?) async throws {
        guard let idToken, !idToken.isEmpty, let refreshToken, !refreshToken.isEmpty else {
            throw AuthErrorFactory.error(.invalidUserToken, message: "accessToken or refreshToken is nil")
        }
        let tokens = TokenSet(idToken: idToken, refreshToken: refreshToken, expirationDate: engine.expiry(expiresIn))
        let info = try await engine.lookup(idToken: idToken)
        update { user in
            user.tokens = tokens
            user.apply(info)
            user.isAnonymous = false
        }
        engine.userDidChange(self)
    }

    /// Removes a provider from this user. Fails with ``AuthErrorCode/noSuchProvider`` if it is not linked.
    public func unlink(fromProvider provider: String, completion: (@MainActor @Sendable (User?, (any Error)?) -> Void)? = nil) {
        complete(completion) { try await self.unlink(fromProvider: provider) }
    }

    @discardableResult
    public func unlink(fromProvider provider: String) async throws -> User {
        guard providerData.contains(where: { $0.providerID == provider }) else {
            throw AuthErrorFactory.error(.noSuchProvider)
        }
        let response: UpdateResponse = try await engine.withIDToken(of: self) { token in
            var request = UpdateRequest(idToken: token)
            request.deleteProvider = [provider]
            request.returnSecureToken = true
            return try await engine.backend.call(.update, request)
        }
        update { user in
            user.providerData = (response.providerUserInfo ?? []).map(ProviderUserInfo.init)
            if provider == EmailAuthProviderID {
                user.hasPassword = false
                user.email = response.email
            }
            if provider == PhoneAuthProviderID { user.phoneNumber = nil }
            if let idToken = response.idToken, let refreshToken = response.refreshToken {
                user.tokens = TokenSet(idToken: idToken, refreshToken: refreshToken, expirationDate: engine.expiry(response.expiresIn))
            }
        }
        engine.userDidChange(self)
        return self
    }

    // MARK: Re-authentication

    /// Signs in again with a credential of this user, for operations that need a recent sign-in. This user
    /// gets the new tokens; ``AuthDataResult/user`` is a separate ``User`` with the same uid. A credential of
    /// another user fails with ``AuthErrorCode/userMismatch``.
    public func reauthenticate(with credential: AuthCredential, completion: (@MainActor @Sendable (AuthDataResult?, (any Error)?) -> Void)? = nil) {
        complete(completion) { try await self.reauthenticate(with: credential) }
    }

    @discardableResult
    public func reauthenticate(with credential: AuthCredential) async throws -> AuthDataResult {
        let auth = Auth(engine: engine)
        let signedIn: (User, AuthDataResult)
        do {
            signedIn = try await auth.credentialUser(credential, autoCreate: false)
        } catch  where AuthErrorCode(error) == .userNotFound {
            throw AuthErrorFactory.error(.userMismatch)
        }
        let (other, result) = signedIn
        guard other.uid == uid else { throw AuthErrorFactory.error(.userMismatch) }
        updateTokens(other.cachedTokens)
        engine.userDidChange(self)
        return result
    }

    // MARK: Updates

    /// Changes the e-mail address. Needs a recent sign-in unless the user is anonymous.
    @available(*, deprecated, message: "Deprecated in FirebaseAuth: use sendEmailVerification(beforeUpdatingEmail:).")
    public func updateEmail(to email: String, completion: (@MainActor @Sendable ((any Error)?) -> Void)? = nil) {
        complete(completion) { try await self.changeEmail(to: email) }
    }

    @available(*, deprecated, message: "Deprecated in FirebaseAuth: use sendEmailVerification(beforeUpdatingEmail:).")
    public func updateEmail(to email: String) async throws {
        try await changeEmail(to: email)
    }

    func changeEmail(to email: String) async throws {
        var request = UpdateRequest(idToken: nil)
        request.email = email
        try await commit(request)
    }

    /// Sets a password (and makes an anonymous user with an e-mail a password user). Needs a recent sign-in.
    public func updatePassword(to password: String, completion: (@MainActor @Sendable ((any Error)?) -> Void)? = nil) {
        complete(completion) { try await self.updatePassword(to: password) }
    }

    public func updatePassword(to password: String) async throws {
        if password.isEmpty { throw AuthErrorFactory.error(.weakPassword, failureReason: "Missing Password") }
        var request = UpdateRequest(idToken: nil)
        request.password = password
        try await commit(request)
    }

    /// Sets the user's phone number to the one `credential` proves, replacing any number it had (FirebaseAuth's
    /// update: a link with the user's ID token, without the providerAlreadyLinked check). A number of another account
    /// fails with ``AuthErrorCode/credentialAlreadyInUse``, carrying a credential that signs in to that account.
    public func updatePhoneNumber(_ credential: PhoneAuthCredential, completion: (@MainActor @Sendable ((any Error)?) -> Void)? = nil) {
        complete(completion) { try await self.updatePhoneNumber(credential) }
    }

    public func updatePhoneNumber(_ credential: PhoneAuthCredential) async throws {
        try await linkOrUpdate(credential, operation: "UPDATE")
    }

    /// A request to change the display name and photo URL; call ``UserProfileChangeRequest/commitChanges(completion:)``.
    public func createProfileChangeRequest() -> UserProfileChangeRequest {
        UserProfileChangeRequest(user: self)
    }

    /// Sends an `accounts:update` with this user's ID token, takes new tokens if the server issued them, and
    /// reloads the profile.
    func commit(_ request: UpdateRequest) async throws {
        let response: UpdateResponse = try await engine.withIDToken(of: self) { token in
            var request = request
            request.idToken = token
            request.returnSecureToken = true
            request.tenantId = tenantID
            return try await engine.backend.call(.update, request)
        }
        if let idToken = response.idToken, let refreshToken = response.refreshToken {
            updateTokens(TokenSet(idToken: idToken, refreshToken: refreshToken, expirationDate: engine.expiry(response.expiresIn)))
        }
        let info = try await engine.withIDToken(of: self) { try await engine.lookup(idToken: $0) }
        update { user in
            user.apply(info)
            if user.isAnonymous, user.hasPassword || !user.providerData.isEmpty { user.isAnonymous = false }
        }
        engine.userDidChange(self)
    }
}
