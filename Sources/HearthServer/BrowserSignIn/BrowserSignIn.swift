import AsyncHTTPClient
import Foundation
import HTTPTypes
import HearthConfiguration
import HearthCore
import HearthFormEncoding
import HearthProviders
import HearthWire
import HearthWireMapping
import Hummingbird
import Logging

/// The server side of browser sign-in (docs/browser-sign-in.md): `createAuthUri` with a `providerId`
/// starts it, the redirect handler at `/__/auth/handler` finishes the protocol with the provider, and
/// `signInWithIdp` with the `requestUri` and `sessionId` turns the result into a signed-in user.
///
/// Every step between two requests is a row in the database (``AuthSessionStore``), consumed exactly once,
/// so any replica can answer any step. The state and the result code are random 256-bit keys, bound to the
/// client's `sessionId`, and live ``ProvidersConfiguration/BrowserSignIn/sessionLifetime`` seconds.
struct BrowserSignIn: Sendable {
    let services: HearthServices

    /// The query parameter of the `requestUri` the app receives that names the finished sign-in.
    static let resultParameter = "authResult"

    /// The configured settings; development mode accepts any custom-scheme return URL.
    private var settings: ProvidersConfiguration.BrowserSignIn {
        var settings = services.configuration.providers.browserSignIn
        if services.configuration.mode == .development { settings.acceptsAnyCustomScheme = true }
        return settings
    }

    /// The providers in effect: the configuration's (with the sandbox's in development, at its final URL),
    /// with the settings stored through the admin API laid over them.
    var providers: ProvidersConfiguration { services.providersInEffect }

    /// The flows over ``providers``.
    func flows(_ providers: ProvidersConfiguration) -> AuthorizationFlows {
        var flows = AuthorizationFlows(
            configuration: providers, httpClient: services.httpClient, clock: services.clock, logger: services.logger,
            telemetry: services.metrics.telemetry, discovery: services.providerDiscovery)
        // SAML assertions are used once, on every replica: the database's shared counters remember them.
        flows.replayGuard = services.database
        return flows
    }

    // MARK: createAuthUri

    /// `accounts:createAuthUri` with a `providerId`: stores the pending sign-in and returns the provider's page.
    ///
    /// Errors: `MISSING_CONTINUE_URI`, `INVALID_CONTINUE_URI`, `UNAUTHORIZED_DOMAIN` (a return URL that is
    /// neither loopback nor registered), `INVALID_PROVIDER_ID` (unknown provider, or a Microsoft tenant the
    /// tenant rule refuses), `OPERATION_NOT_ALLOWED` (the provider is off or lacks its client secret).
    /// - Parameter authority: the `Host` the client reached the server at.
    func createAuthUri(_ input: CreateAuthUriRequest, authority: String?) async throws -> CreateAuthUriResponse {
        guard let providerID = input.providerId.map(BrowserCallback.canonicalProviderID), !providerID.isEmpty else {
            throw HearthError(.invalidProviderID, detail: "Provider Id is not supported.")
        }
        guard let continueUri = input.continueUri, !continueUri.isEmpty else { throw HearthError(.missingContinueURI) }
        guard let continueURL = ReturnURL(continueUri), let continueAsURL = URL(string: continueUri) else {
            throw HearthError(.invalidContinueURI)
        }
        // The app's own redirect URI: the provider sends the browser there, and the app calls signInWithIdp.
        let callbackMode = settings.isCallbackURL(continueUri)
        guard callbackMode || settings.acceptsReturnURL(continueUri) else {
            throw HearthError(
                .unauthorizedDomain, detail: WireErrorMessage.domainNotAuthorized,
                reason: "return URL scheme \(continueURL.scheme) host \(continueURL.host ?? "") is not registered")
        }
        try await services.identityVerifier.refresh()
        let authorization = flows(providers)
        guard authorization.supports(providerID) else {
            if ProviderCatalogue.isKnown(providerID) {
                throw HearthError(.operationNotAllowed, reason: "\(providerID) is off or has no client secret for the browser flow")
            }
            throw HearthError(.invalidProviderID, detail: "Provider Id is not supported.")
        }
        let sessionID = input.sessionId.flatMap { $0.isEmpty ? nil : $0 } ?? AuthSessionRecord.makeID()
        guard AuthSessionRecord.isValidSessionID(sessionID) else {
            throw HearthError(.invalidArgument, detail: "/sessionId must be 1 to 512 printable ASCII characters")
        }
        // A tenant's sign-in names the tenant after the random part: the provider's answer reaches the handler with
        // nothing else to tell where to look (``BrowserCallback/tenantID(ofState:)``).
        let state = AuthSessionRecord.makeID() + (services.tenantID.map { ".\($0)" } ?? "")
        let scopes = (input.oauthScope ?? "").split(whereSeparator: { $0 == " " || $0 == "," }).map(String.init)
        // Kept with the pending sign-in, so the code exchange repeats it exactly.
        let redirectURI = callbackMode ? continueAsURL : services.browserSignInHandlerURL(authority: authority)
        let start = try await authorization.start(
            AuthorizationRequest(
                providerID: providerID, redirectURI: redirectURI, state: state, scopes: scopes,
                customParameters: input.customParameter ?? [:], twitterCallbackCarriesState: !callbackMode))
        var values = start.pendingValues
        values["redirect_uri"] = redirectURI.absoluteString
        // Twitter sends no state back: in callback mode its request token names the sign-in.
        let id = callbackMode ? start.pendingValues["request_token"].map(AuthSessionRecord.id(forRequestToken:)) ?? state : state
        let now = services.clock.now
        try await services.store.insertAuthSession(
            AuthSessionRecord(
                id: id, kind: callbackMode ? .callback : .pending, sessionID: sessionID, providerID: providerID,
                continueURI: continueUri, createdAt: now, expiresAt: now.addingTimeInterval(settings.sessionLifetime), values: values))
        services.logger.debug(
            "browser sign-in started", metadata: ["provider": "\(providerID)", "mode": "\(callbackMode ? "callback" : "handler")"])
        var response = CreateAuthUriResponse(registered: nil, allProviders: nil, signinMethods: nil, sessionId: sessionID)
        response.authUri = start.url.absoluteString
        response.providerId = providerID
        return response
    }

    // MARK: Redirect handler

    /// What the handler does with the provider's answer.
    enum HandlerOutcome {
        /// Send the browser to the app's return URL.
        case redirect(URL)
        /// Show a page: the answer cannot be trusted or traced to a sign-in, so there is nowhere safe to go.
        case page(BrowserSignInPage)
    }

    /// The provider's answer (`parameters`: query and form fields) → the app's return URL with `link`
    /// (success) or `firebaseError` (the person cancelled, or the provider refused), or a page when the
    /// state is missing, unknown, already used or expired. Nothing is created here; accounts change only in
    /// `signInWithIdp`.
    func handle(_ parameters: [String: String]) async throws -> HandlerOutcome {
        guard let state = parameters["state"], !state.isEmpty else {
            return .page(.missingState)
        }
        guard AuthSessionRecord.isWellFormedID(String(state.prefix(43))), BrowserCallback.tenantID(ofState: state) == services.tenantID else {
            services.logger.notice("browser sign-in refused: malformed state")
            return .page(.unknownState)
        }
        guard let pending = try await services.store.consumeAuthSession(id: state, kind: .pending) else {
            services.logger.notice("browser sign-in refused: unknown or used state")
            return .page(.unknownState)
        }
        let now = services.clock.now
        guard pending.expiresAt > now else {
            services.logger.notice("browser sign-in refused: expired state", metadata: ["provider": "\(pending.providerID)"])
            return .page(.expiredState)
        }
        guard let returnURL = URL(string: pending.continueURI), let handlerURL = pending.values["redirect_uri"].flatMap(URL.init(string:)) else {
            return .page(.unknownState)
        }

        let credential: FederatedCredential
        do {
            try await services.identityVerifier.refresh()
            credential = try await flows(providers).finish(
                providerID: pending.providerID, callback: parameters, pending: pending.values, redirectURI: handlerURL)
        } catch let failure as AuthorizationFailure {
            services.logger.notice(
                "browser sign-in failed at the provider", metadata: ["provider": "\(pending.providerID)", "failure": "\(failure.firebaseCode)"])
            return .redirect(returnURL.appendingQuery([("firebaseError", failure.firebaseErrorJSON)]) ?? returnURL)
        }

        var values: [String: String] = [:]
        values["id_token"] = credential.idToken
        values["access_token"] = credential.accessToken
        values["oauth_token_secret"] = credential.tokenSecret
        values["nonce"] = credential.rawNonce
        values.merge(credential.providerFields) { common, _ in common }
        let resultID = AuthSessionRecord.makeID()
        try await services.store.insertAuthSession(
            AuthSessionRecord(
                id: resultID, kind: .completed, sessionID: pending.sessionID, providerID: pending.providerID,
                continueURI: pending.continueURI, createdAt: now, expiresAt: now.addingTimeInterval(settings.sessionLifetime),
                values: values))
        services.logger.debug("browser sign-in answered by the provider", metadata: ["provider": "\(pending.providerID)"])
        let link = handlerURL.appendingQuery([(Self.resultParameter, resultID)]) ?? handlerURL
        return .redirect(returnURL.appendingQuery([("link", link.absoluteString)]) ?? returnURL)
    }

    // MARK: signInWithIdp

    /// The credential of a finished browser sign-in named by `requestURI` (its `authResult`), for the
    /// `sessionId` that started it; `nil` when the request URI names none (a credential the app sends itself).
    ///
    /// The result is consumed whatever happens next: a second `signInWithIdp` with it fails.
    func completedCredential(requestURI: URL, sessionID: String?, postBodyProviderID: String?) async throws -> FederatedCredential? {
        guard
            let resultID = URLComponents(url: requestURI, resolvingAgainstBaseURL: false)?
                .queryItems?.first(where: { $0.name == Self.resultParameter })?.value, !resultID.isEmpty
        else { return nil }
        let completed = try await consume(
            resultID, kinds: [.completed], sessionID: sessionID, unknown: "The browser sign-in result is unknown or was already used.",
            expired: "The browser sign-in result has expired; sign in again.")
        if let claimed = postBodyProviderID.map(BrowserCallback.canonicalProviderID), !claimed.isEmpty, claimed != completed.providerID {
            throw HearthError(.invalidCredentialOrProviderID, detail: "Invalid IdP response/credential: providerId=\(claimed)")
        }
        let values = completed.values
        return FederatedCredential(
            providerID: completed.providerID, idToken: values["id_token"], accessToken: values["access_token"],
            tokenSecret: values["oauth_token_secret"], rawNonce: values["nonce"], providerFields: FederatedCredential.providerFields(of: values))
    }

    // MARK: signInWithIdp with the provider's callback

    /// The credential of a sign-in in Firebase's callback mode, from the provider's answer as the app received it
    /// at its own redirect URI: `requestURI` is that URL with the provider's query (`code` and `state`, or
    /// `error`; Twitter's `oauth_token` and `oauth_verifier`, or `denied`), `postBody` Apple's posted form.
    /// `nil` when neither carries a callback (a credential the app sends itself).
    ///
    /// Consumes the sign-in `createAuthUri` started whatever happens next, checks it belongs to `sessionID` and
    /// to this redirect URI, and finishes the protocol with the provider (the code exchange with the kept PKCE
    /// verifier and the client secret; Twitter's access-token call).
    ///
    /// Errors: `INVALID_IDP_RESPONSE : …` (no sessionId, an unknown, used or expired state, another session's
    /// state, another redirect URI, a code the provider refuses), `USER_CANCELLED` (the person declined),
    /// `INVALID_CREDENTIAL_OR_PROVIDER_ID` (postBody names another provider).
    func callbackCredential(requestURI: String, postBody: String?, sessionID: String?) async throws -> FederatedCredential? {
        let fields = BrowserCallback.fields(requestURI: requestURI, postBody: postBody)
        guard let key = BrowserCallback.key(fields) else { return nil }
        // A SAML response posted on by whoever received it (Firebase's handler page does so): the sign-in
        // createAuthUri started for the redirect handler, or for the app's own callback URL.
        let isSAML = fields["SAMLResponse"] != nil
        let started = try await consume(
            key, kinds: isSAML ? [.pending, .callback] : [.callback], sessionID: sessionID,
            unknown: "The browser sign-in state is unknown or was already used.", expired: "The browser sign-in has expired; sign in again.")
        if isSAML, !started.providerID.hasPrefix("saml.") {
            throw HearthError(
                .invalidIDPResponse, detail: "The browser sign-in was not started for SAML.", reason: "SAMLResponse for \(started.providerID)")
        }
        // The request URI is the app's return URL, or (SAML) the Assertion Consumer Service URL the IdP posted to.
        let accepted = [started.continueURI] + (isSAML ? [started.values["saml_acs"], started.values["redirect_uri"]].compactMap { $0 } : [])
        guard let requested = ReturnURL(requestURI), accepted.contains(where: { ReturnURL($0) == requested }),
            let redirectURI = started.values["redirect_uri"].flatMap(URL.init(string:))
        else {
            throw HearthError(
                .invalidIDPResponse, detail: "The requestUri is not the continueUri of createAuthUri.", reason: "requestUri mismatch")
        }
        if let claimed = fields["providerId"].map(BrowserCallback.canonicalProviderID), !claimed.isEmpty, claimed != started.providerID {
            throw HearthError(.invalidCredentialOrProviderID, detail: "Invalid IdP response/credential: providerId=\(claimed)")
        }
        do {
            return try await flows(providers).finish(
                providerID: started.providerID, callback: fields, pending: started.values, redirectURI: redirectURI)
        } catch let failure as AuthorizationFailure {
            services.logger.notice(
                "browser sign-in failed at the provider", metadata: ["provider": "\(started.providerID)", "failure": "\(failure.firebaseCode)"])
            if failure == .cancelled { throw HearthError(.userCancelled) }
            throw HearthError(.invalidIDPResponse, detail: failure.message)
        }
    }

    /// Consumes the row `id` of `kind` for `signInWithIdp`: it must exist (`unknown` otherwise), be young
    /// (`expired`) and belong to `sessionID`. Used up whichever check fails after it was found.
    private func consume(_ id: String, kinds: [AuthSessionRecord.Kind], sessionID: String?, unknown: String, expired: String) async throws
        -> AuthSessionRecord
    {
        guard let sessionID, !sessionID.isEmpty else {
            throw HearthError(.invalidIDPResponse, detail: "The browser sign-in needs the sessionId of createAuthUri.")
        }
        var found: AuthSessionRecord?
        // A state names its tenant after the random part (a tenant's store would not find it anyway).
        let suffix = BrowserCallback.tenantID(ofState: id)
        if AuthSessionRecord.isWellFormedID(String(id.prefix(43))), id.utf8.count == 43 || (suffix != nil && suffix == services.tenantID) {
            for kind in kinds where found == nil { found = try await services.store.consumeAuthSession(id: id, kind: kind) }
        }
        guard let record = found else { throw HearthError(.invalidIDPResponse, detail: unknown) }
        guard record.expiresAt > services.clock.now else { throw HearthError(.invalidIDPResponse, detail: expired) }
        guard record.sessionID == sessionID else {
            throw HearthError(.invalidIDPResponse, detail: "The browser sign-in belongs to another session.", reason: "sessionId mismatch")
        }
        return record
    }

    // MARK: Helpers

    /// The authority (`host[:port]`) the client addressed, from the request target or the `Host` header.
    static func authority(of request: Request) -> String? {
        if let authority = request.head.authority, !authority.isEmpty { return authority }
        return HTTPField.Name("Host").flatMap { request.headers[$0] }
    }
}
