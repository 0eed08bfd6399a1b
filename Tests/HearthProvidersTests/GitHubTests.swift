import Foundation
import HearthCore
import HearthProviders
import Testing

@Suite("github.com")
struct GitHubTests {
    static let user: [String: JSONValue] = [
        "login": "octocat", "id": 583_231, "node_id": "MDQ6VXNlcjU4MzIzMQ==", "avatar_url": "https://avatars.githubusercontent.com/u/583231?v=4",
        "html_url": "https://github.com/octocat", "type": "User", "site_admin": false, "name": "The Octocat", "company": "@github",
        "email": .null, "public_repos": 8,
    ]
    static let emails: [JSONValue] = [
        .object(["email": "octocat@users.noreply.github.com", "primary": false, "verified": true, "visibility": .null]),
        .object(["email": "Octocat@GitHub.com", "primary": true, "verified": true, "visibility": "public"]),
    ]

    func setUp(_ environment: FakeEnvironment) {
        environment.state.update {
            $0.gitHubAccounts["gho_good"] = .init(user: Self.user, emails: Self.emails)
            $0.gitHubAccounts["gho_unverified"] = .init(
                user: Self.user, emails: [.object(["email": "octocat@github.com", "primary": true, "verified": false])])
            $0.gitHubAccounts["gho_other_app"] = .init(user: Self.user, emails: Self.emails, clientID: "someone-else")
        }
    }

    @Test("/user and the primary verified address from /user/emails; screenName = login; unverified")
    func happyPath() async throws {
        try await FakeEnvironment.run { environment in
            setUp(environment)
            let profile = try await environment.registry().verify(.init(providerID: "github.com", accessToken: "gho_good"))
            #expect(profile.rawID == "583231")
            #expect(profile.screenName == "octocat")
            #expect(profile.displayName == "The Octocat")
            #expect(profile.photoURL == "https://avatars.githubusercontent.com/u/583231?v=4")
            #expect(profile.email == "octocat@github.com")
            #expect(!profile.emailVerified)
            #expect(profile.rawUserInfo["login"] == "octocat")
            #expect(profile.rawUserInfo["id"] == .number(583_231))
        }
    }

    @Test("no verified primary address: no e-mail")
    func unverifiedPrimary() async throws {
        try await FakeEnvironment.run { environment in
            setUp(environment)
            let profile = try await environment.registry().verify(.init(providerID: "github.com", accessToken: "gho_unverified"))
            #expect(profile.email == nil)
        }
    }

    @Test("a bad token is rejected")
    func badToken() async throws {
        try await FakeEnvironment.run { environment in
            let error = await rejection { try await environment.registry().verify(.init(providerID: "github.com", accessToken: "gho_bad")) }
            #expect(error?.code == .invalidIDPResponse)
            #expect(error?.detail == "The GitHub access token is invalid or expired.")
        }
    }

    @Test("with the OAuth app's credentials, a token of another app is rejected by check-token")
    func checkToken() async throws {
        try await FakeEnvironment.run { environment in
            setUp(environment)
            let registry = environment.registry {
                $0.gitHub.clientID = "gh-client"
                $0.gitHub.clientSecret = "gh-secret"
            }
            _ = try await registry.verify(.init(providerID: "github.com", accessToken: "gho_good"))
            let error = await rejection { try await registry.verify(.init(providerID: "github.com", accessToken: "gho_other_app")) }
            #expect(error?.code == .invalidIDPResponse)
            #expect(error?.detail == "The GitHub access token is invalid or was not issued for this app.")
            #expect(environment.state.fetchCount("/github/applications/gh-client/token") == 2)
        }
    }
}
