import Foundation
import HearthCore
import HearthProviders
import HearthTokens
import HearthWire
import Hummingbird

/// `accounts:signInWithIdp` (legacy `verifyAssertion`): sign in, sign up, link or re-authenticate with an
/// identity provider's credential, under the one-account-per-e-mail rules.
struct FederatedController<Context: RequestContext>: Sendable {
    let services: HearthServices

    private var configuration: ServerConfiguration { services.configuration }
    private var store: any HearthStore { services.store }

    @Sendable func signInWithIdp(_ request: Request, context: Context) async throws -> Response {
        let input = try await WireCoding.decode(SignInWithIdpRequest.self, from: request, limit: configuration.maxBodyBytes)
        guard let requestURI = input.requestUri else { throw HearthError(.missingRequestURI) }
        guard let url = URL(string: requestURI), url.scheme != nil else { throw HearthError(.invalidRequestURI) }
        try await services.identityVerifier.refresh()

        // The identity: from a pending credential Hearth issued, or verified now from the provider's credential.
        let profile: FederatedProfile
        var credential: FederatedCredential?
        var fromBrowser = false
        if let pendingToken = input.pendingToken, input.postBody == nil {
            profile = try await services.tokens.verifyPendingToken(pendingToken).storable()
            guard services.identityVerifier.isEnabled(profile.providerID) else { throw HearthError(.operationNotAllowed) }
        } else {
            // A browser sign-in (requestUri from the redirect handler, with the sessionId of createAuthUri), else
            // the credential the app sends itself.
            let browser = try await BrowserSignIn(services: services).completedCredential(
                requestURI: url, sessionID: input.sessionId, postBodyProviderID: Self.postBodyProviderID(input.postBody))
            let parsed = try browser ?? Self.credential(postBody: input.postBody ?? "", requestURI: url)
            fromBrowser = browser != nil
            guard services.identityVerifier.isEnabled(parsed.providerID) else {
                if ProviderCatalogue.isKnown(parsed.providerID) { throw HearthError(.operationNotAllowed) }
                throw HearthError(.invalidCredentialOrProviderID, detail: "Invalid IdP response/credential: \(requestURI)")
            }
            profile = try await services.identityVerifier.verify(parsed).storable()
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
            let address = AbuseGuard(services: services).clientAddress(request, context: context)
            let outcome = try await decide(profile: profile, linkTo: input.idToken, autoCreate: input.autoCreate ?? true, address: address)
            switch outcome {
            case .needsConfirmation(let owner):
                response.needConfirmation = true
                response.localId = owner.uid
                response.email = profile.email
                // The providers the person can prove the account is theirs with; not password or phone.
                let verified = owner.providers.map(\.providerID)
                response.verifiedProvider = verified.isEmpty ? nil : verified
                response.pendingToken = try await services.tokens.mintPendingToken(for: profile)
            case .signedIn(let user, let isNewUser, let refreshToken):
                let now = services.clock.now
                response.localId = user.uid
                response.email = user.email ?? profile.email
                response.emailVerified = user.email == nil ? profile.emailVerified : user.emailVerified
                response.displayName = user.displayName ?? profile.displayName
                response.isNewUser = isNewUser ? true : nil
                response.idToken = try await services.tokens.mintIDToken(for: user, signInProvider: profile.providerID, authTime: now)
                response.refreshToken = refreshToken
                response.expiresIn = String(Int(configuration.idTokenLifetime))
            }
        } catch let error as HearthError where [.federatedUserIDAlreadyLinked, .emailExists].contains(error.code) && input.returnIdpCredential == true {
            // In-band, with a credential the client can sign in with without asking the provider again.
            response.errorMessage = error.wire.message
            response.pendingToken = try await services.tokens.mintPendingToken(for: profile)
            return WireCoding.response(response)
        }
        return WireCoding.response(response)
    }

    enum Outcome {
        case signedIn(UserRecord, isNewUser: Bool, refreshToken: String)
        case needsConfirmation(owner: UserRecord)
    }

    /// The account rules: link to the signed-in user, sign in the identity's user, take over a verified
    /// e-mail's account, ask for confirmation, or create a user.
    /// - Parameter address: the client's address, counted against the new-accounts limit when a user is created.
    func decide(profile: FederatedProfile, linkTo idToken: String?, autoCreate: Bool, address: String) async throws -> Outcome {
        let now = services.clock.now
        // The session of the sign-in is written in the same transaction as the user.
        func session(for uid: String) -> (token: String, record: RefreshSessionRecord) {
            RefreshSessionRecord.issue(uid: uid, signInProvider: profile.providerID, authTime: now, now: now)
        }
        let oneAccountPerEmail = configuration.signIn.oneAccountPerEmail
        let owner = try await store.user(providerID: profile.providerID, rawID: profile.rawID)

        if let idToken {
            let (_, current) = try await services.authenticate(idToken)
            if let owner, owner.uid != current.uid { throw HearthError(.federatedUserIDAlreadyLinked) }
            if oneAccountPerEmail, let email = profile.email, let emailOwner = try await store.user(email: email), emailOwner.uid != current.uid {
                throw HearthError(.emailExists)
            }
            let session = session(for: current.uid)
            let user = try await updateUser(current.uid, session: session.record) { user in
                user.providers.removeAll { $0.providerID == profile.providerID }
                user.providers.append(Self.link(profile, keepingNameOf: user.providers.first { $0.providerID == profile.providerID }))
                if oneAccountPerEmail, user.email == nil, let email = profile.email {
                    user.email = email
                    user.emailVerified = profile.emailVerified
                } else if user.email == profile.email, profile.emailVerified {
                    user.emailVerified = true
                }
                if user.displayName == nil { user.displayName = profile.displayName }
                if user.photoURL == nil { user.photoURL = profile.photoURL }
                user.scheduledDeletionAt = nil
                user.lastLoginAt = now
            }
            return .signedIn(user, isNewUser: false, refreshToken: session.token)
        }

        if let owner {
            if owner.disabled { throw HearthError(.userDisabled) }
            let session = session(for: owner.uid)
            let user = try await updateUser(owner.uid, session: session.record) { user in
                if let index = user.providers.firstIndex(where: { $0.providerID == profile.providerID && $0.rawID == profile.rawID }) {
                    user.providers[index] = Self.link(profile, keepingNameOf: user.providers[index])
                }
                user.lastLoginAt = now
            }
            return .signedIn(user, isNewUser: false, refreshToken: session.token)
        }

        if oneAccountPerEmail, let email = profile.email, let emailOwner = try await store.user(email: email) {
            guard profile.emailVerified else { return .needsConfirmation(owner: emailOwner) }
            if emailOwner.disabled { throw HearthError(.userDisabled) }
            // The provider vouches for the address: the account is this person's. If the account's own
            // claim to the address was never verified, everything it signs in with could belong to someone
            // who registered the address first: its password, its phone and every provider it linked go,
            // its sessions end (validSince), and its profile becomes the provider's (Firebase's
            // anti-takeover rule).
            let session = session(for: emailOwner.uid)
            let user = try await updateUser(emailOwner.uid, session: session.record) { user in
                if !user.emailVerified {
                    user.passwordHash = nil
                    user.passwordUpdatedAt = nil
                    user.phoneNumber = nil
                    user.providers.removeAll()
                    user.displayName = profile.displayName
                    user.photoURL = profile.photoURL
                    user.validSince = now
                }
                user.emailVerified = true
                user.providers.removeAll { $0.providerID == profile.providerID }
                user.providers.append(profile.link)
                user.lastLoginAt = now
            }
            return .signedIn(user, isNewUser: false, refreshToken: session.token)
        }

        guard autoCreate else { throw HearthError(.userNotFound) }
        try await AbuseGuard(services: services).count(\.newAccounts, address: address)
        let user = UserRecord(
            uid: UserRecord.makeUID(),
            email: oneAccountPerEmail ? profile.email : nil,
            emailVerified: oneAccountPerEmail && profile.email != nil ? profile.emailVerified : false,
            displayName: profile.displayName, photoURL: profile.photoURL,
            createdAt: now, lastLoginAt: now, validSince: now, providers: [profile.link])
        let created = session(for: user.uid)
        do {
            try await store.createUser(user, session: created.record)
        } catch StoreConflict.providerIdentity {
            throw HearthError(.federatedUserIDAlreadyLinked)
        } catch StoreConflict.email {
            throw HearthError(.emailExists)
        }
        return .signedIn(user, isNewUser: true, refreshToken: created.token)
    }

    /// A provider sends some profile fields only once (Apple's name): keep what was stored when the
    /// new profile lacks it.
    private static func link(_ profile: FederatedProfile, keepingNameOf previous: ProviderLink?) -> ProviderLink {
        var link = profile.link
        if link.displayName == nil { link.displayName = previous?.displayName }
        if link.email == nil { link.email = previous?.email }
        return link
    }

    private func updateUser(
        _ uid: String, session: RefreshSessionRecord, _ mutate: @escaping @Sendable (inout UserRecord) throws -> Void
    ) async throws -> UserRecord {
        do {
            return try await store.updateUser(uid: uid, session: session, mutate)
        } catch StoreConflict.email {
            throw HearthError(.emailExists)
        } catch StoreConflict.providerIdentity {
            throw HearthError(.federatedUserIDAlreadyLinked)
        }
    }

    private static func describe(_ profile: FederatedProfile, into response: inout SignInWithIdpResponse) {
        response.providerId = profile.providerID
        response.federatedId = profile.providerID == "google.com" ? "https://accounts.google.com/\(profile.rawID)" : profile.rawID
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

    /// The `providerId` field of a `postBody`, if any.
    static func postBodyProviderID(_ postBody: String?) -> String? {
        for pair in (postBody ?? "").split(separator: "&") {
            let kv = pair.split(separator: "=", maxSplits: 1).map(String.init)
            if kv.count == 2, WireCoding.decodeFormComponent(kv[0]) == "providerId" { return WireCoding.decodeFormComponent(kv[1]) }
        }
        return nil
    }

    /// Reads `postBody` (and the request URI's query, which it overrides) into a credential.
    static func credential(postBody: String, requestURI: URL) throws -> FederatedCredential {
        var fields: [String: String] = [:]
        for source in [requestURI.query ?? "", postBody] {
            for pair in source.split(separator: "&") {
                let kv = pair.split(separator: "=", maxSplits: 1).map(String.init)
                guard let key = kv.first, !key.isEmpty else { continue }
                fields[WireCoding.decodeFormComponent(key)] = kv.count > 1 ? WireCoding.decodeFormComponent(kv[1]) : ""
            }
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
            appleUser: fields["user"].flatMap { $0.isEmpty ? nil : $0 })
        guard credential.idToken != nil || credential.accessToken != nil else {
            throw HearthError(.invalidIDPResponse, detail: "The credential has neither id_token nor access_token.")
        }
        return credential
    }
}
