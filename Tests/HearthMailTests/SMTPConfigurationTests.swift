import HearthMail
import Testing

@Suite struct SMTPConfigurationTests {
    @Test func smtpMeansStartTLSOnPort587() throws {
        let configuration = try SMTPConfiguration(url: "smtp://mail.example.com")
        #expect(configuration.host == "mail.example.com")
        #expect(configuration.port == 587)
        #expect(configuration.security == .startTLS)
        #expect(configuration.username == nil && configuration.password == nil)
        #expect(configuration.timeout == .seconds(30))
        #expect(configuration.heloName == "localhost")
        #expect(configuration.trustRoots == .system)
    }

    @Test func smtpsMeansImplicitTLSOnPort465() throws {
        let configuration = try SMTPConfiguration(url: "SMTPS://hearth:secret@Mail.Example.com/")
        #expect(configuration.security == .implicitTLS)
        #expect(configuration.port == 465)
        #expect(configuration.host == "mail.example.com")
        #expect(configuration.username == "hearth" && configuration.password == "secret")
    }

    @Test func startTLSOffIsPlain() throws {
        let configuration = try SMTPConfiguration(url: "smtp://127.0.0.1:2525?starttls=off")
        #expect(configuration.security == .none)
        #expect(configuration.port == 2525)
        let relay = try SMTPConfiguration(url: "smtp://localhost?starttls=off")
        #expect(relay.port == 25)
    }

    @Test func userAndPasswordArePercentDecoded() throws {
        let configuration = try SMTPConfiguration(url: "smtp://no-reply%40hearth.example:p%40ss%3Aw%2Frd%20%E0%A4%AA%E0%A4%BE@mail.example.com:2587")
        #expect(configuration.username == "no-reply@hearth.example")
        #expect(configuration.password == "p@ss:w/rd पा")
        #expect(configuration.port == 2587)
        // The last @ ends the user information; a : in the password stays.
        let raw = try SMTPConfiguration(url: "smtp://user:pa:ss@word@mail.example.com")
        #expect(raw.password == "pa:ss@word")
        #expect(raw.host == "mail.example.com")
    }

    @Test func ipv6HostsGoInBrackets() throws {
        let configuration = try SMTPConfiguration(url: "smtp://[::1]:2525?starttls=off")
        #expect(configuration.host == "::1")
        #expect(configuration.port == 2525)
        #expect(configuration.isLoopback)
    }

    @Test(arguments: [
        ("http://mail.example.com", "scheme"),
        ("mail.example.com", "expected smtp://"),
        ("smtp://", "host is missing"),
        ("smtp://:25", "host is missing"),
        ("smtp://mail.example.com:0", "port"),
        ("smtp://mail.example.com:99999", "port"),
        ("smtp://mail.example.com:abc", "port"),
        ("smtp://mail.example.com/path", "path"),
        ("smtp://mail.example.com?starttls=maybe", "starttls must be on or off"),
        ("smtps://mail.example.com?starttls=off", "not smtps"),
        ("smtp://mail.example.com?timeout=5", "unknown parameter \"timeout\""),
        ("smtp://user@mail.example.com", "no password"),
        ("smtp://:secret@mail.example.com", "user name is empty"),
        ("smtp://user:se%ZZcret@mail.example.com", "the password has a %"),
        ("smtp://us%2:secret@mail.example.com", "the user name has a %"),
        ("smtp://user:%FF%FE@mail.example.com", "the password is not UTF-8"),
        ("smtp://[::1:25", "closing bracket"),
        ("smtp://mail example.com", "whitespace"),
    ])
    func invalidURLsAreRefusedWithTheReason(url: String, reason: String) {
        do {
            _ = try SMTPConfiguration(url: url)
            Issue.record("\(url) was accepted")
        } catch {
            #expect(error.code == .invalidConfiguration)
            #expect(error.description.contains(reason), "\(error.description)")
            #expect(error.isPermanent)
        }
    }

    @Test func credentialsInClearTextToAnotherHostAreRefused() {
        do {
            _ = try SMTPConfiguration(url: "smtp://hearth:Secret-42@mail.example.com?starttls=off")
            Issue.record("accepted")
        } catch {
            #expect(error.code == .insecureCredentials)
            #expect(error.isPermanent)
            #expect(!error.description.contains("Secret-42"))
        }
        #expect(throws: Never.self) { try SMTPConfiguration(url: "smtp://hearth:Secret-42@127.0.0.1:2525?starttls=off") }
        #expect(throws: Never.self) { try SMTPConfiguration(url: "smtp://mail.example.com?starttls=off") }
    }

    @Test(arguments: ["localhost", "LOCALHOST", "127.0.0.1", "127.1.2.3", "::1", "[::1]", "relay.localhost"])
    func loopbackHosts(host: String) {
        #expect(SMTPConfiguration(host: host).isLoopback)
    }

    @Test(arguments: ["mail.example.com", "128.0.0.1", "127.0.0.1.example.com", "10.0.0.1", "::2", "localhost.example.com"])
    func otherHosts(host: String) {
        #expect(!SMTPConfiguration(host: host).isLoopback)
    }

    @Test func thePasswordIsInNoDescription() throws {
        let password = "Pa55-w0rd-!@#-unique"
        let configuration = try SMTPConfiguration(url: "smtps://hearth:\(password.replacingPercent)@mail.example.com")
        #expect(configuration.password == password)
        let texts = [
            "\(configuration)", String(reflecting: configuration), String(describing: configuration),
            dumped(configuration), "\(Mirror(reflecting: configuration).children.map { "\($0.value)" })",
        ]
        for text in texts {
            #expect(!text.contains(password), "\(text)")
            #expect(!text.contains("Pa55"), "\(text)")
        }
        #expect("\(configuration)".contains("hearth:<redacted>@mail.example.com:465"))
    }

    private func dumped(_ value: some Any) -> String {
        var text = ""
        dump(value, to: &text)
        return text
    }
}

extension String {
    /// Percent-encodes what a URL's user information cannot hold as it is.
    fileprivate var replacingPercent: String {
        var result = ""
        for byte in utf8 {
            let character = Character(UnicodeScalar(byte))
            if character.isLetter || character.isNumber || character == "-" {
                result.append(character)
            } else {
                result += "%" + String(byte, radix: 16, uppercase: true).leftPadded
            }
        }
        return result
    }

    fileprivate var leftPadded: String { count == 1 ? "0" + self : self }
}
