import Foundation
import HearthAuth
import HearthCore
import HearthSandbox
import HearthTesting
import Testing

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// The desktop and command-line way: a loopback listener takes the server's redirect (RFC 8252). The
/// "browser" here is URLSession following redirects, with the sandbox's scripted consent.
@Suite struct LoopbackBrowserTests {
    /// Opens the page like a browser that the person approves (or cancels) on.
    static func scriptedBrowser(subject: String, decision: String = "approve") -> @Sendable (URL) throws -> Void {
        { url in
            var components = URLComponents(url: url, resolvingAgainstBaseURL: false)!
            components.queryItems =
                (components.queryItems ?? []) + [
                    URLQueryItem(name: "sandbox_subject", value: subject), URLQueryItem(name: "sandbox_decision", value: decision),
                ]
            let target = components.url!
            Task.detached { _ = try? await URLSession.shared.data(from: target) }
        }
    }

    @Test("the system browser is $BROWSER, started with posix_spawn, given the URL")
    func systemBrowser() async throws {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("hearth-browser-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: directory) }
        let script = directory.appendingPathComponent("browser.sh")
        let opened = directory.appendingPathComponent("opened.txt")
        try "#!/bin/sh\nprintf '%s' \"$1\" > '\(opened.path).part' && mv '\(opened.path).part' '\(opened.path)'\n".write(
            to: script, atomically: true, encoding: .utf8)
        chmod(script.path, 0o755)
        // Only this test reads or sets BROWSER.
        setenv("BROWSER", script.path, 1)
        defer { unsetenv("BROWSER") }
        let url = URL(string: "https://example.com/sign-in?state=a%20b&x=1")!
        try LoopbackBrowser.openSystemBrowser(url)
        let deadline = ContinuousClock.now + .seconds(30)
        while !FileManager.default.fileExists(atPath: opened.path), ContinuousClock.now < deadline {
            try await Task.sleep(for: .milliseconds(10))
        }
        #expect(try String(contentsOf: opened, encoding: .utf8) == url.absoluteString)
    }

    @Test("Google through the system-browser pattern: loopback return URL, signed in; cancel and timeout")
    func loopbackSignIn() async throws {
        try await withLiveHearth { live in
            let auth = makeAuth(live)
            auth.defaultUIDelegate = try LoopbackBrowser.delegate(
                openBrowser: Self.scriptedBrowser(subject: SandboxIdentity.googleGmail.subject))
            let credential = try await OAuthProvider(providerID: "google.com", auth: auth).credential(with: nil)
            let result = try await auth.signIn(with: credential)
            #expect(result.user.email == SandboxIdentity.googleGmail.email)
            #expect(result.additionalUserInfo?.providerID == "google.com")

            // FirebaseAuth's provider-driven calls: link GitHub and reauthenticate with Google through the browser.
            let github = try LoopbackBrowser.delegate(openBrowser: Self.scriptedBrowser(subject: SandboxIdentity.githubUser.subject))
            let linked = try await result.user.link(with: OAuthProvider(providerID: "github.com", auth: auth), uiDelegate: github)
            #expect(Set(linked.user.providerData.map(\.providerID)) == ["google.com", "github.com"])
            let google = try LoopbackBrowser.delegate(openBrowser: Self.scriptedBrowser(subject: SandboxIdentity.googleGmail.subject))
            let again = try await result.user.reauthenticate(with: OAuthProvider(providerID: "google.com", auth: auth), uiDelegate: google)
            #expect(again.user.uid == result.user.uid)
            try auth.signOut()
            let back = try await auth.signIn(with: OAuthProvider(providerID: "github.com", auth: auth), uiDelegate: github)
            #expect(back.user.uid == result.user.uid)

            let cancelling = try LoopbackBrowser.delegate(openBrowser: Self.scriptedBrowser(subject: "", decision: "cancel"))
            #expect(
                await authError { _ = try await OAuthProvider(providerID: "github.com", auth: auth).credential(with: cancelling) }
                    == .webContextCancelled)

            let nobody = try LoopbackBrowser.delegate(openBrowser: { _ in }, timeout: 1)
            #expect(
                await authError { _ = try await OAuthProvider(providerID: "github.com", auth: auth).credential(with: nobody) } == .webContextCancelled
            )
        }
    }
}

extension LoopbackBrowserTests {
    @Test("a connection to the loopback listener that never sends a request does not hold up the sign-in")
    func silentConnection() async throws {
        try await withLiveHearth { live in
            let auth = makeAuth(live)
            let holder = LockedBox<Int32>(-1)
            let browser = Self.scriptedBrowser(subject: SandboxIdentity.githubUser.subject)
            let delegateBox = LockedBox<BrowserSignInUIDelegate?>(nil)
            let delegate = try LoopbackBrowser.delegate(openBrowser: { url in
                // Connect first and say nothing (a port scanner, a browser's speculative connection), then
                // let the browser come back.
                guard let port = delegateBox.withLock({ $0 }).flatMap({ URLComponents(string: $0.returnURL)?.port }) else {
                    throw CancellationError()
                }
                holder.withLock { $0 = (try? connectSilently(port: port)) ?? -1 }
                try browser(url)
            })
            delegateBox.withLock { $0 = delegate }
            defer { holder.withLock { if $0 >= 0 { close($0) } } }
            let result = try await auth.signIn(with: OAuthProvider(providerID: "github.com", auth: auth), uiDelegate: delegate)
            #expect(result.additionalUserInfo?.providerID == "github.com")
            #expect(holder.withLock { $0 } >= 0, "the silent connection was made")
        }
    }
}

/// Opens a TCP connection to 127.0.0.1:`port` and sends nothing.
private func connectSilently(port: Int) throws -> Int32 {
    #if canImport(Darwin)
    let fd = socket(AF_INET, SOCK_STREAM, 0)
    #else
    let fd = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
    #endif
    guard fd >= 0 else { throw CancellationError() }
    var address = sockaddr_in()
    address.sin_family = sa_family_t(AF_INET)
    address.sin_port = UInt16(port).bigEndian
    address.sin_addr.s_addr = inet_addr("127.0.0.1")
    let connected = withUnsafePointer(to: &address) {
        $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { connect(fd, $0, socklen_t(MemoryLayout<sockaddr_in>.size)) }
    }
    guard connected == 0 else {
        close(fd)
        throw CancellationError()
    }
    return fd
}

/// Every provider whose sandbox answers the scripted consent with redirects, through the SDK and a loopback
/// listener. (Apple answers with a self-submitting `form_post` page that needs a real browser: the server
/// tests and scripts/browser-sign-in-demo.sh cover it.)
@Suite struct LoopbackEveryProviderTests {
    static let cases: [(String, SandboxIdentity)] = [
        ("google.com", .googleWorkspace), ("microsoft.com", .microsoftPersonal), ("facebook.com", .facebookUser),
        ("github.com", .githubUser), ("twitter.com", .twitterUser), (SandboxIdentity.oidcUser.provider.firebaseProviderID, .oidcUser),
    ]

    @Test("signIn(with: provider, uiDelegate:) through the sandbox", arguments: cases)
    func signIn(providerID: String, identity: SandboxIdentity) async throws {
        try await withLiveHearth { live in
            let auth = makeAuth(live)
            let delegate = try LoopbackBrowser.delegate(openBrowser: LoopbackBrowserTests.scriptedBrowser(subject: identity.subject))
            let result = try await auth.signIn(with: OAuthProvider(providerID: providerID, auth: auth), uiDelegate: delegate)
            #expect(result.additionalUserInfo?.providerID == providerID)
            #expect(result.additionalUserInfo?.isNewUser == true)
            #expect(result.user.providerData.map(\.providerID) == [providerID])
            if providerID == "twitter.com" { #expect(result.credential?.secret?.isEmpty == false) }
        }
    }
}

/// Sign in with Apple through the SDK: Apple answers the consent with an auto-submitting `form_post` page,
/// which this "browser" submits the way a browser runs its `onload` script.
@Suite struct LoopbackAppleTests {
    /// - Parameter posted: receives the names of the fields each `form_post` sent back to the handler.
    static func formPostingBrowser(subject: String, posted: Recorder<[String]>? = nil) -> @Sendable (URL) throws -> Void {
        { url in
            var components = URLComponents(url: url, resolvingAgainstBaseURL: false)!
            components.queryItems =
                (components.queryItems ?? []) + [
                    URLQueryItem(name: "sandbox_subject", value: subject), URLQueryItem(name: "sandbox_decision", value: "approve"),
                ]
            let target = components.url!
            Task.detached {
                guard let (data, _) = try? await URLSession.shared.data(from: target) else { return }
                let page = String(decoding: data, as: UTF8.self)
                guard let action = Self.firstMatch(#"<form method="post" action="([^"]*)""#, in: page).first else { return }
                let pairs = Self.allMatches(#"<input type="hidden" name="([^"]*)" value="([^"]*)">"#, in: page)
                posted?.append(pairs.compactMap(\.first))
                var allowed = CharacterSet.alphanumerics
                allowed.insert(charactersIn: "-._~")
                let body = pairs.map { pair in
                    pair.map { Self.unescape($0).addingPercentEncoding(withAllowedCharacters: allowed) ?? "" }.joined(separator: "=")
                }.joined(separator: "&")
                var request = URLRequest(url: URL(string: Self.unescape(action))!)
                request.httpMethod = "POST"
                request.setValue("application/x-www-form-urlencoded", forHTTPHeaderField: "Content-Type")
                request.httpBody = Data(body.utf8)
                _ = try? await URLSession.shared.data(for: request)
            }
        }
    }

    static func unescape(_ text: String) -> String {
        text.replacingOccurrences(of: "&quot;", with: "\"").replacingOccurrences(of: "&#39;", with: "'")
            .replacingOccurrences(of: "&lt;", with: "<").replacingOccurrences(of: "&gt;", with: ">")
            .replacingOccurrences(of: "&amp;", with: "&")
    }

    static func firstMatch(_ pattern: String, in text: String) -> [String] {
        allMatches(pattern, in: text).first ?? []
    }

    static func allMatches(_ pattern: String, in text: String) -> [[String]] {
        guard let expression = try? NSRegularExpression(pattern: pattern) else { return [] }
        let range = NSRange(text.startIndex..., in: text)
        return expression.matches(in: text, range: range).map { match in
            (1..<match.numberOfRanges).compactMap { Range(match.range(at: $0), in: text).map { String(text[$0]) } }
        }
    }

    @Test("Apple through the browser: form_post back to the handler; the name on the first sign-in only, kept after the second")
    func apple() async throws {
        try await withLiveHearth { live in
            let auth = makeAuth(live)
            let apple = OAuthProvider(providerID: "apple.com", auth: auth)
            apple.scopes = ["email", "name"]
            let posted = Recorder<[String]>()
            let delegate = try LoopbackBrowser.delegate(
                openBrowser: Self.formPostingBrowser(subject: SandboxIdentity.appleAlice.subject, posted: posted))
            let first = try await auth.signIn(with: apple, uiDelegate: delegate)
            #expect(first.additionalUserInfo?.providerID == "apple.com")
            #expect(first.additionalUserInfo?.isNewUser == true)
            #expect(first.user.email == SandboxIdentity.appleAlice.email)
            // Apple posts the name (the `user` JSON) the first time only; Hearth stores it on the account.
            #expect(posted.all.first?.contains("user") == true)
            let name = try #require(first.user.displayName)
            #expect(name == "Alice Appleseed")
            #expect(first.user.providerData.first { $0.providerID == "apple.com" }?.displayName == name)
            let uid = first.user.uid
            try auth.signOut()

            let second = try await auth.signIn(with: apple, uiDelegate: delegate)
            #expect(second.user.uid == uid)
            #expect(second.additionalUserInfo?.isNewUser == false)
            // The second time Apple sends no name, and the SDK reports none: the profile is the ID token's
            // claims, which never carry a name, and the credential has no name either.
            #expect(posted.count == 2)
            #expect(posted.all.last?.contains("user") == false)
            let profile = try #require(second.additionalUserInfo?.profile)
            #expect(profile["sub"] as? String == SandboxIdentity.appleAlice.subject)
            for key in ["name", "given_name", "family_name", "firstName", "lastName", "displayName", "fullName"] {
                #expect(profile[key] == nil, "profile has \(key)")
            }
            #expect(first.additionalUserInfo?.profile?["name"] == nil)
            // The name stored at the first sign-in stays, on the user, on its Apple identity, and in the ID token.
            #expect(second.user.displayName == name)
            #expect(second.user.providerData.first { $0.providerID == "apple.com" }?.displayName == name)
            try await second.user.reload()
            #expect(second.user.displayName == name)
            #expect(try await second.user.getIDTokenResult().claims["name"] as? String == name)
        }
    }
}
