import Foundation
import HearthAuth
import HearthSandbox
import HearthTesting
import Testing

#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// Stands in for the person at the browser: opens the provider's page with the sandbox's "approve as" (or
/// "cancel") shortcut and follows redirects until the browser is sent to the app's return URL.
final class ScriptedBrowser: NSObject, URLSessionTaskDelegate, @unchecked Sendable {
    let subject: String
    let decision: String
    let visited = Recorder<String>()

    init(subject: String, decision: String = "approve") {
        self.subject = subject
        self.decision = decision
    }

    func urlSession(
        _ session: URLSession, task: URLSessionTask, willPerformHTTPRedirection response: HTTPURLResponse,
        newRequest request: URLRequest, completionHandler: @escaping @Sendable (URLRequest?) -> Void
    ) {
        completionHandler(nil)  // the test follows redirects itself, to stop at the app's return URL
    }

    var presenter: BrowserSignInUIDelegate.Presenter {
        { authURL, returnURL in try await self.run(authURL, returnURL: returnURL) }
    }

    private func run(_ authURL: URL, returnURL: String) async throws -> URL {
        let session = URLSession(configuration: .ephemeral, delegate: self, delegateQueue: nil)
        defer { session.finishTasksAndInvalidate() }
        var components = URLComponents(url: authURL, resolvingAgainstBaseURL: false)!
        components.queryItems =
            (components.queryItems ?? []) + [
                URLQueryItem(name: "sandbox_subject", value: subject), URLQueryItem(name: "sandbox_decision", value: decision),
            ]
        var next = components.url!
        for _ in 0..<10 {
            visited.append(next.absoluteString)
            let response: HTTPURLResponse = try await withCheckedThrowingContinuation { continuation in
                session.dataTask(with: next) { _, response, error in
                    if let error { continuation.resume(throwing: error) } else { continuation.resume(returning: response as! HTTPURLResponse) }
                }.resume()
            }
            guard (300..<400).contains(response.statusCode), let location = response.value(forHTTPHeaderField: "Location") else {
                throw URLError(.badServerResponse)
            }
            if location.hasPrefix(returnURL) { return URL(string: location)! }
            next = URL(string: location, relativeTo: next)!.absoluteURL
        }
        throw URLError(.httpTooManyRedirects)
    }
}

@Suite struct BrowserSignInTests {
    @Test("getCredentialWith runs the server's browser sign-in: Microsoft, then link Twitter, reauthenticate, cancel")
    func browserSignIn() async throws {
        try await withLiveHearth { live in
            let auth = makeAuth(live)
            let returnURL = "com.example.hearth:/oauth2redirect"
            let browser = ScriptedBrowser(subject: SandboxIdentity.microsoftWork.subject)
            auth.defaultUIDelegate = BrowserSignInUIDelegate(returnURL: returnURL, presentBrowser: browser.presenter)

            let microsoft = OAuthProvider(providerID: "microsoft.com", auth: auth)
            microsoft.customParameters = ["prompt": "consent", "client_id": "ignored"]
            microsoft.scopes = ["mail.read"]
            let credential = try await microsoft.credential(with: nil)
            #expect(credential.provider == "microsoft.com")
            let signedIn = try await auth.signIn(with: credential)
            #expect(signedIn.additionalUserInfo?.providerID == "microsoft.com")
            #expect(signedIn.user.email == "adele@contoso.com")
            #expect(signedIn.credential?.idToken?.isEmpty == false)
            let first = try #require(browser.visited.all.first)
            #expect(first.contains("prompt=consent"))
            #expect(!first.contains("ignored"))
            // The result is single-use.
            #expect(await authError { _ = try await auth.signIn(with: credential) } == .invalidCredential)

            // Link Twitter through the browser; the token and secret come back on the result.
            let twitterBrowser = ScriptedBrowser(subject: SandboxIdentity.twitterNoEmail.subject)
            let twitter = OAuthProvider(providerID: "twitter.com", auth: auth)
            let twitterDelegate = BrowserSignInUIDelegate(returnURL: returnURL, presentBrowser: twitterBrowser.presenter)
            let linked = try await signedIn.user.link(with: try await twitter.credential(with: twitterDelegate))
            #expect(linked.credential?.secret?.isEmpty == false)
            #expect(Set(signedIn.user.providerData.map(\.providerID)) == ["microsoft.com", "twitter.com"])

            // Re-authenticate through the browser.
            let again = try await signedIn.user.reauthenticate(with: try await microsoft.credential(with: nil))
            #expect(again.user.uid == signedIn.user.uid)

            // The person cancels at the provider.
            let cancelling = BrowserSignInUIDelegate(
                returnURL: returnURL, presentBrowser: ScriptedBrowser(subject: "", decision: "cancel").presenter)
            #expect(await authError { _ = try await microsoft.credential(with: cancelling) } == .webContextCancelled)
            // The person closes the browser.
            let closing = BrowserSignInUIDelegate(returnURL: returnURL) { _, _ in throw CancellationError() }
            #expect(await authError { _ = try await microsoft.credential(with: closing) } == .webContextCancelled)
        }
    }

    @Test("OAuthProvider(providerID: \"yahoo.com\") signs in through the browser, and Yahoo's ID token signs in directly")
    func yahoo() async throws {
        try await withLiveHearth { live in
            let auth = makeAuth(live)
            let browser = ScriptedBrowser(subject: SandboxIdentity.yahooUser.subject)
            let delegate = BrowserSignInUIDelegate(returnURL: "com.example.hearth:/oauth2redirect", presentBrowser: browser.presenter)
            let yahoo = OAuthProvider(providerID: "yahoo.com", auth: auth)
            let credential = try await yahoo.credential(with: delegate)
            #expect(credential.provider == "yahoo.com")
            let signedIn = try await auth.signIn(with: credential)
            #expect(signedIn.additionalUserInfo?.providerID == "yahoo.com")
            #expect(signedIn.user.email == SandboxIdentity.yahooUser.email)
            #expect(signedIn.user.providerData.map(\.providerID) == ["yahoo.com"])
            try auth.signOut()

            // An app that has Yahoo's ID token itself (its own OAuth library) hands it over with the raw nonce.
            let nonce = "yahoo-raw-nonce"
            let token = try live.sandbox.yahooIDToken(for: .yahooUser, nonce: .raw(nonce))
            let direct = try await auth.signIn(with: OAuthProvider.credential(providerID: .custom("yahoo.com"), idToken: token, rawNonce: nonce))
            #expect(direct.user.uid == signedIn.user.uid)
        }
    }

    @Test("Microsoft tenants through the SDK: a tenant the rule refuses, the allowed tenant's own page, an account of another tenant")
    func microsoftTenantRejection() async throws {
        let contoso = SandboxMicrosoftTenant.contoso.id
        let fabrikam = SandboxMicrosoftTenant.fabrikam.id
        try await withLiveHearth(providers: { $0.microsoft.allowedTenantIDs = [contoso] }) { live in
            let auth = makeAuth(live)
            let returnURL = "com.example.hearth:/oauth2redirect"
            let microsoft = OAuthProvider(providerID: "microsoft.com", auth: auth)

            // A tenant the rule refuses: refused by createAuthUri, before the browser opens.
            let unused = ScriptedBrowser(subject: SandboxIdentity.microsoftUnverifiedEmail.subject)
            microsoft.customParameters = ["tenant": fabrikam]
            let refused = try #require(
                await nsError {
                    _ = try await microsoft.credential(with: BrowserSignInUIDelegate(returnURL: returnURL, presentBrowser: unused.presenter))
                })
            #expect(refused.domain == AuthErrorDomain)
            #expect(refused.code == AuthErrorCode.invalidProviderID.rawValue)
            #expect(refused.userInfo[AuthErrorUserInfoNameKey] as? String == "ERROR_INVALID_PROVIDER_ID")
            #expect(refused.localizedDescription == "The Microsoft tenant \(fabrikam) is not allowed for this app.")
            #expect(
                refused.userInfo["HearthAuthServerMessageKey"] as? String
                    == "INVALID_PROVIDER_ID : The Microsoft tenant \(fabrikam) is not allowed for this app.")
            #expect(unused.visited.count == 0)

            // The allowed tenant: the browser goes to that tenant's page, and its account signs in.
            let work = ScriptedBrowser(subject: SandboxIdentity.microsoftWork.subject)
            microsoft.customParameters = ["tenant": contoso]
            let signedIn = try await auth.signIn(
                with: microsoft, uiDelegate: BrowserSignInUIDelegate(returnURL: returnURL, presentBrowser: work.presenter))
            #expect(signedIn.user.email == SandboxIdentity.microsoftWork.email)
            #expect(work.visited.all.first?.contains("/sandbox/microsoft/\(contoso)/oauth2/v2.0/authorize?") == true)
            try auth.signOut()

            // No tenant (`common` at Microsoft), and the person picks an account of a tenant the rule refuses:
            // the browser step succeeds, the sign-in it feeds is refused, and nobody is signed in.
            let guest = ScriptedBrowser(subject: SandboxIdentity.microsoftUnverifiedEmail.subject)
            microsoft.customParameters = nil
            let credential = try await microsoft.credential(with: BrowserSignInUIDelegate(returnURL: returnURL, presentBrowser: guest.presenter))
            let rejected = try #require(await nsError { _ = try await auth.signIn(with: credential) })
            #expect(rejected.code == AuthErrorCode.invalidCredential.rawValue)
            #expect(rejected.localizedDescription == "Invalid Microsoft id_token: accounts of tenant \(fabrikam) may not sign in to this app.")
            #expect(
                rejected.userInfo["HearthAuthServerMessageKey"] as? String
                    == "INVALID_IDP_RESPONSE : Invalid Microsoft id_token: accounts of tenant \(fabrikam) may not sign in to this app.")
            #expect(auth.currentUser == nil)
        }
    }
}
