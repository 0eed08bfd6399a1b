import Foundation
import HearthAuth
import HearthSandbox
import HearthTesting
import Testing

#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// `OAuthProvider(providerID: "saml.…")` through the server's browser sign-in: the SDK's createAuthUri, the
/// sandbox IdP's auto-posting form (posted here as a browser would), the handler, and the credential the SDK signs
/// in, links and reauthenticates with.
@Suite struct SAMLSignInTests {
    /// A browser that submits the IdP's form to the handler and stops at the app's return URL.
    final class FormPostingBrowser: NSObject, URLSessionTaskDelegate, @unchecked Sendable {
        func urlSession(
            _ session: URLSession, task: URLSessionTask, willPerformHTTPRedirection response: HTTPURLResponse,
            newRequest request: URLRequest, completionHandler: @escaping @Sendable (URLRequest?) -> Void
        ) {
            completionHandler(nil)
        }

        var presenter: BrowserSignInUIDelegate.Presenter {
            { authURL, returnURL in try await self.run(authURL, returnURL: returnURL) }
        }

        private func run(_ authURL: URL, returnURL: String) async throws -> URL {
            let session = URLSession(configuration: .ephemeral, delegate: self, delegateQueue: nil)
            defer { session.finishTasksAndInvalidate() }
            let (page, _) = try await Self.load(session, URLRequest(url: authURL))
            let html = String(decoding: page, as: UTF8.self)
            func input(_ name: String) -> String? {
                html.firstMatch(of: try! Regex(#"name="\#(name)" value="([^"]*)""#)).map { String($0.output[1].substring ?? "") }
            }
            guard let action = html.firstMatch(of: /action="([^"]*)"/).map({ String($0.1) }), let response = input("SAMLResponse"),
                let relayState = input("RelayState"), let handler = URL(string: action.replacingOccurrences(of: "&amp;", with: "&"))
            else { throw URLError(.cannotParseResponse) }
            var post = URLRequest(url: handler)
            post.httpMethod = "POST"
            post.setValue("application/x-www-form-urlencoded", forHTTPHeaderField: "Content-Type")
            let allowed = CharacterSet(charactersIn: "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-._~")
            func encoded(_ text: String) -> String { text.addingPercentEncoding(withAllowedCharacters: allowed) ?? text }
            post.httpBody = Data("SAMLResponse=\(encoded(response))&RelayState=\(encoded(relayState))".utf8)
            let (_, answer) = try await Self.load(session, post)
            guard let location = answer.value(forHTTPHeaderField: "Location"), location.hasPrefix(returnURL), let url = URL(string: location) else {
                throw URLError(.badServerResponse)
            }
            return url
        }

        static func load(_ session: URLSession, _ request: URLRequest) async throws -> (Data, HTTPURLResponse) {
            try await withCheckedThrowingContinuation { continuation in
                session.dataTask(with: request) { data, response, error in
                    if let error {
                        continuation.resume(throwing: error)
                    } else {
                        continuation.resume(returning: (data ?? Data(), response as! HTTPURLResponse))
                    }
                }.resume()
            }
        }
    }

    /// `inboundSamlConfigs/saml.sandbox` pointing at the sandbox IdP, through the admin API.
    static func configure(_ live: LiveHearth) async throws {
        let body: [String: Any] = [
            "displayName": "Sandbox", "enabled": true,
            "idpConfig": [
                "idpEntityId": live.sandbox.samlEntityID, "ssoUrl": live.sandbox.samlSSOURL,
                "idpCertificates": [["x509Certificate": try live.sandbox.samlCertificatePEM()]],
            ],
            "spConfig": ["spEntityId": "https://hearth.example/sp"],
        ]
        var request = URLRequest(
            url: URL(string: "\(live.baseURL)/v2/projects/\(live.projectID)/inboundSamlConfigs?inboundSamlConfigId=saml.sandbox")!)
        request.httpMethod = "POST"
        request.setValue("Bearer owner", forHTTPHeaderField: "Authorization")
        request.setValue("application/json", forHTTPHeaderField: "Content-Type")
        request.httpBody = try JSONSerialization.data(withJSONObject: body)
        let (data, response) = try await FormPostingBrowser.load(URLSession(configuration: .ephemeral), request)
        #expect(response.statusCode == 200, "\(String(decoding: data, as: UTF8.self))")
    }

    @Test("OAuthProvider(providerID: \"saml.sandbox\"): sign in, the attributes in the ID token's claims, link and reauthenticate")
    func samlProvider() async throws {
        try await withLiveHearth { live in
            try await Self.configure(live)
            let auth = makeAuth(live)
            auth.defaultUIDelegate = BrowserSignInUIDelegate(
                returnURL: "com.example.hearth:/oauth2redirect", presentBrowser: FormPostingBrowser().presenter)

            let anonymous = try await auth.signInAnonymously()
            let provider = OAuthProvider(providerID: "saml.sandbox", auth: auth)
            let linked = try await anonymous.user.link(with: try await provider.credential(with: nil))
            #expect(linked.user.uid == anonymous.user.uid)
            #expect(linked.additionalUserInfo?.providerID == "saml.sandbox")
            #expect(linked.user.providerData.map(\.providerID) == ["saml.sandbox"])
            let result = try await linked.user.getIDTokenResult()
            #expect(result.signInProvider == "saml.sandbox")
            let attributes = (result.claims["firebase"] as? [String: Any])?["sign_in_attributes"] as? [String: Any]
            #expect(attributes?["firstName"] as? String == "Ada")

            try auth.signOut()
            let signedIn = try await auth.signIn(with: try await provider.credential(with: nil))
            #expect(signedIn.user.uid == anonymous.user.uid)
            _ = try await signedIn.user.reauthenticate(with: try await provider.credential(with: nil))
        }
    }
}
