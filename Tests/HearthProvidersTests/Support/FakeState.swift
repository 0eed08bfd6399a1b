import Foundation
import HearthCore

/// What the fake providers know and have seen; tests set it up and read the counters.
final class FakeState: Sendable {
    struct TwitterAccount: Sendable {
        var secret: String
        var user: [String: JSONValue]
    }

    struct FacebookToken: Sendable {
        var appID: String
        var userID: String
        var isValid = true
        var expiresAt: Double = 0
        var me: [String: JSONValue]
    }

    struct GitHubAccount: Sendable {
        var user: [String: JSONValue]
        var emails: [JSONValue]
        /// The OAuth app that issued the token.
        var clientID: String = "gh-client"
    }

    struct GoogleAccessToken: Sendable {
        var tokeninfo: [String: JSONValue]
        var userinfo: [String: JSONValue]
    }

    struct Values: Sendable {
        var published: [TestKey] = [TestKey.primary, TestKey.elliptic]
        var cacheControl: String? = "public, max-age=3600"
        var fetches: [String: Int] = [:]
        var requests: [String] = []

        var twitterConsumerKey = "tw-consumer-key"
        var twitterConsumerSecret = "tw-consumer-secret"
        var twitterAccounts: [String: TwitterAccount] = [:]
        var twitterFailures: [String] = []

        var facebookAppID = "fb-app"
        var facebookAppSecret = "fb-secret"
        var facebookTokens: [String: FacebookToken] = [:]

        var gitHubAccounts: [String: GitHubAccount] = [:]
        var gitHubClientSecret = "gh-secret"

        var googleAccessTokens: [String: GoogleAccessToken] = [:]

        /// Tenant domain → tenant GUID, for Microsoft discovery.
        var microsoftDomains: [String: String] = [:]

        var oidcIssuer = ""
        var oidcAlgorithms: [String] = ["RS256", "ES256"]
    }

    let box = LockedBox(Values())

    func update(_ body: (inout Values) -> Void) { box.withLock(body) }
    var values: Values { box.withLock { $0 } }

    func fetchCount(_ path: String) -> Int { box.withLock { $0.fetches[path] ?? 0 } }
    func recordFetch(_ path: String) {
        box.withLock {
            $0.fetches[path, default: 0] += 1
            $0.requests.append(path)
        }
    }
}
