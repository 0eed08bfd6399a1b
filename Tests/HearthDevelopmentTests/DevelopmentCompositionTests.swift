import AsyncHTTPClient
import Foundation
import HearthCore
import HearthProviders
import HearthTesting
import Logging
import NIOCore
import Testing

@testable import HearthDevelopment

/// Development mode's composition: the sandbox standing in for every provider left off, served by the server
/// itself under `/sandbox`, and the outbox of the mails the server queued.
@Suite("Development mode: the sandbox extension and the outbox")
struct DevelopmentCompositionTests {
    @Test("providers left off point at the server's /sandbox; one the configuration switches on is kept as configured")
    func providers() {
        let sandbox = SandboxExtension(clock: ManualClock().wallClock, logger: Logger(label: "hearth.tests.development"))
        var configured = ProvidersConfiguration()
        configured.google.enabled = true
        configured.google.clientIDs = ["real.apps.googleusercontent.com"]
        let filled = sandbox.providers(replacing: configured, baseURL: "http://127.0.0.1:9")

        #expect(sandbox.sandbox.baseURL == "http://127.0.0.1:9/sandbox")
        #expect(filled.google.enabled && filled.google.clientIDs == ["real.apps.googleusercontent.com"])
        #expect(filled.google.jwksURL == configured.google.jwksURL)
        #expect(!filled.google.jwksURL.absoluteString.contains("/sandbox"))
        #expect(filled.apple.enabled && filled.apple.jwksURL.absoluteString.hasPrefix("http://127.0.0.1:9/sandbox/"))
        #expect(filled.facebook.enabled && filled.facebook.graphBaseURL.absoluteString.hasPrefix("http://127.0.0.1:9/sandbox/"))
        #expect(filled.apple.bundleIDs == sandbox.sandbox.credentials.apple.bundleIDs)
    }

    /// As long as the live servers' own provider calls may take (60 s): the PostgreSQL pass of CI runs every HTTP suite
    /// at once on two cores, and a request there once took over 30 s.
    static let timeout = TimeAmount.seconds(60)

    static func get(_ url: String) async throws -> (status: Int, body: String) {
        let response = try await HTTPClient.shared.execute(HTTPClientRequest(url: url), timeout: Self.timeout)
        let body = try await response.body.collect(upTo: 1 << 20)
        return (Int(response.status.code), String(buffer: body))
    }

    static func post(_ url: String, _ json: String) async throws -> (status: Int, body: String) {
        var request = HTTPClientRequest(url: url)
        request.method = .POST
        request.headers.add(name: "Content-Type", value: "application/json")
        request.body = .bytes(ByteBuffer(string: json))
        let response = try await HTTPClient.shared.execute(request, timeout: Self.timeout)
        return (Int(response.status.code), String(buffer: try await response.body.collect(upTo: 1 << 20)))
    }

    @Test("a live server serves the sandbox's endpoints, and lists its queued mails at /sandbox/mail and in the emulator's oobCodes")
    func served() async throws {
        try await withLiveHearth { live in
            // The stand-in's keys come from the server's own port.
            let jwks = try await Self.get(live.sandbox.endpoints().google.jwksURL)
            #expect(live.sandbox.endpoints().google.jwksURL.hasPrefix(live.baseURL + "/sandbox/"))
            #expect(jwks.status == 200 && jwks.body.contains("\"keys\""), "\(jwks.body)")

            let api = "\(live.baseURL)/v1/accounts"
            for email in ["ada@example.com", "bob&co@example.com"] {
                #expect(try await Self.post("\(api):signUp?key=\(live.apiKey)", #"{"email":"\#(email)","password":"analytical"}"#).status == 200)
                let sent = try await Self.post("\(api):sendOobCode?key=\(live.apiKey)", #"{"requestType":"PASSWORD_RESET","email":"\#(email)"}"#)
                #expect(sent.status == 200, "\(sent.body)")
            }

            let listing = try await Self.get("\(live.baseURL)/emulator/v1/projects/\(live.projectID)/oobCodes")
            struct Listing: Decodable {
                struct Code: Decodable {
                    let email: String
                    let oobCode: String
                    let oobLink: String
                    let requestType: String
                }
                let oobCodes: [Code]
            }
            let codes = try JSONDecoder().decode(Listing.self, from: Data(listing.body.utf8)).oobCodes
            // Oldest first, each link the action link that carries its code.
            #expect(codes.map(\.email) == ["ada@example.com", "bob&co@example.com"])
            #expect(codes.allSatisfy { $0.requestType == "PASSWORD_RESET" && $0.oobLink.contains("oobCode=\($0.oobCode)") && !$0.oobCode.isEmpty })
            #expect(try await Self.get("\(live.baseURL)/emulator/v1/projects/other/oobCodes").status == 404)

            let page = try await Self.get("\(live.baseURL)/sandbox/mail")
            #expect(page.status == 200)
            // Newest first, the address escaped, the link clickable.
            let bob = try #require(page.body.range(of: "bob&amp;co@example.com"))
            let ada = try #require(page.body.range(of: "ada@example.com"))
            #expect(bob.lowerBound < ada.lowerBound)
            let link = codes[0].oobLink.replacingOccurrences(of: "&", with: "&amp;")
            #expect(page.body.contains(#"<a href="\#(link)">"#), "\(page.body)")
        }
    }

    @Test("the outbox's text helpers: the action link among a mail's URLs, HTML escaped, URLs made links")
    func outboxText() {
        let text = "Hello <b>\nOpen https://example.com/help or\nhttp://127.0.0.1:1/__/auth/action?mode=resetPassword&oobCode=abc&apiKey=k\n"
        #expect(
            MailOutbox.urls(in: text) == ["https://example.com/help", "http://127.0.0.1:1/__/auth/action?mode=resetPassword&oobCode=abc&apiKey=k"])
        #expect(MailOutbox.actionLink(in: text) == "http://127.0.0.1:1/__/auth/action?mode=resetPassword&oobCode=abc&apiKey=k")
        #expect(MailOutbox.actionLink(in: "no links here") == nil)
        #expect(MailOutbox.escaped(#"<a href="x">&'"#) == "&lt;a href=&quot;x&quot;&gt;&amp;&#39;")
        let html = MailOutbox.linked("see https://example.com/a?b=1&c=2 <now>")
        #expect(html == #"see <a href="https://example.com/a?b=1&amp;c=2">https://example.com/a?b=1&amp;c=2</a> &lt;now&gt;"#)
    }
}
