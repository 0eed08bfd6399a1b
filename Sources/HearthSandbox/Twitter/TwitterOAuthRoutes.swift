import Foundation
import HTTPTypes
import HearthFormEncoding
import Hummingbird
import Logging

/// Twitter's three-legged OAuth 1.0a at `api.twitter.com` (providers.md §4.1):
///
/// 1. `POST /oauth/request_token`, signed with the consumer secret alone, with `oauth_callback` → a request
///    token and secret (`oauth_callback_confirmed=true`).
/// 2. `GET /oauth/authenticate?oauth_token=…` (also `/oauth/authorize`): the consent page; approving sends the
///    browser to the callback with `oauth_token` and `oauth_verifier`, cancelling with `denied=<token>`.
/// 3. `POST /oauth/access_token`, signed with the consumer secret and the request token's secret, with
///    `oauth_verifier` → `oauth_token`, `oauth_token_secret`, `user_id`, `screen_name`.
///
/// Every signature is checked exactly (HMAC-SHA1 over the URL the client called), as are timestamps and nonces;
/// the `oauth_*` parameters, `oauth_callback` and `oauth_verifier` included, must all come one way
/// (``OAuth1Request``).
struct TwitterOAuthRoutes: Sendable {
    let sandbox: Sandbox

    /// How long a request token can be used.
    static let requestTokenLifetime: TimeInterval = 900

    func add<Context: RequestContext>(to router: RouterGroup<Context>) {
        router.post("oauth/request_token") { request, _ in await self.requestToken(request) }
        for path in ["oauth/authenticate", "oauth/authorize"] {
            router.on(RouterPath(path), method: .get) { request, _ in await self.authenticate(request) }
            router.on(RouterPath(path), method: .post) { request, _ in await self.authenticate(request) }
        }
        router.post("oauth/access_token") { request, _ in await self.accessToken(request) }
    }

    func requestToken(_ request: Request) async -> Response {
        let checked = await verify(request) { consumerKey, token in
            token == nil ? sandbox.twitterConsumerSecret(consumerKey).map { ($0, "") } : nil
        }
        switch checked {
        case .failure(let failure): return reject(failure)
        case .success(let oauth):
            guard
                let callback = oauth["oauth_callback"], callback == "oob" || URL(string: callback)?.scheme != nil
            else {
                return reject(
                    .init(
                        code: 417, message: "Desktop applications only support the oauth_callback value 'oob'", status: .unauthorized,
                        reason: "no oauth_callback"))
            }
            let token = SandboxRandom.alphanumeric(27)
            let secret = SandboxRandom.alphanumeric(32)
            let now = sandbox.now
            let consumerKey = oauth["oauth_consumer_key"] ?? ""
            sandbox.withState {
                $0.twitterRequestTokens[token] = TwitterRequestToken(consumerKey: consumerKey, secret: secret, callback: callback, issuedAt: now)
            }
            return form([("oauth_token", token), ("oauth_token_secret", secret), ("oauth_callback_confirmed", "true")])
        }
    }

    func authenticate(_ request: Request) async -> Response {
        var parameters = SandboxHTTP.query(request)
        if request.method == .post, SandboxHTTP.isForm(request), let body = await SandboxHTTP.bodyText(request) {
            parameters.merge(FormEncoding.dictionary(body)) { _, posted in posted }
        }
        sandbox.withState { $0.lastAuthorizationParameters[.twitter] = parameters.filter { !$0.key.hasPrefix("sandbox_") } }
        let now = sandbox.now
        guard let token = parameters["oauth_token"],
            let pending = sandbox.withState({ $0.twitterRequestTokens[token] }),
            now.timeIntervalSince(pending.issuedAt) <= Self.requestTokenLifetime, pending.verifier == nil
        else {
            return ConsentPage.refusal(
                "Twitter", title: "Whoa there!",
                detail: "The request token for this page is invalid. It may have already been used, or expired because it is too old.")
        }
        let identities = sandbox.identities(for: .twitter)
        switch parameters["sandbox_decision"] {
        case "cancel":
            return redirect(pending.callback, [("denied", token)])
        case "approve":
            guard let subject = parameters["sandbox_subject"], let identity = identities.first(where: { $0.subject == subject }) else {
                return ConsentPage.refusal("Twitter", title: "Unknown account", detail: "Choose one of the accounts offered on the sign-in page.")
            }
            let verifier = SandboxRandom.alphanumeric(32)
            sandbox.withState { state in
                state.twitterRequestTokens[token]?.identity = identity
                state.twitterRequestTokens[token]?.verifier = verifier
            }
            return redirect(pending.callback, [("oauth_token", token), ("oauth_verifier", verifier)])
        default:
            let passed = parameters.filter { !ConsentPage.protocolParameters.contains($0.key) }.sorted { $0.key < $1.key }.map { ($0.key, $0.value) }
            let hint = parameters["screen_name"]?.lowercased()
            return ConsentPage(
                providerName: "Twitter", accent: "#1d9bf0", clientID: pending.consumerKey, redirectURI: pending.callback,
                scopes: ["read your profile"], passedParameters: passed, identities: identities,
                preselected: hint.flatMap { hint in identities.first { $0.screenName?.lowercased() == hint }?.subject },
                hiddenFields: [("oauth_token", token)] + passed, note: nil
            ).response
        }
    }

    func accessToken(_ request: Request) async -> Response {
        let checked = await verify(request) { consumerKey, token in
            guard let token, let pending = sandbox.withState({ $0.twitterRequestTokens[token] }), pending.consumerKey == consumerKey,
                let consumerSecret = sandbox.twitterConsumerSecret(consumerKey)
            else { return nil }
            return (consumerSecret, pending.secret)
        }
        switch checked {
        case .failure(let failure): return reject(failure)
        case .success(let oauth):
            let token = oauth["oauth_token"] ?? ""
            let verifier = oauth["oauth_verifier"]
            let now = sandbox.now
            let pending: TwitterRequestToken? = sandbox.withState { state in
                guard let pending = state.twitterRequestTokens[token], pending.verifier != nil, pending.verifier == verifier,
                    now.timeIntervalSince(pending.issuedAt) <= Self.requestTokenLifetime
                else { return nil }
                state.twitterRequestTokens[token] = nil
                return pending
            }
            guard let pending, let identity = pending.identity else {
                return reject(
                    .init(code: 89, message: "Invalid or expired token.", status: .unauthorized, reason: "bad oauth_verifier or request token"))
            }
            do {
                let issued = try sandbox.twitterAccessToken(for: identity, consumerKey: pending.consumerKey)
                return form([
                    ("oauth_token", issued.token), ("oauth_token_secret", issued.secret), ("user_id", identity.subject),
                    ("screen_name", identity.screenName ?? "user\(identity.subject)"),
                ])
            } catch {
                return reject(.init(code: 131, message: "Internal error", status: .internalServerError, reason: "\(error)"))
            }
        }
    }

    // MARK: Signature

    /// Checks the `oauth_*` parameters: well-formed, none repeated and all sent one way (``OAuth1Request``),
    /// HMAC-SHA1, a timestamp within the window, the signature over the URL called and every query, form and
    /// protocol parameter, and a fresh nonce. `secrets` gives the consumer secret and token secret for a consumer
    /// key and `oauth_token` (`nil`: unknown).
    private func verify(
        _ request: Request, secrets: (String, String?) -> (consumer: String, token: String)?
    ) async -> Result<OAuth1Request, TwitterRoutes.Failure> {
        let oauth: OAuth1Request
        switch OAuth1Request.parse(request, form: await OAuth1Request.form(request)) {
        case .failure(let failure): return .failure(failure)
        case .success(let parsed): oauth = parsed
        }
        guard let consumerKey = oauth["oauth_consumer_key"], let nonce = oauth["oauth_nonce"], !nonce.isEmpty,
            let signature = oauth["oauth_signature"], oauth["oauth_signature_method"] == "HMAC-SHA1",
            let timestampText = oauth["oauth_timestamp"]
        else { return .failure(.badAuthenticationData("a required oauth_* parameter is missing")) }
        guard let (consumerSecret, tokenSecret) = secrets(consumerKey, oauth["oauth_token"]) else {
            return .failure(.couldNotAuthenticate("unknown consumer key or token"))
        }
        let now = sandbox.now.timeIntervalSince1970
        let window = sandbox.settings.twitterTimestampWindow
        guard let timestamp = Int(timestampText), abs(Double(timestamp) - now) <= window else {
            return .failure(.init(code: 135, message: "Timestamp out of bounds.", status: .unauthorized, reason: "stale oauth_timestamp"))
        }
        let baseString = OAuth1Signature.baseString(
            method: request.method.rawValue, baseURI: TwitterRoutes(sandbox: sandbox).baseURI(request), parameters: oauth.signedParameters)
        let expected = OAuth1Signature.signature(baseString: baseString, consumerSecret: consumerSecret, tokenSecret: tokenSecret)
        guard signature == expected else {
            sandbox.logger.debug("twitter expected signature base string", metadata: ["base": "\(baseString)"])
            return .failure(.couldNotAuthenticate("signature mismatch"))
        }
        let nonceKey = "\(consumerKey)&\(oauth["oauth_token"] ?? "")&\(nonce)"
        let fresh = sandbox.withState { state -> Bool in
            guard state.twitterNonces[nonceKey] == nil else { return false }
            state.twitterNonces[nonceKey] = timestamp
            return true
        }
        guard fresh else { return .failure(.couldNotAuthenticate("oauth_nonce reused")) }
        return .success(oauth)
    }

    // MARK: Helpers

    private func form(_ pairs: [(String, String)]) -> Response {
        SandboxHTTP.text(FormEncoding.encode(pairs), status: .ok, contentType: "text/html; charset=utf-8")
    }

    private func redirect(_ callback: String, _ pairs: [(String, String)]) -> Response {
        let separator = callback.contains("?") ? "&" : "?"
        return Response(status: .seeOther, headers: [.location: callback + separator + FormEncoding.encode(pairs)])
    }

    private func reject(_ failure: TwitterRoutes.Failure) -> Response {
        sandbox.logger.info("twitter rejected a request", metadata: ["code": "\(failure.code)", "reason": "\(failure.reason)"])
        return TwitterRoutes.error(failure)
    }
}
