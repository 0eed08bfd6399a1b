import Crypto
import Foundation
import HTTPTypes
import Hummingbird
import Logging

/// GitHub's REST API at `api.github.com` (also under `/api/v3` as on GitHub Enterprise): `GET /user`,
/// `GET /user/emails` and `POST /applications/{client_id}/token` (check a token). Requests without a
/// `User-Agent` are refused with 403 like the real API. (The OAuth web flow at github.com,
/// `login/oauth/authorize` and `login/oauth/access_token`, is ``AuthorizationRoutes``.)
struct GitHubRoutes: Sendable {
    let sandbox: Sandbox
    private static let documentation = "https://docs.github.com/rest"

    func add<Context: RequestContext>(to router: RouterGroup<Context>) {
        for prefix in ["", "api/v3/"] {
            router.get(RouterPath("\(prefix)user")) { request, _ in self.user(request) }
            router.get(RouterPath("\(prefix)user/emails")) { request, _ in self.emails(request) }
            router.post(RouterPath("\(prefix)applications/:client_id/token")) { request, context in
                await self.checkToken(request, clientID: context.parameters.get("client_id") ?? "")
            }
        }
    }

    func user(_ request: Request) -> Response {
        switch authenticate(request) {
        case .refused(let response): return response
        case .token(let token): return SandboxHTTP.json(Self.userObject(token.identity), headers: scopeHeaders(token, accepted: ""))
        }
    }

    func emails(_ request: Request) -> Response {
        switch authenticate(request) {
        case .refused(let response): return response
        case .token(let token):
            guard token.scopes.contains("user:email") || token.scopes.contains("user") else {
                return Self.error(
                    "Not Found", status: .notFound,
                    documentation: "https://docs.github.com/rest/users/emails#list-email-addresses-for-the-authenticated-user")
            }
            let identity = token.identity
            var entries: [SandboxJSON] = []
            if let email = identity.email {
                entries.append([
                    "email": .string(email), "primary": true, "verified": .bool(identity.emailVerified),
                    "visibility": identity.emailIsPublic ? "public" : "private",
                ])
            }
            for other in identity.otherEmails {
                entries.append([
                    "email": .string(other.email), "primary": false, "verified": .bool(other.verified),
                    "visibility": .optional(other.visibility),
                ])
            }
            return SandboxHTTP.json(.array(entries), headers: scopeHeaders(token, accepted: "user, user:email"))
        }
    }

    /// Check a token: HTTP Basic with the app's client id and secret, JSON body `{"access_token": …}`;
    /// 404 when the token is unknown, revoked or belongs to another app.
    func checkToken(_ request: Request, clientID: String) async -> Response {
        if let refusal = refuseWithoutUserAgent(request) { return refusal }
        let documentation = "https://docs.github.com/rest/apps/oauth-applications#check-a-token"
        guard let basic = SandboxHTTP.basicCredentials(request) else {
            return Self.error("Requires authentication", status: .unauthorized, documentation: documentation)
        }
        guard basic.user == clientID, let secret = sandbox.githubSecret(clientID), secret == basic.password else {
            sandbox.logger.info("github check-token refused the app credentials")
            return Self.error("Not Found", status: .notFound, documentation: documentation)
        }
        guard let body = await SandboxHTTP.bodyText(request), let json = SandboxJSON(jsonData: Data(body.utf8)),
            let value = json["access_token"]?.stringValue
        else {
            return Self.error("Invalid request.\n\n\"access_token\" wasn't supplied.", status: .unprocessableContent, documentation: documentation)
        }
        guard let token = sandbox.accessToken(value, provider: .github), !token.revoked, token.clientID == clientID else {
            return Self.error("Not Found", status: .notFound, documentation: documentation)
        }
        let created = Self.timestamp(token.issuedAt)
        let user = Self.userObject(token.identity).objectValue ?? [:]
        let simpleUser = user.filter {
            ["login", "id", "node_id", "avatar_url", "gravatar_id", "url", "html_url", "type", "site_admin"].contains($0.key)
        }
        return SandboxHTTP.json([
            "id": .int(Int(SHA256.hash(data: Data(value.utf8)).prefix(3).reduce(0) { $0 << 8 | Int($1) })),
            "url": "https://api.github.com/authorizations/1",
            "scopes": .array(token.scopes.map { .string($0) }),
            "token": .string(value),
            "token_last_eight": .string(String(value.suffix(8))),
            "hashed_token": .string(Data(SHA256.hash(data: Data(value.utf8))).hexString),
            "app": ["url": "https://hearth.example.com", "name": "Hearth Sandbox", "client_id": .string(clientID)],
            "note": .null, "note_url": .null, "updated_at": .string(created), "created_at": .string(created),
            "fingerprint": .null, "expires_at": .null,
            "user": .object(simpleUser),
        ])
    }

    /// The outcome of reading a request's access token.
    enum Authentication {
        case token(IssuedAccessToken)
        case refused(Response)
    }

    private func authenticate(_ request: Request) -> Authentication {
        if let refusal = refuseWithoutUserAgent(request) { return .refused(refusal) }
        guard request.headers[.authorization] != nil else {
            return .refused(
                Self.error(
                    "Requires authentication", status: .unauthorized,
                    documentation: "https://docs.github.com/rest/users/users#get-the-authenticated-user"))
        }
        guard let value = SandboxHTTP.authorization(request, schemes: ["bearer", "token"]),
            let token = sandbox.accessToken(value, provider: .github), !token.revoked
        else {
            sandbox.logger.info("github rejected an access token")
            return .refused(Self.error("Bad credentials", status: .unauthorized, documentation: Self.documentation))
        }
        return .token(token)
    }

    private func refuseWithoutUserAgent(_ request: Request) -> Response? {
        guard sandbox.settings.githubRequiresUserAgent, (request.headers[.userAgent] ?? "").isEmpty else { return nil }
        return SandboxHTTP.text(
            "Request forbidden by administrative rules. Please make sure your request has a User-Agent header (https://docs.github.com/en/rest/overview/resources-in-the-rest-api#user-agent-required). Check https://developer.github.com for other possible causes.\n",
            status: .forbidden)
    }

    private func scopeHeaders(_ token: IssuedAccessToken, accepted: String) -> HTTPFields {
        var headers: HTTPFields = [:]
        if let scopes = HTTPField.Name("X-OAuth-Scopes") { headers[scopes] = token.scopes.joined(separator: ", ") }
        if let acceptedScopes = HTTPField.Name("X-Accepted-OAuth-Scopes") { headers[acceptedScopes] = accepted }
        if let media = HTTPField.Name("X-GitHub-Media-Type") { headers[media] = "github.v3; format=json" }
        return headers
    }

    /// GitHub's authenticated-user object.
    static func userObject(_ identity: SandboxIdentity) -> SandboxJSON {
        let login = identity.screenName ?? "user\(identity.subject)"
        let api = "https://api.github.com/users/\(login)"
        let id: SandboxJSON = Int(identity.subject).map { .int($0) } ?? .string(identity.subject)
        return [
            "login": .string(login), "id": id,
            "node_id": .string(Data("04:User\(identity.subject)".utf8).base64EncodedString()),
            "avatar_url": .optional(identity.photoURL), "gravatar_id": "",
            "url": .string(api), "html_url": .string("https://github.com/\(login)"),
            "followers_url": .string("\(api)/followers"), "following_url": .string("\(api)/following{/other_user}"),
            "gists_url": .string("\(api)/gists{/gist_id}"), "starred_url": .string("\(api)/starred{/owner}{/repo}"),
            "subscriptions_url": .string("\(api)/subscriptions"), "organizations_url": .string("\(api)/orgs"),
            "repos_url": .string("\(api)/repos"), "events_url": .string("\(api)/events{/privacy}"),
            "received_events_url": .string("\(api)/received_events"), "type": "User", "user_view_type": "private",
            "site_admin": false, "name": .optional(identity.displayName), "company": .null, "blog": "",
            "location": .null, "email": identity.emailIsPublic ? .optional(identity.email) : .null,
            "hireable": .null, "bio": .null, "twitter_username": .null, "notification_email": .null,
            "public_repos": 2, "public_gists": 0, "followers": 1, "following": 0,
            "created_at": "2011-01-25T18:44:36Z", "updated_at": "2024-06-01T12:00:00Z",
        ]
    }

    private static func timestamp(_ date: Date) -> String {
        let formatter = ISO8601DateFormatter()
        formatter.formatOptions = [.withInternetDateTime]
        return formatter.string(from: date)
    }

    /// GitHub's error shape: `{"message","documentation_url","status"}`.
    static func error(_ message: String, status: HTTPResponse.Status, documentation: String) -> Response {
        SandboxHTTP.json(
            ["message": .string(message), "documentation_url": .string(documentation), "status": .string(String(status.code))],
            status: status)
    }
}
