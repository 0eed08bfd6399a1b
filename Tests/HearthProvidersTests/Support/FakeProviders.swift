import Crypto
import Foundation
import HearthCore
import Hummingbird
import NIOCore

/// Loopback stand-ins for the providers, answering in the real formats:
///
/// - `/apple/auth/keys`, `/google/oauth2/v3/certs`, `/fb/limited/jwks/`, `/oidc/jwks`, `/ms/{tenant}/discovery/v2.0/keys`: JWKS
/// - `/ms/{tenant}/v2.0/.well-known/openid-configuration`, `/oidc/.well-known/openid-configuration`: discovery
/// - `/google/tokeninfo`, `/google/userinfo`
/// - `/fb/v24.0/debug_token`, `/fb/v24.0/me` (checks the app token and `appsecret_proof`)
/// - `/github/user`, `/github/user/emails`, `POST /github/applications/{client}/token`
/// - `/twitter/1.1/account/verify_credentials.json` (verifies the OAuth 1.0a signature independently)
/// - `/slow/...` answers after 2 s; `/slowbody/...` sends its headers at once and the body after 2 s; `/down/...` answers 503.
enum FakeProviders {
    static func router(_ state: FakeState) -> Router<BasicRequestContext> {
        let router = Router()

        for path in ["/apple/auth/keys", "/google/oauth2/v3/certs", "/fb/limited/jwks/", "/oidc/jwks", "/ms/{tenant}/discovery/v2.0/keys"] {
            router.get(RouterPath(path)) { request, _ -> Response in
                state.recordFetch(request.uri.path)
                let values = state.values
                var headers: HTTPFields = [:]
                if let cacheControl = values.cacheControl { headers[.cacheControl] = cacheControl }
                return json(.object(["keys": .array(values.published.map(\.jwk))]), headers: headers)
            }
        }

        router.get("/ms/{tenant}/v2.0/.well-known/openid-configuration") { request, context -> Response in
            state.recordFetch(request.uri.path)
            let tenant = context.parameters.get("tenant") ?? ""
            let issuerTenant: String
            switch tenant {
            case "common", "organizations": issuerTenant = "{tenantid}"
            case "consumers": issuerTenant = "9188040d-6c67-4c5b-b112-36a304b66dad"
            default:
                guard let guid = state.values.microsoftDomains[tenant] ?? (tenant.count == 36 ? tenant : nil) else {
                    return json(.object(["error": "invalid_tenant"]), status: .badRequest)
                }
                issuerTenant = guid
            }
            return json(
                .object([
                    "issuer": .string("https://login.microsoftonline.com/\(issuerTenant)/v2.0"),
                    "jwks_uri": .string("https://login.microsoftonline.com/\(tenant)/discovery/v2.0/keys"),
                    "id_token_signing_alg_values_supported": ["RS256"],
                ]))
        }

        router.get("/oidc/.well-known/openid-configuration") { request, _ -> Response in
            state.recordFetch(request.uri.path)
            let values = state.values
            let base = "http://\(request.head.authority ?? "127.0.0.1")"
            return json(
                .object([
                    "issuer": .string(values.oidcIssuer), "jwks_uri": .string(base + "/oidc/jwks"),
                    "id_token_signing_alg_values_supported": .array(values.oidcAlgorithms.map { .string($0) }),
                    "response_types_supported": ["code", "id_token"], "subject_types_supported": ["public"],
                ]), headers: [.cacheControl: "max-age=600"])
        }

        // Google access tokens.
        router.get("/google/tokeninfo") { request, _ -> Response in
            state.recordFetch(request.uri.path)
            guard let token = request.uri.queryParameters.get("access_token"), let known = state.values.googleAccessTokens[token] else {
                return json(.object(["error": "invalid_token", "error_description": "Invalid Value"]), status: .badRequest)
            }
            return json(.object(known.tokeninfo))
        }
        router.get("/google/userinfo") { request, _ -> Response in
            state.recordFetch(request.uri.path)
            guard let token = bearer(request), let known = state.values.googleAccessTokens[token] else {
                return json(.object(["error": "invalid_request", "error_description": "Invalid Credentials"]), status: .unauthorized)
            }
            return json(.object(known.userinfo))
        }

        // Facebook Graph.
        router.get("/fb/v24.0/debug_token") { request, _ -> Response in
            state.recordFetch(request.uri.path)
            let values = state.values
            let query = request.uri.queryParameters
            guard query.get("access_token") == "\(values.facebookAppID)|\(values.facebookAppSecret)" else {
                return graphError("Invalid OAuth access token signature.", code: 190)
            }
            guard let input = query.get("input_token"), let token = values.facebookTokens[input] else {
                return json(
                    .object([
                        "data": .object([
                            "error": .object(["code": 190, "message": "Invalid OAuth access token."]), "is_valid": false, "scopes": [],
                        ])
                    ]))
            }
            return json(
                .object([
                    "data": .object([
                        "app_id": .string(token.appID), "type": "USER", "application": "Test App", "data_access_expires_at": 1_900_000_000,
                        "expires_at": .number(token.expiresAt), "is_valid": .bool(token.isValid), "scopes": ["email", "public_profile"],
                        "user_id": .string(token.userID),
                    ])
                ]))
        }
        router.get("/fb/v24.0/me") { request, _ -> Response in
            state.recordFetch(request.uri.path)
            let values = state.values
            let query = request.uri.queryParameters
            guard let token = query.get("access_token"), let known = values.facebookTokens[token], known.isValid else {
                return graphError("Invalid OAuth access token.", code: 190)
            }
            let key = SymmetricKey(data: Data(values.facebookAppSecret.utf8))
            let proof = HMAC<SHA256>.authenticationCode(for: Data(token.utf8), using: key).map { String(format: "%02x", $0) }.joined()
            guard query.get("appsecret_proof") == proof else { return graphError("Invalid appsecret_proof provided in the API argument", code: 100) }
            let requested = Set((query.get("fields") ?? "").split(separator: ",").map(String.init))
            return json(.object(known.me.filter { requested.contains($0.key) }))
        }

        // GitHub.
        router.get("/github/user") { request, _ -> Response in
            state.recordFetch(request.uri.path)
            guard request.headers[.userAgent] != nil else { return json(.object(["message": "User-Agent required"]), status: .forbidden) }
            guard let token = bearer(request), let account = state.values.gitHubAccounts[token] else {
                return json(.object(["message": "Bad credentials", "documentation_url": "https://docs.github.com/rest"]), status: .unauthorized)
            }
            return json(.object(account.user))
        }
        router.get("/github/user/emails") { request, _ -> Response in
            state.recordFetch(request.uri.path)
            guard let token = bearer(request), let account = state.values.gitHubAccounts[token] else {
                return json(.object(["message": "Bad credentials"]), status: .unauthorized)
            }
            return json(.array(account.emails))
        }
        router.post("/github/applications/{client}/token") { request, context -> Response in
            state.recordFetch(request.uri.path)
            let client = context.parameters.get("client") ?? ""
            let values = state.values
            let expected = "Basic " + Data("\(client):\(values.gitHubClientSecret)".utf8).base64EncodedString()
            guard request.headers[.authorization] == expected else { return json(.object(["message": "Not Found"]), status: .notFound) }
            let body = try await request.body.collect(upTo: 65_536)
            guard case .object(let fields)? = try? JSONDecoder().decode(JSONValue.self, from: Data(buffer: body)),
                case .string(let token)? = fields["access_token"], let account = values.gitHubAccounts[token], account.clientID == client
            else { return json(.object(["message": "Not Found"]), status: .notFound) }
            return json(.object(["id": 1, "token": .string(token), "user": .object(account.user)]))
        }

        // Twitter.
        router.get("/twitter/1.1/account/verify_credentials.json") { request, _ -> Response in
            state.recordFetch(request.uri.path)
            let values = state.values
            switch OAuth1Verifier.verify(
                request: request, consumerKey: values.twitterConsumerKey, consumerSecret: values.twitterConsumerSecret,
                accounts: values.twitterAccounts)
            {
            case .success(let user):
                return json(.object(user))
            case .failure(let why):
                state.update { $0.twitterFailures.append(why) }
                return json(.object(["errors": .array([.object(["code": 32, "message": "Could not authenticate you."])])]), status: .unauthorized)
            }
        }

        // Misbehaving providers.
        router.get("/slow/**") { request, _ -> Response in
            state.recordFetch(request.uri.path)
            try? await Task.sleep(for: .seconds(2))
            return json(.object(["keys": []]))
        }
        router.get("/slowbody/**") { request, _ -> Response in
            state.recordFetch(request.uri.path)
            var headers: HTTPFields = [:]
            headers[.contentType] = "application/json"
            return Response(
                status: .ok, headers: headers,
                body: ResponseBody { writer in
                    try await writer.write(ByteBuffer(string: #"{"keys":"#))
                    try? await Task.sleep(for: .seconds(2))
                    try await writer.write(ByteBuffer(string: "[]}"))
                    try await writer.finish(nil)
                })
        }
        router.get("/down/**") { request, _ -> Response in
            state.recordFetch(request.uri.path)
            return json(.object(["error": "unavailable"]), status: .serviceUnavailable)
        }
        return router
    }

    static func json(_ value: JSONValue, status: HTTPResponse.Status = .ok, headers: HTTPFields = [:]) -> Response {
        var headers = headers
        headers[.contentType] = "application/json; charset=utf-8"
        return Response(status: status, headers: headers, body: ResponseBody(byteBuffer: ByteBuffer(string: value.jsonText)))
    }

    static func graphError(_ message: String, code: Int) -> Response {
        json(
            .object([
                "error": .object([
                    "message": .string(message), "type": "OAuthException", "code": .number(Double(code)), "fbtrace_id": "AbCdEf",
                ])
            ]), status: .badRequest)
    }

    static func bearer(_ request: Request) -> String? {
        guard let value = request.headers[.authorization], value.hasPrefix("Bearer ") else { return nil }
        return String(value.dropFirst("Bearer ".count))
    }
}
