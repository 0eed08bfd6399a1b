import HearthProviders
import Testing

/// Return URLs are compared as parsed URLs; every look-alike that a string prefix let through is refused.
@Suite struct ReturnURLTests {
    typealias Settings = ProvidersConfiguration.BrowserSignIn

    static let production = Settings(returnURLs: ["https://app.example.com", "https://www.example.com/auth", "com.example.app:/oauth"])

    @Test(
        "look-alikes of a registered web origin are refused",
        arguments: [
            "https://app.example.com.evil.example/steal",
            "https://app.example.com@evil.example/",
            "https://app.example.com:443@evil.example/",
            "https://user:pass@app.example.com/",
            "https://app.example.com\\@evil.example/",
            "https:\\\\app.example.com/",
            "https:app.example.com/",
            "https:///app.example.com/",
            "https://app.example.com:8443/",
            "http://app.example.com/",
            "https://app%2eexample.com/",
            "https://app.example.com\t.evil.example/",
            "https://app.example.com\n/",
            "https://app.example.com\u{0000}.evil.example/",
            "https://app.example.com /",
            "https://evil.example/app.example.com",
            "https://www.example.com/authx",
            "https://www.example.com/auth/../steal",
            "https://www.example.com/auth/%2e%2e/steal",
            "https://www.example.com/auth%2fsteal",
            "https://www.example.com/",
            "com.example.app:/oauthx",
            "com.example.app:/oauth/../x",
            "com.example.app.evil:/oauth",
            "com.example.app://evil@oauth",
            "https://app.example.com:0/",
            "https://app.example.com:65536/",
            "https://app.example.com:/",
            "https://[::1/",
            "javascript:alert(1)",
            "",
        ])
    func lookAlikes(_ text: String) {
        #expect(!Self.production.acceptsReturnURL(text))
    }

    @Test(
        "registered return URLs match by scheme, host, port and path segment",
        arguments: [
            "https://app.example.com",
            "https://app.example.com/",
            "https://APP.Example.COM/steal-nothing",
            "HTTPS://app.example.com:443/x?next=https://evil.example",
            "https://www.example.com/auth",
            "https://www.example.com/auth/",
            "https://www.example.com/auth/done?x=1#frag",
            "com.example.app:/oauth",
            "com.example.app:/oauth?link=1",
            "com.example.app:/oauth/callback",
            "http://127.0.0.1:61000/callback",
            "http://[::1]:8123/done",
            "http://localhost:9000/",
        ])
    func registered(_ text: String) {
        #expect(Self.production.acceptsReturnURL(text))
    }

    @Test("loopback is exact: no look-alike hosts, no user info")
    func loopback() {
        for text in [
            "https://127.0.0.1.evil.example/", "http://localhost.evil.example/", "http://127.0.0.1@evil.example/", "http://evil@127.0.0.1/",
            "http://127.1/",
        ] {
            #expect(!Self.production.acceptsReturnURL(text), "\(text)")
        }
    }

    @Test("development mode accepts app schemes only, never schemes a browser handles itself")
    func developmentSchemes() {
        let development = Settings(returnURLs: [], acceptsAnyCustomScheme: true)
        for text in [
            "com.other.app:/oauth", "com.googleusercontent.apps.123-abc:/oauth2redirect", "app-1-123456789-ios-0a1b2c:/", "http://127.0.0.1:1/",
        ] {
            #expect(development.acceptsReturnURL(text), "\(text)")
        }
        for text in [
            "ftp://evil.example/", "ws://evil.example/", "wss://evil.example/", "vbscript:msgbox(1)", "javascript:alert(1)",
            "data:text/html,hi", "file:///etc/passwd", "blob:https://evil.example/1", "about:blank", "https://evil.example/",
            "http://evil.example/", "intent://evil#Intent;end", "app-1-x-ios-0a:/", ".com:/", "com.:/",
        ] {
            #expect(!development.acceptsReturnURL(text), "\(text)")
        }
    }

    @Test("internationalised hosts compare in their ASCII form")
    func internationalisedHosts() {
        let settings = Settings(returnURLs: ["https://bücher.example/"])
        #expect(settings.acceptsReturnURL("https://xn--bcher-kva.example/x"))
        #expect(settings.acceptsReturnURL("https://BÜCHER.example/x"))
        #expect(!settings.acceptsReturnURL("https://bucher.example/x"))
        #expect(ReturnURL("https://münchen.example/")?.host == "xn--mnchen-3ya.example")
        #expect(ReturnURL("https://例え.テスト/")?.host == "xn--r8jz45g.xn--zckzah")
    }
}
