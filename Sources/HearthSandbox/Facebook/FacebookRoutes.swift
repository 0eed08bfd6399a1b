import Crypto
import Foundation
import HTTPTypes
import Hummingbird
import Logging

/// Facebook's Graph API endpoints at `graph.facebook.com` — `/debug_token` and `/me`, with or without a version
/// segment such as `/v24.0/me` — and Limited Login's `/.well-known/oauth/openid/jwks/` and
/// `/.well-known/openid-configuration/` (limited.facebook.com). (The login dialog and `/oauth/access_token`
/// are ``AuthorizationRoutes``.)
struct FacebookRoutes: Sendable {
    let sandbox: Sandbox

    func add<Context: RequestContext>(to router: RouterGroup<Context>) {
        router.get("debug_token") { request, _ in self.debugToken(request) }
        router.get(":version/debug_token") { request, context in
            self.versioned(context.parameters.get("version"), path: "debug_token") { self.debugToken(request) }
        }
        router.get("me") { request, _ in self.me(request) }
        router.get(":version/me") { request, context in
            self.versioned(context.parameters.get("version"), path: "me") { self.me(request) }
        }
        router.get(".well-known/oauth/openid/jwks") { _, _ in self.jwks() }
        router.get(".well-known/openid-configuration") { _, _ in self.discovery() }
    }

    private func versioned(_ version: String?, path: String, _ handler: () -> Response) -> Response {
        guard let version, version.wholeMatch(of: /v[0-9]+\.[0-9]+/) != nil else {
            return Self.graphError("Unknown path components: /\(version ?? "")/\(path)", code: 2500)
        }
        return handler()
    }

    func jwks() -> Response {
        guard let jwks = try? sandbox.servedJWKS(.facebook) else {
            return Self.graphError("An unknown error has occurred.", code: 1, status: .internalServerError)
        }
        return SandboxHTTP.json(jwks)
    }

    func discovery() -> Response {
        sandbox.countDiscoveryFetch(.facebook)
        let base = "\(sandbox.baseURL)/\(SandboxProvider.facebook.pathPrefix)"
        return SandboxHTTP.json([
            "issuer": .string(Sandbox.facebookLimitedLoginIssuer),
            "authorization_endpoint": .string("\(base)/dialog/oauth/"),
            "jwks_uri": .string("\(base)/.well-known/oauth/openid/jwks/"),
            "response_types_supported": ["id_token", "token id_token"],
            "subject_types_supported": ["pairwise"],
            "id_token_signing_alg_values_supported": ["RS256"],
            "claims_supported": [
                "iss", "aud", "sub", "iat", "exp", "jti", "nonce", "at_hash", "name", "given_name", "middle_name",
                "family_name", "email", "picture", "user_friends", "user_birthday", "user_age_range", "user_link",
                "user_hometown", "user_location", "user_gender",
            ],
        ])
    }

    /// `GET /debug_token?input_token=…&access_token=APPID|SECRET`.
    func debugToken(_ request: Request) -> Response {
        let query = SandboxHTTP.query(request)
        guard let inputToken = query["input_token"], !inputToken.isEmpty else {
            return Self.graphError("(#100) The parameter input_token is required", code: 100)
        }
        guard let appToken = query["access_token"] ?? SandboxHTTP.authorization(request, schemes: ["bearer", "oauth"]) else {
            return Self.graphError("An access token is required to request this resource.", code: 104)
        }
        let parts = appToken.split(separator: "|", omittingEmptySubsequences: false)
        guard parts.count == 2, let app = sandbox.facebookApp(String(parts[0])), app.secret == parts[1] else {
            if sandbox.accessToken(appToken, provider: .facebook) != nil {
                return Self.graphError(
                    "(#100) You must provide an app access token, or a user access token that is an owner or developer of the app",
                    code: 100)
            }
            return Self.graphError("Invalid OAuth access token signature.", code: 190, invalidToken: true)
        }
        guard let token = sandbox.accessToken(inputToken, provider: .facebook) else {
            return SandboxHTTP.json([
                "data": ["error": ["code": 190, "message": "Invalid OAuth access token."], "is_valid": false, "scopes": []]
            ])
        }
        let now = sandbox.now
        var data: [String: SandboxJSON] = [
            "app_id": .string(token.clientID), "type": "USER",
            "application": .string(sandbox.facebookApp(token.clientID)?.name ?? "Unknown"),
            "data_access_expires_at": .int(Sandbox.seconds(token.issuedAt.addingTimeInterval(90 * 86_400))),
            "expires_at": .int(token.expiresAt.map(Sandbox.seconds) ?? 0),
            "issued_at": .int(Sandbox.seconds(token.issuedAt)),
            "scopes": .array(token.scopes.map { .string($0) }),
            "granular_scopes": .array(token.scopes.map { ["scope": .string($0)] }),
            "user_id": .string(token.identity.subject),
        ]
        if let problem = problem(with: token, now: now) {
            data["is_valid"] = false
            data["error"] = ["code": 190, "message": .string(problem.message), "subcode": .int(problem.subcode)]
        } else {
            data["is_valid"] = true
        }
        return SandboxHTTP.json(["data": .object(data)])
    }

    /// `GET /me?fields=…&access_token=…&appsecret_proof=…`.
    func me(_ request: Request) -> Response {
        let query = SandboxHTTP.query(request)
        guard let value = query["access_token"] ?? SandboxHTTP.authorization(request, schemes: ["bearer", "oauth"]) else {
            return Self.graphError("An active access token must be used to query information about the current user.", code: 2500)
        }
        guard let token = sandbox.accessToken(value, provider: .facebook), let app = sandbox.facebookApp(token.clientID) else {
            return Self.graphError("Invalid OAuth access token - Cannot parse access token", code: 190, invalidToken: true)
        }
        if let problem = problem(with: token, now: sandbox.now) {
            return Self.graphError(problem.message, code: 190, subcode: problem.subcode, invalidToken: true)
        }
        if let proof = query["appsecret_proof"] {
            let expected = Sandbox.facebookAppSecretProof(accessToken: value, appSecret: app.secret)
            guard Self.constantTimeEqual(proof.lowercased(), expected) else {
                sandbox.logger.info("facebook rejected an appsecret_proof")
                return Self.graphError("Invalid appsecret_proof provided in the API argument", type: "GraphMethodException", code: 100)
            }
        } else if sandbox.settings.facebookRequiresAppSecretProof {
            return Self.graphError("API calls from the server require an appsecret_proof argument", type: "GraphMethodException", code: 100)
        }
        let requested = Self.fieldNames(query["fields"] ?? "id,name")
        let identity = token.identity
        var answer: [String: SandboxJSON] = [:]
        for field in requested {
            switch field.name {
            case "id": answer["id"] = .string(identity.subject)
            case "name": if let value = identity.displayName { answer["name"] = .string(value) }
            case "first_name", "short_name": if let value = identity.givenName { answer[field.name] = .string(value) }
            case "last_name": if let value = identity.familyName { answer["last_name"] = .string(value) }
            case "middle_name", "name_format": break
            case "email":
                if token.scopes.contains("email"), let email = identity.email { answer["email"] = .string(email) }
            case "picture":
                let size = Self.pictureSize(field.modifiers)
                answer["picture"] = [
                    "data": [
                        "height": .int(size), "width": .int(size), "is_silhouette": .bool(identity.photoURL == nil),
                        "url": .string(identity.photoURL ?? "https://static.xx.fbcdn.net/rsrc.php/v1/yi/r/odA9sNLrE86.jpg"),
                    ]
                ]
            default:
                return Self.graphError("(#100) Tried accessing nonexisting field (\(field.name)) on node type (User)", code: 100)
            }
        }
        if answer["id"] == nil { answer["id"] = .string(identity.subject) }
        return SandboxHTTP.json(.object(answer))
    }

    private func problem(with token: IssuedAccessToken, now: Date) -> (message: String, subcode: Int)? {
        if token.revoked {
            return ("Error validating access token: The user has not authorized application \(token.clientID).", 458)
        }
        if let expiresAt = token.expiresAt, expiresAt <= now {
            return (
                "Error validating access token: Session has expired on \(Self.graphDate(expiresAt)). The current time is \(Self.graphDate(now)).",
                463
            )
        }
        return nil
    }

    /// Top-level names of a Graph `fields` list (`picture.type(large){url},email` → picture, email) with the
    /// text after the name.
    static func fieldNames(_ fields: String) -> [(name: String, modifiers: String)] {
        var result: [(String, String)] = []
        var current = ""
        var depth = 0
        for character in fields + "," {
            switch character {
            case "(", "{": depth += 1
            case ")", "}": depth = max(0, depth - 1)
            default: break
            }
            if character == "," && depth == 0 {
                let trimmed = current.trimmingCharacters(in: .whitespaces)
                if !trimmed.isEmpty {
                    let end = trimmed.firstIndex(where: { $0 == "." || $0 == "{" || $0 == "(" }) ?? trimmed.endIndex
                    result.append((String(trimmed[..<end]), String(trimmed[end...])))
                }
                current = ""
            } else {
                current.append(character)
            }
        }
        return result
    }

    private static func pictureSize(_ modifiers: String) -> Int {
        if let match = modifiers.firstMatch(of: /width\(([0-9]+)\)/), let size = Int(match.1) { return size }
        if modifiers.contains("type(large)") { return 200 }
        if modifiers.contains("type(normal)") { return 100 }
        return 50
    }

    private static func graphDate(_ date: Date) -> String {
        let formatter = DateFormatter()
        formatter.locale = Locale(identifier: "en_US_POSIX")
        formatter.timeZone = TimeZone(identifier: "UTC")
        formatter.dateFormat = "EEEE, dd-MMM-yy HH:mm:ss 'UTC'"
        return formatter.string(from: date)
    }

    private static func constantTimeEqual(_ left: String, _ right: String) -> Bool {
        let a = Array(left.utf8)
        let b = Array(right.utf8)
        guard a.count == b.count else { return false }
        return zip(a, b).reduce(UInt8(0)) { $0 | ($1.0 ^ $1.1) } == 0
    }

    /// Graph's error shape: `{"error":{"message","type","code"[,"error_subcode"],"fbtrace_id"}}`, HTTP 400.
    static func graphError(
        _ message: String, type: String = "OAuthException", code: Int, subcode: Int? = nil,
        status: HTTPResponse.Status = .badRequest, invalidToken: Bool = false
    ) -> Response {
        var error: [String: SandboxJSON] = [
            "message": .string(message), "type": .string(type), "code": .int(code),
            "fbtrace_id": .string(SandboxRandom.alphanumeric(11)),
        ]
        if let subcode { error["error_subcode"] = .int(subcode) }
        var headers: HTTPFields = [:]
        if invalidToken {
            headers[.wwwAuthenticate] = "OAuth \"Facebook Platform\" \"invalid_token\" \"\(message.replacingOccurrences(of: "\"", with: "'"))\""
        }
        return SandboxHTTP.json(["error": .object(error)], status: status, headers: headers)
    }
}
