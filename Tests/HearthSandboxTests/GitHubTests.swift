import Foundation
import HTTPTypes
import HearthSandbox
import Testing

@Suite("GitHub")
struct GitHubTests {
    static func headers(_ token: String, scheme: String = "Bearer") -> HTTPFields {
        [.authorization: "\(scheme) \(token)", .userAgent: "hearth-tests", .accept: "application/vnd.github+json"]
    }

    @Test("/user and /user/emails with a bearer token")
    func userAndEmails() async throws {
        try await withSandbox { sandbox, client in
            let token = try sandbox.githubAccessToken(for: .githubUser)
            #expect(token.hasPrefix("gho_") && token.count == 40)
            let user = try await client.get("/github/user", headers: Self.headers(token))
            #expect(user.status == .ok)
            #expect(user["login"]?.string == "sandbox-mona")
            #expect(user["id"] == .number(9_919_191), "GitHub ids are JSON numbers")
            #expect(user["email"] == .null, "a private primary email is not in /user")
            #expect(user["avatar_url"]?.string == "https://avatars.githubusercontent.com/u/9919191?v=4")
            #expect(user.headers[HTTPField.Name("X-OAuth-Scopes")!] == "read:user, user:email")

            let emails = try await client.get("/github/user/emails", headers: Self.headers(token, scheme: "token"))
            #expect(emails.status == .ok)
            let list = try #require(emails.json.array)
            #expect(list.count == 3)
            #expect(list[0]["email"]?.string == "mona@example.com")
            #expect(list[0]["primary"] == .bool(true) && list[0]["verified"] == .bool(true))
            #expect(list[0]["visibility"]?.string == "private")
            #expect(list[2]["verified"] == .bool(false) && list[2]["visibility"] == .null)

            let publicUser = try await client.get(
                "/github/user", headers: Self.headers(try sandbox.githubAccessToken(for: .githubUnverified)))
            #expect(publicUser["email"]?.string == "hubot@example.com")
            #expect(publicUser["name"] == .null)
        }
    }

    @Test("Refusals: no User-Agent 403, bad token 401, missing scope 404 on /user/emails")
    func refusals() async throws {
        try await withSandbox { sandbox, client in
            let token = try sandbox.githubAccessToken(for: .githubUser, scopes: ["read:user"])
            let noAgent = try await client.get("/github/user", headers: [.authorization: "Bearer \(token)"])
            #expect(noAgent.status == .forbidden)
            #expect(noAgent.text.contains("User-Agent"))
            let bad = try await client.get("/github/user", headers: Self.headers("gho_nope"))
            #expect(bad.status == .unauthorized)
            #expect(bad["message"]?.string == "Bad credentials")
            let anonymous = try await client.get("/github/user", headers: [.userAgent: "hearth-tests"])
            #expect(anonymous["message"]?.string == "Requires authentication")
            let emails = try await client.get("/github/user/emails", headers: Self.headers(token))
            #expect(emails.status == .notFound)
            sandbox.revoke(token: token)
            #expect(try await client.get("/github/user", headers: Self.headers(token)).status == .unauthorized)
        }
    }

    @Test("Check a token: Basic client credentials, 404 for a token of another app")
    func checkToken() async throws {
        try await withSandbox { sandbox, client in
            let github = sandbox.credentials.github
            let basic = Data("\(github.clientID):\(github.clientSecret)".utf8).base64EncodedString()
            let headers: HTTPFields = [.authorization: "Basic \(basic)", .userAgent: "hearth-tests", .contentType: "application/json"]
            let token = try sandbox.githubAccessToken(for: .githubUser)
            let check = try await client.send(
                "/github/applications/\(github.clientID)/token", method: .post, headers: headers,
                body: Data(#"{"access_token":"\#(token)"}"#.utf8))
            #expect(check.status == .ok)
            #expect(check["app"]?["client_id"]?.string == github.clientID)
            #expect(check["user"]?["login"]?.string == "sandbox-mona")

            let foreign = try sandbox.githubAccessToken(for: .githubUser, clientID: github.otherClientID)
            let refused = try await client.send(
                "/github/applications/\(github.clientID)/token", method: .post, headers: headers,
                body: Data(#"{"access_token":"\#(foreign)"}"#.utf8))
            #expect(refused.status == .notFound)
        }
    }
}
