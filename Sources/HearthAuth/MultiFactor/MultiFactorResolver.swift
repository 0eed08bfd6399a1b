import Foundation
import HearthWire

/// Finishes a sign-in that needs a second factor. A first factor (password, identity provider, e-mail link, phone)
/// of an account with enrolled factors fails with ``AuthErrorCode/secondFactorRequired``, and the error's userInfo
/// carries the resolver under ``AuthErrorUserInfoMultiFactorResolverKey``:
///
/// ```swift
/// do {
///     try await Auth.auth().signIn(withEmail: email, password: password)
/// } catch let error as NSError where error.code == AuthErrorCode.secondFactorRequired.rawValue {
///     let resolver = error.userInfo[AuthErrorUserInfoMultiFactorResolverKey] as! MultiFactorResolver
///     let hint = resolver.hints[0]  // let the person choose
///     let assertion = TOTPMultiFactorGenerator.assertionForSignIn(withEnrollmentID: hint.uid, oneTimePassword: code)
///     try await resolver.resolveSignIn(with: assertion)
/// }
/// ```
///
/// For an SMS factor, send its code with ``PhoneAuthProvider/verifyPhoneNumber(with:uiDelegate:multiFactorSession:)``
/// (the hint and ``session``) and resolve with ``PhoneMultiFactorGenerator/assertion(with:)``.
public final class MultiFactorResolver: Sendable {
    /// The sign-in's session, for ``PhoneAuthProvider/verifyPhoneNumber(with:uiDelegate:multiFactorSession:)``.
    public let session: MultiFactorSession
    /// The account's second factors, phone numbers masked (`+*******1234`).
    public let hints: [MultiFactorInfo]
    /// The ``Auth`` the sign-in began with.
    public let auth: Auth
    /// The account signing in and its e-mail, as the first factor's answer told them.
    let uid: String
    let email: String?
    private let pendingCredential: String

    init(response: MFARequiredResponse, engine: AuthEngine) {
        pendingCredential = response.mfaPendingCredential
        hints = response.mfaInfo.compactMap(MultiFactorInfo.make)
        uid = response.localId
        email = response.email
        session = MultiFactorSession(.signIn(pendingCredential: response.mfaPendingCredential, engine: engine))
        if let app = HearthApp.app(name: engine.appName), app.engine === engine {
            auth = app.auth
        } else {
            auth = Auth(engine: engine)
        }
    }

    /// Finishes the sign-in with a second factor's proof (`mfaSignIn:finalize`) and signs the user in as the first
    /// factor would have: ``Auth/currentUser`` and listeners. When the account is the current user's (a
    /// re-authentication), that ``User`` takes the new tokens, as ``User/reauthenticate(with:)`` does. The result's
    /// ``AuthDataResult/additionalUserInfo`` is nil, as in FirebaseAuth. A wrong code fails with
    /// ``AuthErrorCode/invalidVerificationCode``; a pending credential too old (or used) with
    /// ``AuthErrorCode/invalidMultiFactorSession``.
    public func resolveSignIn(
        with assertion: MultiFactorAssertion, completion: (@MainActor @Sendable (AuthDataResult?, (any Error)?) -> Void)? = nil
    ) {
        complete(completion) { try await self.resolveSignIn(with: assertion) }
    }

    @discardableResult
    public func resolveSignIn(with assertion: MultiFactorAssertion) async throws -> AuthDataResult {
        let engine = auth.engine
        var request = try assertion.signInRequest(pendingCredential: pendingCredential)
        request.tenantId = engine.tenantID
        let response: MFATokensResponse = try await engine.backend.call(.finalizeMFASignIn, request)
        if let current = engine.currentUser, current.uid == uid {
            try await current.adopt(idToken: response.idToken, refreshToken: response.refreshToken, expiresIn: nil)
            return AuthDataResult(user: current, additionalUserInfo: nil, credential: nil)
        }
        let user = try await engine.makeUser(
            idToken: response.idToken, refreshToken: response.refreshToken, expiresIn: nil, isAnonymous: false)
        try engine.setCurrentUser(user)
        return AuthDataResult(user: user, additionalUserInfo: nil, credential: nil)
    }
}
