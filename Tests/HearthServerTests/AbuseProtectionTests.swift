import Configuration
import Foundation
import HTTPTypes
import HearthConfiguration
import HearthCore
import HearthSandbox
import HearthServer
import HearthTesting
import HearthWire
import Hummingbird
import HummingbirdTesting
import Testing

/// Like ``withHearth(_:_:)``, over a real socket on loopback: the server sees a peer address
/// (127.0.0.1), and with `abuse.trustedProxies` covering it, tests pick client addresses through
/// `X-Forwarded-For`.
func withLiveSocket(
    _ configure: (inout ServerConfiguration) -> Void = { _ in },
    _ body: @Sendable (TestHearth, FirebaseTestClient) async throws -> Void
) async throws {
    let hearth = try await TestHearth.make(configure)
    defer { hearth.removeFiles() }
    do {
        let app = Application(
            router: buildRouter(services: hearth.services),
            configuration: .init(address: .hostname("127.0.0.1", port: 0)))
        // Requests go through the patient client (300 s): HummingbirdTesting's live client gives up after 20 s,
        // which a loaded two-core CI machine has exceeded.
        try await app.test(.live) { client in
            try await body(hearth, FirebaseTestClient(baseURL: "http://127.0.0.1:\(try #require(client.port))"))
        }
        try await hearth.close()
    } catch {
        try? await hearth.close()
        throw error
    }
}

private func from(_ address: String) -> HTTPFields {
    [HTTPField.Name("x-forwarded-for")!: address]
}

private func signIn(_ client: FirebaseTestClient, _ email: String, _ password: String, from address: String? = nil) async throws -> WireResult {
    try await client.post(
        "/v1/accounts:signInWithPassword",
        json: JSONValue.object(["email": .string(email), "password": .string(password), "returnSecureToken": .bool(true)]).jsonText,
        headers: address.map(from) ?? [:])
}

@Suite("Password guesses are reserved before hashing")
struct ConcurrentGuessTests {
    @Test("100 guesses at once, the right password among them, a limit of 10: at most 10 are checked")
    func concurrentGuesses() async throws {
        try await withHearth({ $0.abuse.lockout.account.failuresBeforeWait = 10 }) { hearth, client async throws in
            _ = try await client.signUp(email: "target@example.com", password: "the-right-one")
            let checksBefore = hearth.services.passwordChecks.all
            let right = Int.random(in: 0..<100)
            let messages = try await withThrowingTaskGroup(of: String.self) { group in
                for index in 0..<100 {
                    group.addTask {
                        let result = try await client.signIn(
                            email: "target@example.com", password: index == right ? "the-right-one" : "guess-\(index)")
                        return result.status == .ok ? "OK" : (result.errorMessage ?? "?")
                    }
                }
                return try await group.reduce(into: [String]()) { $0.append($1) }
            }
            let checked = hearth.services.passwordChecks.all - checksBefore
            #expect(checked <= 10, "\(checked) passwords were checked")
            #expect(messages.filter { $0 == accountLockedMessage }.count >= 90)
            #expect(messages.filter { $0 == "INVALID_PASSWORD" || $0 == "OK" }.count == checked)
            #expect(Set(messages).isSubset(of: ["OK", "INVALID_PASSWORD", accountLockedMessage]), "\(Set(messages))")
        }
    }

    @Test("the refusal carries Retry-After, and the waits grow with every further failure up to the maximum")
    func growingWaits() async throws {
        try await withHearth({
            $0.abuse.lockout.account.failuresBeforeWait = 3
            $0.abuse.lockout.account.waitIncrement = 60
            $0.abuse.lockout.account.maxWait = 150
        }) { hearth, client async throws in
            _ = try await client.signUp(email: "ada@example.com", password: "secret1")
            for _ in 0..<3 { #expect(try await client.signIn(email: "ada@example.com", password: "wrong-1").errorMessage == "INVALID_PASSWORD") }
            var refused = try await client.signIn(email: "ada@example.com", password: "secret1")
            #expect(refused.status == .badRequest)
            #expect(refused.errorMessage == accountLockedMessage)
            #expect(refused.headers[.retryAfter] == "60")
            for expected in ["120", "150", "150"] {
                hearth.clock.advance(by: Double(refused.headers[.retryAfter].flatMap { Int($0) } ?? 0))
                #expect(try await client.signIn(email: "ada@example.com", password: "wrong-1").errorMessage == "INVALID_PASSWORD")
                refused = try await client.signIn(email: "ada@example.com", password: "secret1")
                #expect(refused.headers[.retryAfter] == expected)
            }
            hearth.clock.advance(by: 150)
            #expect(try await client.signIn(email: "ada@example.com", password: "secret1").status == .ok)
            // The success forgave the failures: the owner's next typo costs nothing.
            #expect(try await client.signIn(email: "ada@example.com", password: "wrong-1").errorMessage == "INVALID_PASSWORD")
            #expect(try await client.signIn(email: "ada@example.com", password: "secret1").status == .ok)
        }
    }

    @Test("unknown e-mails are locked like known ones, so the lockout does not tell them apart")
    func unknownEmailsLockToo() async throws {
        try await withHearth({ $0.abuse.lockout.account.failuresBeforeWait = 2 }) { _, client async throws in
            for _ in 0..<2 { #expect(try await client.signIn(email: "nobody@example.com", password: "x-x-x-x").errorMessage == "EMAIL_NOT_FOUND") }
            #expect(try await client.signIn(email: "nobody@example.com", password: "x-x-x-x").errorMessage == accountLockedMessage)
        }
    }
}

@Suite("Password lockout per account and address")
struct LockoutTests {
    @Test("an attacker's address locks the account; the owner's right password from a new address still works")
    func ownerFromNewAddress() async throws {
        try await withLiveSocket({
            $0.abuse.trustedProxies = ["127.0.0.0/8"]
            $0.abuse.lockout.account.failuresBeforeWait = 3
        }) { _, client async throws in
            _ = try await client.signUp(email: "owner@example.com", password: "owner-pass")
            for _ in 0..<3 {
                #expect(try await signIn(client, "owner@example.com", "guess-it", from: "203.0.113.66").errorMessage == "INVALID_PASSWORD")
            }
            // The attacker's address, even with the right password, waits…
            #expect(try await signIn(client, "owner@example.com", "owner-pass", from: "203.0.113.66").errorMessage == accountLockedMessage)
            // …the owner, from an address without failures, gets in, and that ends the lockout.
            #expect(try await signIn(client, "owner@example.com", "owner-pass", from: "198.51.100.7").status == .ok)
            #expect(try await signIn(client, "owner@example.com", "guess-it", from: "203.0.113.66").errorMessage == "INVALID_PASSWORD")
        }
    }

    @Test("while the account waits each new address gets one try; with ownerFromNewIP off none")
    func newAddressesOneTryEach() async throws {
        try await withLiveSocket({
            $0.abuse.trustedProxies = ["127.0.0.0/8"]
            $0.abuse.lockout.account.failuresBeforeWait = 2
        }) { _, client async throws in
            _ = try await client.signUp(email: "owner@example.com", password: "owner-pass")
            for _ in 0..<2 { _ = try await signIn(client, "owner@example.com", "guess-it", from: "203.0.113.1") }
            #expect(try await signIn(client, "owner@example.com", "guess-it", from: "203.0.113.2").errorMessage == "INVALID_PASSWORD")
            #expect(try await signIn(client, "owner@example.com", "owner-pass", from: "203.0.113.2").errorMessage == accountLockedMessage)
        }
        try await withLiveSocket({
            $0.abuse.trustedProxies = ["127.0.0.0/8"]
            $0.abuse.lockout.account.failuresBeforeWait = 2
            $0.abuse.lockout.ownerFromNewAddress = false
        }) { _, client async throws in
            _ = try await client.signUp(email: "owner@example.com", password: "owner-pass")
            for _ in 0..<2 { _ = try await signIn(client, "owner@example.com", "guess-it", from: "203.0.113.1") }
            #expect(try await signIn(client, "owner@example.com", "owner-pass", from: "198.51.100.7").errorMessage == accountLockedMessage)
        }
    }

    @Test("an address guessing across accounts waits for every account, with plain TOO_MANY_ATTEMPTS_TRY_LATER")
    func addressLockout() async throws {
        try await withLiveSocket({
            $0.abuse.trustedProxies = ["127.0.0.0/8"]
            $0.abuse.lockout.address.failuresBeforeWait = 3
        }) { _, client async throws in
            _ = try await client.signUp(email: "victim@example.com", password: "victim-pass")
            for index in 0..<3 { _ = try await signIn(client, "user\(index)@example.com", "guess-it", from: "203.0.113.5") }
            let refused = try await signIn(client, "victim@example.com", "victim-pass", from: "203.0.113.5")
            #expect(refused.errorMessage == "TOO_MANY_ATTEMPTS_TRY_LATER")
            #expect(refused.headers[.retryAfter] == "60")
            #expect(try await signIn(client, "victim@example.com", "victim-pass", from: "198.51.100.7").status == .ok)
        }
    }

    @Test("hearth users unlock --email ends the lockout (the real binary, on the test's database)")
    func adminUnlock() async throws {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("hearth-unlock-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: directory) }
        let configure: (inout ServerConfiguration) -> Void = { $0.abuse.lockout.account.failuresBeforeWait = 2 }
        let first = try await TestHearth.make(directory: directory, configure)
        try await first.withClient { client async throws in
            _ = try await client.signUp(email: "Locked@Example.com", password: "owner-pass")
            for _ in 0..<2 { _ = try await client.signIn(email: "locked@example.com", password: "guess-it") }
            #expect(try await client.signIn(email: "locked@example.com", password: "owner-pass").errorMessage == accountLockedMessage)
        }
        try await first.close()

        // On SQLite the file is free once the server closed it; on PostgreSQL the same database.
        var environment: [String: String] = [:]
        if let url = first.configuration.databaseURL { environment["HEARTH_DATABASE_URL"] = url }
        let arguments = ["users", "unlock", "--data-dir", directory.path]
        let bad = try await HearthProcess.run(arguments + ["--email", "not-an-email"], environment: environment)
        #expect(bad.status == 2)
        #expect(bad.standardError.contains("--email"))
        let badAddress = try await HearthProcess.run(arguments + ["--ip", "999.1.1.1"], environment: environment)
        #expect(badAddress.status == 2)
        #expect(badAddress.standardError == "hearth: --ip: 999.1.1.1 is not an IP address\n")
        let unlocked = try await HearthProcess.run(arguments + ["--email", "LOCKED@example.com"], environment: environment)
        #expect(unlocked.status == 0, "\(unlocked.standardError)")
        #expect(unlocked.standardOutput == "unlocked (1 record(s) cleared)\n")
        let again = try await HearthProcess.run(arguments + ["--email", "locked@example.com"], environment: environment)
        #expect(again.standardOutput == "nothing to unlock\n")

        let second = try await TestHearth.make(directory: directory, clock: first.clock, configure)
        try await second.withClient { client async throws in
            #expect(try await client.signIn(email: "locked@example.com", password: "owner-pass").status == .ok)
        }
        try await second.close()
    }
}

@Suite("Per-address limits")
struct PerAddressLimitTests {
    @Test("new accounts, anonymous sign-ups, password sign-ins and createAuthUri: TOO_MANY_ATTEMPTS_TRY_LATER with Retry-After")
    func limits() async throws {
        try await withHearth({
            $0.abuse.limitsEnabled = true
            $0.abuse.limits.newAccounts.limit = 3
            $0.abuse.limits.anonymousSignUps.limit = 1
            $0.abuse.limits.passwordSignIns.limit = 2
            $0.abuse.limits.createAuthUri.limit = 1
        }) { hearth, client async throws in
            _ = try await client.signUpAnonymously()
            let anonymous = try await client.post("/v1/accounts:signUp", ["returnSecureToken": .bool(true)])
            #expect(anonymous.errorMessage == "TOO_MANY_ATTEMPTS_TRY_LATER")
            #expect(anonymous.status == .badRequest)
            #expect(anonymous.headers[.retryAfter] == "3600")

            _ = try await client.signUp(email: "one@example.com")
            // The third new account of the hour; a taken e-mail counts too (EMAIL_EXISTS probing is limited).
            let taken = try await client.post("/v1/accounts:signUp", ["email": .string("one@example.com"), "password": .string("secret1")])
            #expect(taken.errorMessage == "EMAIL_EXISTS")
            hearth.clock.advance(by: 600)
            let fourth = try await client.post("/v1/accounts:signUp", ["email": .string("four@example.com"), "password": .string("secret1")])
            #expect(fourth.errorMessage == "TOO_MANY_ATTEMPTS_TRY_LATER")
            #expect(fourth.headers[.retryAfter] == "3000")

            #expect(try await client.signIn(email: "one@example.com").status == .ok)
            #expect(try await client.signIn(email: "one@example.com").status == .ok)
            #expect(try await client.signIn(email: "one@example.com").errorMessage == "TOO_MANY_ATTEMPTS_TRY_LATER")

            let uri = ["identifier": JSONValue.string("one@example.com"), "continueUri": .string("http://localhost/")]
            #expect(try await client.post("/v1/accounts:createAuthUri", uri).status == .ok)
            #expect(try await client.post("/v1/accounts:createAuthUri", uri).errorMessage == "TOO_MANY_ATTEMPTS_TRY_LATER")

            // A new window starts afresh.
            hearth.clock.advance(by: 3_000)
            #expect(try await client.post("/v1/accounts:createAuthUri", uri).status == .ok)
            #expect(try await client.signUp(email: "five@example.com").localId.isEmpty == false)
        }
    }

    @Test("a federated sign-in that creates an account counts against the new-accounts limit; signing in again does not")
    func federatedNewAccounts() async throws {
        try await withFederated({
            $0.abuse.limitsEnabled = true
            $0.abuse.limits.newAccounts.limit = 1
        }) { live, client in
            let first = try await client.signInWithIdp(try live.sandbox.signInCredential(for: .githubUser).postBody)
            #expect(first.status == .ok, "\(first.text)")
            let again = try await client.signInWithIdp(try live.sandbox.signInCredential(for: .githubUser).postBody)
            #expect(again.status == .ok, "\(again.text)")
            let second = try await client.signInWithIdp(try live.sandbox.signInCredential(for: .googleGmail).postBody)
            #expect(second.errorMessage == "TOO_MANY_ATTEMPTS_TRY_LATER")
            #expect(second.headers[.retryAfter] != nil)
            #expect(try await live.services.store.countUsers() == 1)
        }
    }

    @Test("the limits count per client address: X-Forwarded-For from a trusted proxy, the peer otherwise")
    func perAddress() async throws {
        try await withLiveSocket({
            $0.abuse.limitsEnabled = true
            $0.abuse.limits.anonymousSignUps.limit = 1
            $0.abuse.trustedProxies = ["127.0.0.1"]
        }) { _, client async throws in
            let body = #"{"returnSecureToken":true}"#
            #expect(try await client.post("/v1/accounts:signUp", json: body, headers: from("203.0.113.1")).status == .ok)
            #expect(
                try await client.post("/v1/accounts:signUp", json: body, headers: from("203.0.113.1")).errorMessage == "TOO_MANY_ATTEMPTS_TRY_LATER")
            // What a client writes left of the proxy's entry changes nothing.
            #expect(
                try await client.post("/v1/accounts:signUp", json: body, headers: from("198.51.100.1, 203.0.113.1")).errorMessage
                    == "TOO_MANY_ATTEMPTS_TRY_LATER")
            #expect(try await client.post("/v1/accounts:signUp", json: body, headers: from("203.0.113.2")).status == .ok)
        }
        try await withLiveSocket({
            $0.abuse.limitsEnabled = true
            $0.abuse.limits.anonymousSignUps.limit = 1
        }) { _, client async throws in
            // No trusted proxy: the header is ignored, both requests come from 127.0.0.1.
            let body = #"{"returnSecureToken":true}"#
            #expect(try await client.post("/v1/accounts:signUp", json: body, headers: from("203.0.113.1")).status == .ok)
            #expect(
                try await client.post("/v1/accounts:signUp", json: body, headers: from("203.0.113.2")).errorMessage == "TOO_MANY_ATTEMPTS_TRY_LATER")
        }
    }

    @Test("parallel sign-ups from one address cannot slip past the limit")
    func parallelSignUps() async throws {
        try await withHearth({
            $0.abuse.limitsEnabled = true
            $0.abuse.limits.newAccounts.limit = 5
        }) { hearth, client async throws in
            let statuses = try await withThrowingTaskGroup(of: Bool.self) { group in
                for _ in 0..<30 {
                    group.addTask { try await client.post("/v1/accounts:signUp", ["returnSecureToken": .bool(true)]).status == .ok }
                }
                return try await group.reduce(into: [Bool]()) { $0.append($1) }
            }
            #expect(statuses.filter { $0 }.count == 5)
            #expect(try await hearth.services.store.countUsers() == 5)
        }
    }
}

@Suite("E-mail enumeration protection")
struct EnumerationProtectionTests {
    @Test("on by default for production configurations, off for development, and settable both ways")
    func defaults() throws {
        func read(_ values: [String: String], mode: ServerConfiguration.Mode) throws -> ServerConfiguration {
            var all = values
            if mode == .production {
                all["project.id"] = "acme-prod"
                all["project.apiKeys"] = "AIzaSyTestKeyForHearth01"
                all["secrets.key"] = KeyEncryptionKey.generate().base64
            }
            let provider = InMemoryProvider(
                values: Dictionary(
                    uniqueKeysWithValues: all.map { (AbsoluteConfigKey(stringLiteral: $0.key), ConfigValue(.string($0.value), isSecret: false)) }))
            return try ServerConfiguration(reader: ConfigReader(provider: provider), defaultMode: mode)
        }
        #expect(try read([:], mode: .production).signIn.emailEnumerationProtection)
        #expect(try read([:], mode: .production).abuse.limitsEnabled)
        #expect(try !read([:], mode: .development).signIn.emailEnumerationProtection)
        #expect(try !read([:], mode: .development).abuse.limitsEnabled)
        #expect(try !read(["signIn.emailEnumerationProtection": "false"], mode: .production).signIn.emailEnumerationProtection)
        #expect(try read(["signIn.emailEnumerationProtection": "true"], mode: .development).signIn.emailEnumerationProtection)
    }

    @Test("accounts:update refuses e-mail changes whether or not the address is taken; signUp still says EMAIL_EXISTS")
    func updateAndSignUp() async throws {
        try await withHearth({ $0.signIn.emailEnumerationProtection = true }) { _, client async throws in
            _ = try await client.signUp(email: "taken@example.com")
            let user = try await client.signUp(email: "mine@example.com")
            for email in ["taken@example.com", "free@example.com"] {
                let result = try await client.post("/v1/accounts:update", ["idToken": .string(user.idToken!), "email": .string(email)])
                #expect(result.errorMessage == "OPERATION_NOT_ALLOWED : Please verify the new email before changing email.")
            }
            // Its own address (any case) is no change; other updates still work.
            let same = try await client.post(
                "/v1/accounts:update", ["idToken": .string(user.idToken!), "email": .string("MINE@example.com"), "displayName": .string("Me")])
            #expect(same.status == .ok)
            #expect(
                try await client.post("/v1/accounts:signUp", ["email": .string("taken@example.com"), "password": .string("secret1")]).errorMessage
                    == "EMAIL_EXISTS")
        }
        try await withHearth { _, client async throws in
            _ = try await client.signUp(email: "taken@example.com")
            let user = try await client.signUp(email: "mine@example.com")
            let result = try await client.post("/v1/accounts:update", ["idToken": .string(user.idToken!), "email": .string("taken@example.com")])
            #expect(result.errorMessage == "EMAIL_EXISTS")
        }
    }

    @Test("every password sign-in without a real hash checks the decoy hash (unknown e-mail, account without password)", arguments: [false, true])
    func decoyChecks(protected: Bool) async throws {
        try await withHearth({ $0.signIn.emailEnumerationProtection = protected }) { hearth, client async throws in
            let checks = hearth.services.passwordChecks
            let anonymous = try await client.signUpAnonymously()
            try await hearth.services.store.updateUser(uid: anonymous.localId, session: nil) { $0.email = "bare@example.com" }
            _ = try await client.signUp(email: "ada@example.com", password: "secret1")

            let before = (all: checks.all, decoy: checks.decoy)
            let unknown = try await client.signIn(email: "nobody@example.com")
            #expect(unknown.errorMessage == (protected ? "INVALID_LOGIN_CREDENTIALS" : "EMAIL_NOT_FOUND"))
            #expect((checks.all, checks.decoy) == (before.all + 1, before.decoy + 1))
            let bare = try await client.signIn(email: "bare@example.com")
            #expect(bare.errorMessage == (protected ? "INVALID_LOGIN_CREDENTIALS" : "INVALID_PASSWORD"))
            #expect((checks.all, checks.decoy) == (before.all + 2, before.decoy + 2))
            let wrong = try await client.signIn(email: "ada@example.com", password: "wrong-1")
            #expect(wrong.errorMessage == (protected ? "INVALID_LOGIN_CREDENTIALS" : "INVALID_PASSWORD"))
            #expect((checks.all, checks.decoy) == (before.all + 3, before.decoy + 2))
        }
    }
}

@Suite("Abuse protection settings")
struct AbuseConfigurationTests {
    func read(_ values: [String: String]) throws -> ServerConfiguration {
        let provider = InMemoryProvider(
            values: Dictionary(
                uniqueKeysWithValues: values.map {
                    (AbsoluteConfigKey(stringLiteral: $0.key), ConfigValue(.string($0.value), isSecret: false))
                }))
        return try ServerConfiguration(reader: ConfigReader(provider: provider), defaultMode: .development)
    }

    func problem(_ values: [String: String]) -> String? {
        do {
            _ = try read(values)
            return nil
        } catch {
            return "\(error)"
        }
    }

    @Test("every abuse key is read")
    func keys() throws {
        let configuration = try read([
            "abuse.limits.enabled": "true",
            "abuse.limits.newAccounts.limit": "7", "abuse.limits.newAccounts.windowSeconds": "60",
            "abuse.limits.anonymousSignUps.limit": "0",
            "abuse.limits.passwordSignIns.limit": "50",
            "abuse.limits.createAuthUri.windowSeconds": "86400",
            "abuse.limits.mailSending.limit": "3",
            "abuse.trustedProxies": "10.0.0.0/8, fd00::/8, 192.0.2.7",
            "abuse.lockout.accountFailures": "5", "abuse.lockout.addressFailures": "0",
            "abuse.lockout.waitIncrementSeconds": "30", "abuse.lockout.maxWaitSeconds": "600",
            "abuse.lockout.failureResetSeconds": "3600",
            "abuse.lockout.quickFailureMilliseconds": "1000", "abuse.lockout.quickFailureWaitSeconds": "45",
            "abuse.lockout.ownerFromNewIP": "false",
        ])
        let abuse = configuration.abuse
        #expect(abuse.limitsEnabled)
        #expect(abuse.limits.newAccounts == RateLimit("new-accounts", limit: 7, window: 60))
        #expect(!abuse.limits.anonymousSignUps.isEnabled)
        #expect(abuse.limits.passwordSignIns.limit == 50)
        #expect(abuse.limits.createAuthUri == RateLimit("create-auth-uri", limit: 300, window: 86_400))
        #expect(abuse.limits.mailSending.limit == 3)
        #expect(abuse.trustedProxies == ["10.0.0.0/8", "fd00::/8", "192.0.2.7"])
        #expect(
            abuse.lockout.account
                == LockoutPolicy(
                    failuresBeforeWait: 5, waitIncrement: 30, maxWait: 600, failureReset: 3_600, quickFailureInterval: 1, quickFailureWait: 45))
        #expect(abuse.lockout.address.failuresBeforeWait == 0)
        #expect(!abuse.lockout.address.successForgivesEarlierFailures)
        #expect(!abuse.lockout.ownerFromNewAddress)

        let defaults = try read([:]).abuse
        #expect(defaults.limits.newAccounts == RateLimit("new-accounts", limit: 100, window: 3_600))
        #expect(defaults.lockout.account.failuresBeforeWait == 10)
        #expect(defaults.lockout.address.failuresBeforeWait == 100)
        #expect(defaults.lockout.ownerFromNewAddress)
    }

    @Test("wrong values are refused with a message naming the key")
    func refused() {
        #expect(
            problem(["abuse.trustedProxies": "10.0.0.0/8, proxy.example.com"])
                == "invalid configuration: abuse.trustedProxies: proxy.example.com is not an IP address or CIDR block (e.g. 10.0.0.0/8, fd00::/8)")
        #expect(problem(["abuse.trustedProxies": "10.0.0.0/40"])?.contains("abuse.trustedProxies") == true)
        #expect(problem(["abuse.lockout.accountFailures": "0"]) == "invalid configuration: abuse.lockout.accountFailures: 0 is outside 1...10000")
        #expect(
            problem(["abuse.lockout.maxWaitSeconds": "30"])
                == "invalid configuration: abuse.lockout.maxWaitSeconds: must be at least abuse.lockout.waitIncrementSeconds (60)")
        #expect(problem(["abuse.limits.newAccounts.limit": "-1"])?.contains("abuse.limits.newAccounts.limit") == true)
        #expect(problem(["abuse.limits.enabled": "perhaps"]) == "invalid configuration: abuse.limits.enabled: expected true or false, got perhaps")
        #expect(
            problem(["security.passwordFailureLimit": "5"])
                == "invalid configuration: security.passwordFailureLimit: replaced by the abuse.lockout.* keys (see docs/configuration.md)")
    }

    @Test("with addressFailures 0 no address is counted, and an account that waits refuses every address")
    func noAddressCounting() async throws {
        try await withLiveSocket({
            $0.abuse.trustedProxies = ["127.0.0.0/8"]
            $0.abuse.lockout.account.failuresBeforeWait = 2
            $0.abuse.lockout.address.failuresBeforeWait = 0
        }) { hearth, client async throws in
            _ = try await client.signUp(email: "owner@example.com", password: "owner-pass")
            for _ in 0..<2 { _ = try await signIn(client, "owner@example.com", "guess-it", from: "203.0.113.1") }
            #expect(try await signIn(client, "owner@example.com", "owner-pass", from: "198.51.100.7").errorMessage == accountLockedMessage)
            #expect(try await hearth.services.store.loginFailures(["address:203.0.113.1", "address:198.51.100.7"]).isEmpty)
        }
    }

    @Test("the pruning service deletes forgotten lockout records and ended counter windows")
    func pruning() async throws {
        try await withHearth({ $0.abuse.lockout.account.failuresBeforeWait = 2 }) { hearth, client async throws in
            for _ in 0..<2 { _ = try await client.signIn(email: "someone@example.com", password: "guess-it") }
            let service = AbusePruningService(services: hearth.services)
            #expect(try await service.runOnce() == 0)  // the account waits, the address failed just now
            hearth.clock.advance(by: 43_200)
            #expect(try await service.runOnce() == 0)  // forgotten only after more than the reset time
            hearth.clock.advance(by: 1)
            #expect(try await service.runOnce() == 2)
            #expect(try await hearth.services.store.loginFailures(["account:someone@example.com", "address:unknown"]).isEmpty)
        }
    }
}
