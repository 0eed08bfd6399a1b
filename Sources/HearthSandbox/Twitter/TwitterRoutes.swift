import Foundation
import HTTPTypes
import Hummingbird
import Logging

/// Twitter's `GET /1.1/account/verify_credentials.json` at `api.twitter.com`, which checks the OAuth 1.0a
/// `Authorization` header exactly (RFC 5849 HMAC-SHA1 with the consumer secret and the token secret the sandbox
/// issued). (`/oauth/request_token`, `/oauth/authenticate` and `/oauth/access_token` are
/// ``TwitterOAuthRoutes``.)
///
/// The signature base URI is `scheme://authority/path` where the authority is the one the client addressed (the
/// request's `Host`), the scheme that of ``Sandbox/baseURL``, and the path the request path as sent — so a client
/// must sign the URL it actually calls.
struct TwitterRoutes: Sendable {
    let sandbox: Sandbox

    func add<Context: RequestContext>(to router: RouterGroup<Context>) {
        router.get("1.1/account/verify_credentials.json") { request, _ in await self.verifyCredentials(request) }
    }

    func verifyCredentials(_ request: Request) async -> Response {
        switch await authenticate(request) {
        case .failure(let failure):
            sandbox.logger.info("twitter rejected a request", metadata: ["code": "\(failure.code)", "reason": "\(failure.reason)"])
            return Self.error(failure)
        case .success(let identity):
            let query = SandboxHTTP.query(request)
            return SandboxHTTP.json(
                Self.userObject(
                    identity, includeEmail: Self.isTrue(query["include_email"]),
                    includeEntities: query["include_entities"].map(Self.isTrue) ?? true))
        }
    }

    /// The checks, in order: the `oauth_*` parameters well-formed, none repeated and all sent one way (215), consumer
    /// known and HMAC-SHA1 (32), token known for this consumer (89), timestamp within the window (135), signature
    /// (32), nonce unused (32).
    func authenticate(_ request: Request) async -> Result<SandboxIdentity, Failure> {
        let oauth: OAuth1Request
        switch OAuth1Request.parse(request, form: await OAuth1Request.form(request)) {
        case .failure(let failure): return .failure(failure)
        case .success(let parsed): oauth = parsed
        }
        guard let consumerKey = oauth["oauth_consumer_key"], let nonce = oauth["oauth_nonce"],
            let signature = oauth["oauth_signature"], let method = oauth["oauth_signature_method"],
            let timestampText = oauth["oauth_timestamp"], let tokenValue = oauth["oauth_token"], !nonce.isEmpty
        else { return .failure(.badAuthenticationData("a required oauth_* parameter is missing")) }
        guard method == "HMAC-SHA1" else { return .failure(.couldNotAuthenticate("oauth_signature_method is \(method)")) }
        if let version = oauth["oauth_version"], version != "1.0" {
            return .failure(.couldNotAuthenticate("oauth_version is \(version)"))
        }
        guard let consumerSecret = sandbox.twitterConsumerSecret(consumerKey) else {
            return .failure(.couldNotAuthenticate("unknown consumer key"))
        }
        let token = sandbox.withState { $0.twitterTokens[tokenValue] }
        guard let token, !token.revoked, token.consumerKey == consumerKey else {
            return .failure(.init(code: 89, message: "Invalid or expired token.", status: .unauthorized, reason: "unknown, revoked or foreign token"))
        }
        let now = sandbox.now.timeIntervalSince1970
        let window = sandbox.settings.twitterTimestampWindow
        guard let timestamp = Int(timestampText), abs(Double(timestamp) - now) <= window else {
            return .failure(.init(code: 135, message: "Timestamp out of bounds.", status: .unauthorized, reason: "stale oauth_timestamp"))
        }

        let baseString = OAuth1Signature.baseString(
            method: request.method.rawValue, baseURI: baseURI(request), parameters: oauth.signedParameters)
        let expected = OAuth1Signature.signature(baseString: baseString, consumerSecret: consumerSecret, tokenSecret: token.secret)
        guard let given = Data(base64Encoded: signature), let wanted = Data(base64Encoded: expected),
            given.count == wanted.count, zip(given, wanted).reduce(UInt8(0), { $0 | ($1.0 ^ $1.1) }) == 0
        else {
            sandbox.logger.debug("twitter expected signature base string", metadata: ["base": "\(baseString)"])
            return .failure(.couldNotAuthenticate("signature mismatch"))
        }

        let nonceKey = "\(consumerKey)&\(tokenValue)&\(nonce)"
        let fresh = sandbox.withState { state -> Bool in
            let oldest = Int(now - window)
            state.twitterNonces = state.twitterNonces.filter { $0.value >= oldest }
            guard state.twitterNonces[nonceKey] == nil else { return false }
            state.twitterNonces[nonceKey] = timestamp
            return true
        }
        guard fresh else { return .failure(.couldNotAuthenticate("oauth_nonce reused")) }
        return .success(token.identity)
    }

    /// The base URI the client must have signed (see the type's documentation).
    func baseURI(_ request: Request) -> String {
        let configured = URLComponents(string: sandbox.baseURL)
        let scheme = configured?.scheme ?? "http"
        let fallback = (configured?.host ?? "localhost") + (configured?.port.map { ":\($0)" } ?? "")
        return OAuth1Signature.baseURI(scheme: scheme, authority: SandboxHTTP.authority(request) ?? fallback, path: request.uri.path)
    }

    private static func isTrue(_ value: String?) -> Bool {
        guard let value = value?.lowercased() else { return false }
        return value == "true" || value == "1" || value == "t"
    }

    /// The verify_credentials user object (v1.1), without `status`.
    static func userObject(_ identity: SandboxIdentity, includeEmail: Bool, includeEntities: Bool) -> SandboxJSON {
        let screenName = identity.screenName ?? "user\(identity.subject)"
        let photoHTTPS = identity.photoURL ?? "https://abs.twimg.com/sticky/default_profile_images/default_profile_normal.png"
        let photoHTTP = photoHTTPS.hasPrefix("https://") ? "http://" + photoHTTPS.dropFirst(8) : photoHTTPS
        var user: [String: SandboxJSON] = [
            "id": Int(identity.subject).map { .int($0) } ?? .string(identity.subject),
            "id_str": .string(identity.subject), "name": .optional(identity.displayName ?? screenName),
            "screen_name": .string(screenName), "location": "", "description": "", "url": .null,
            "protected": false, "followers_count": 42, "friends_count": 7, "listed_count": 0,
            "created_at": "Wed Oct 21 23:53:04 +0000 2015", "favourites_count": 3, "utc_offset": .null,
            "time_zone": .null, "geo_enabled": false, "verified": false, "statuses_count": 12, "lang": .null,
            "contributors_enabled": false, "is_translator": false, "is_translation_enabled": false,
            "profile_background_color": "F5F8FA", "profile_background_image_url": .null,
            "profile_background_image_url_https": .null, "profile_background_tile": false,
            "profile_image_url": .string(String(photoHTTP)), "profile_image_url_https": .string(photoHTTPS),
            "profile_link_color": "1DA1F2", "profile_sidebar_border_color": "C0DEED",
            "profile_sidebar_fill_color": "DDEEF6", "profile_text_color": "333333",
            "profile_use_background_image": true, "has_extended_profile": false, "default_profile": true,
            "default_profile_image": .bool(identity.photoURL == nil), "following": false,
            "follow_request_sent": false, "notifications": false, "translator_type": "none", "withheld_in_countries": [],
        ]
        if includeEntities { user["entities"] = ["description": ["urls": []]] }
        if includeEmail { user["email"] = .optional(identity.email) }
        return .object(user)
    }

    /// A Twitter API error.
    struct Failure: Error {
        let code: Int
        let message: String
        let status: HTTPResponse.Status
        /// Why, for the sandbox's log only.
        let reason: String

        static func badAuthenticationData(_ reason: String) -> Failure {
            Failure(code: 215, message: "Bad Authentication data.", status: .badRequest, reason: reason)
        }

        static func couldNotAuthenticate(_ reason: String) -> Failure {
            Failure(code: 32, message: "Could not authenticate you.", status: .unauthorized, reason: reason)
        }
    }

    /// `{"errors":[{"code":…,"message":…}]}`.
    static func error(_ failure: Failure) -> Response {
        SandboxHTTP.json(["errors": [["code": .int(failure.code), "message": .string(failure.message)]]], status: failure.status)
    }
}
