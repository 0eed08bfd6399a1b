import Foundation
import HearthConfiguration
import HearthCore
import HearthFormEncoding
import HearthProviders
import HearthTokens
import HearthWire
import HearthWireMapping
import Hummingbird

/// `accounts:signInWithIdp` (legacy `verifyAssertion`): sign in, sign up, link or re-authenticate with an
/// identity provider's credential, under the one-account-per-e-mail rules.
struct FederatedController<Context: RequestContext>: Sendable {
    let signIn: FederatedSignIn
    let browserSignIn: BrowserSignIn
    let identityVerifier: any IdentityVerifier
    /// Signs and checks the pending credentials of `needConfirmation` answers.
    let tokens: TokenService
    let audit: AuditTrail
    let configuration: ServerConfiguration

    @Sendable func signInWithIdp(_ request: Request, context: Context) async throws -> Response {
        // The provider is known once the credential is read; until then (a malformed request) it counts as `other`.
        RequestRecord.noteSignInAttempt(provider: "other", signUp: false)
        let input = try await WireCoding.decode(SignInWithIdpRequest.self, from: request, limit: configuration.maxBodyBytes)
        guard let requestURI = input.requestUri else { throw HearthError(.missingRequestURI) }
        guard let url = URL(string: requestURI), url.scheme != nil else { throw HearthError(.invalidRequestURI) }
        try await identityVerifier.refresh()

        // The identity: from a pending credential Hearth issued, or verified now from the provider's credential.
        let profile: FederatedProfile
        var credential: FederatedCredential?
        var fromBrowser = false
        if let pendingToken = input.pendingToken, input.postBody == nil {
            profile = try await tokens.verifyPendingToken(pendingToken).storable()
            guard identityVerifier.isEnabled(profile.providerID) else { throw HearthError(.operationNotAllowed) }
            RequestRecord.noteSignInAttempt(provider: profile.providerID.lowercased(), signUp: false)
        } else {
            // A browser sign-in (requestUri from the redirect handler, or the provider's callback at the app's own
            // redirect URI, with the sessionId of createAuthUri), else the credential the app sends itself.
            var browser = try await browserSignIn.completedCredential(
                requestURI: url, sessionID: input.sessionId, postBodyProviderID: Self.postBodyProviderID(input.postBody))
            if browser == nil {
                browser = try await browserSignIn.callbackCredential(requestURI: requestURI, postBody: input.postBody, sessionID: input.sessionId)
            }
            let parsed = try browser ?? Self.credential(postBody: input.postBody ?? "", requestURI: url)
            fromBrowser = browser != nil
            guard identityVerifier.isEnabled(parsed.providerID) else {
                if ProviderCatalogue.isKnown(parsed.providerID) { throw HearthError(.operationNotAllowed) }
                throw HearthError(.invalidCredentialOrProviderID, detail: "Invalid IdP response/credential: \(requestURI)")
            }
            RequestRecord.noteSignInAttempt(provider: parsed.providerID.lowercased(), signUp: false)
            if fromBrowser, let verified = Self.samlProfile(of: parsed) {
                // Verified by the browser sign-in (the response, its request and its one use), never an app's field.
                profile = try verified.storable()
            } else {
                profile = try await identityVerifier.verify(parsed).storable()
            }
            credential = parsed
        }

        var response = SignInWithIdpResponse()
        Self.describe(profile, into: &response)
        // The app's own tokens are echoed; the provider's tokens from a browser sign-in only when asked for.
        if input.returnIdpCredential == true || (credential != nil && !fromBrowser) {
            response.oauthIdToken = credential?.idToken
            response.oauthAccessToken = credential?.accessToken
            response.oauthTokenSecret = credential?.tokenSecret
        }

        do {
            let outcome = try await signIn(
                profile, linkTo: input.idToken, autoCreate: input.autoCreate ?? true, from: audit.clientOrigin(request, context: context),
                providerTokens: credential.map { ProviderTokens(idToken: $0.idToken, accessToken: $0.accessToken) })
            try await describe(outcome, of: profile, into: &response)
        } catch let error as HearthError
            where [.federatedUserIDAlreadyLinked, .emailExists].contains(error.code) && input.returnIdpCredential == true
        {
            // In-band, with a credential the client can sign in with without asking the provider again.
            response.errorMessage = error.wire.message
            response.pendingToken = try await tokens.mintPendingToken(for: profile)
            return WireCoding.response(response)
        }
        return WireCoding.response(response)
    }

    /// The account part of the answer: the user signed in with its tokens, or the account to confirm.
    private func describe(_ outcome: FederatedSignIn.Outcome, of profile: FederatedProfile, into response: inout SignInWithIdpResponse) async throws {
        switch outcome {
        case .needsConfirmation(let owner):
            response.needConfirmation = true
            response.localId = owner.uid
            response.email = profile.email
            // The providers the person can prove the account is theirs with; not password or phone.
            let verified = owner.providers.map(\.providerID)
            response.verifiedProvider = verified.isEmpty ? nil : verified
            response.pendingToken = try await tokens.mintPendingToken(for: profile)
        case .signedIn(let signedIn):
            let user = signedIn.user
            response.localId = user.uid
            response.email = user.email ?? profile.email
            response.emailVerified = user.email == nil ? profile.emailVerified : user.emailVerified
            response.displayName = user.displayName ?? profile.displayName
            response.isNewUser = signedIn.isNewUser ? true : nil
            response.idToken = signedIn.idToken
            response.refreshToken = signedIn.refreshToken
            response.expiresIn = String(signedIn.expiresIn)
        }
    }

    /// The identity part of the answer: the provider's profile.
    private static func describe(_ profile: FederatedProfile, into response: inout SignInWithIdpResponse) {
        response.providerId = profile.providerID
        response.federatedId = ProviderDescription.federatedID(providerID: profile.providerID, rawID: profile.rawID)
        response.email = profile.email
        response.emailVerified = profile.email == nil ? nil : profile.emailVerified
        response.displayName = profile.displayName
        response.fullName = profile.displayName
        response.firstName = profile.firstName
        response.lastName = profile.lastName
        response.photoUrl = profile.photoURL
        response.screenName = profile.screenName
        response.rawUserInfo = JSONValue.object(profile.rawUserInfo).jsonText
    }

    /// The profile a SAML browser sign-in verified (``AuthorizationFlows/samlProfileField``), for a `saml.` credential
    /// from the server's own records only.
    static func samlProfile(of credential: FederatedCredential) -> FederatedProfile? {
        guard credential.providerID.hasPrefix("saml."), let json = credential.providerFields[AuthorizationFlows.samlProfileField],
            let profile = try? JSONDecoder().decode(FederatedProfile.self, from: Data(json.utf8)), profile.providerID == credential.providerID
        else { return nil }
        return profile
    }

    /// The `providerId` field of a `postBody`, if any.
    static func postBodyProviderID(_ postBody: String?) -> String? {
        FormEncoding.lenientPairs(postBody ?? "").first { $0.name == "providerId" && !$0.value.isEmpty }?.value
    }

    /// Reads `postBody` (and the request URI's query, which it overrides) into a credential.
    static func credential(postBody: String, requestURI: URL) throws -> FederatedCredential {
        var fields: [String: String] = [:]
        for source in [requestURI.query ?? "", postBody] {
            for (name, value) in FormEncoding.lenientPairs(source) { fields[name] = value }
        }
        guard let providerID = fields["providerId"]?.lowercased(), !providerID.isEmpty else {
            throw HearthError(.invalidCredentialOrProviderID, detail: "Invalid IdP response/credential: \(requestURI.absoluteString)")
        }
        let credential = FederatedCredential(
            providerID: providerID,
            idToken: fields["id_token"].flatMap { $0.isEmpty ? nil : $0 },
            accessToken: fields["access_token"].flatMap { $0.isEmpty ? nil : $0 },
            tokenSecret: fields["oauth_token_secret"].flatMap { $0.isEmpty ? nil : $0 },
            rawNonce: fields["nonce"].flatMap { $0.isEmpty ? nil : $0 },
            providerFields: FederatedCredential.providerFields(of: fields))
        guard credential.idToken != nil || credential.accessToken != nil else {
            throw HearthError(.invalidIDPResponse, detail: "The credential has neither id_token nor access_token.")
        }
        return credential
    }
}
