import AsyncHTTPClient
import Foundation
import HearthCore
import HearthDevelopment
import HearthProviders
import HearthSandbox
import HearthServer
import HearthStorage
import HearthStoragePostgres
import HearthTesting
import Logging
import NIOCore
import NIOFoundationCompat
import Testing

/// Several `hearth serve` processes on one PostgreSQL database behave as one service.
@Suite("Replicas on PostgreSQL", .serialized)
struct ReplicaTests {
    /// What one request came back with.
    enum Outcome: Sendable {
        case status(Int, [String: JSONValue])
        /// The connection failed (refused, reset or closed before the answer): the replica is gone.
        case cut(String)
        /// No answer within the client's limits: a hang, never acceptable.
        case timedOut(String)
    }

    /// Fails fast on a dead replica: no retries of connection establishment, a short connect timeout.
    static let client: HTTPClient = {
        var configuration = HTTPClient.Configuration(timeout: .init(connect: .seconds(2), read: .seconds(30)))
        configuration.connectionPool.retryConnectionEstablishment = false
        return HTTPClient(eventLoopGroupProvider: .singleton, configuration: configuration)
    }()

    static func post(_ base: String, _ path: String, _ body: [String: JSONValue]) async -> Outcome {
        var request = HTTPClientRequest(url: base + path + "?key=replica-test")
        request.method = .POST
        request.headers.add(name: "content-type", value: "application/json")
        request.body = .bytes(ByteBuffer(string: JSONValue.object(body).jsonText))
        do {
            let response = try await client.execute(request, timeout: .seconds(30))
            let bytes = try await response.body.collect(upTo: 1 << 20)
            let json: [String: JSONValue]
            if case .object(let object)? = try? JSONDecoder().decode(JSONValue.self, from: Data(buffer: bytes)) { json = object } else { json = [:] }
            return .status(Int(response.status.code), json)
        } catch let error as HTTPClientError where [.readTimeout, .deadlineExceeded, .writeTimeout].contains(error) {
            return .timedOut(String(describing: error))
        } catch {
            return .cut(String(describing: error))
        }
    }

    static func string(_ json: [String: JSONValue], _ key: String) -> String? {
        if case .string(let value)? = json[key] { return value }
        return nil
    }

    @Test("three replicas: one key set, and a replica killed mid-load loses nothing that was acknowledged")
    func killOneOfThree() async throws {
        let cluster = try PostgresTestCluster.shared()
        let url = try await cluster.createDatabase()
        // All three start at once: migrations and the first key are made once. Replicas share one
        // key-encryption key (each would otherwise make its own in its data directory).
        let secretsKey = KeyEncryptionKey.generate().base64
        let replicas = try await withThrowingTaskGroup(of: HearthProcess.self) { group in
            for _ in 0..<3 {
                group.addTask { try await HearthProcess.start(environment: ["HEARTH_DATABASE_URL": url, "HEARTH_SECRETS_KEY": secretsKey]) }
            }
            return try await group.reduce(into: [HearthProcess]()) { $0.append($1) }
        }
        defer { for replica in replicas { replica.stop() } }

        // Every replica publishes the same key set.
        var keySets: [Set<String>] = []
        for replica in replicas {
            let response = try await Self.client.execute(HTTPClientRequest(url: replica.baseURL + "/.well-known/jwks.json"), timeout: .seconds(10))
            struct Document: Decodable {
                struct Key: Decodable {
                    let kid: String
                    let n: String
                }
                let keys: [Key]
            }
            let document = try JSONDecoder().decode(Document.self, from: Data(buffer: try await response.body.collect(upTo: 1 << 20)))
            keySets.append(Set(document.keys.map { $0.kid + ":" + $0.n }))
        }
        #expect(Set(keySets).count == 1, "replicas publish different keys: \(keySets)")
        #expect(keySets.first?.count == 1)

        struct Acknowledged: Sendable {
            let uid: String
            let refreshToken: String
            let replica: Int
            let linkedEmail: String?
            /// Whether the link's answer came (so ``refreshToken`` is the session in force).
            let sessionKnown: Bool
        }
        /// One request: where it went, whether it was sent after the victim was dead, what came back.
        struct Sent: Sendable {
            let replica: Int
            let afterKill: Bool
            let outcome: Outcome
        }
        let victim = replicas[0]
        // The kill comes once the load is well under way (a number of answers, not a fixed time, so a
        // slow machine cannot make it land before or after the load), and the load goes on after it.
        let answered = LockedBox(0)
        let victimIsDead = LockedBox(false)
        let killAfterAnswers = 90
        let results = try await withThrowingTaskGroup(of: ([Acknowledged], [Sent]).self) { group in
            for worker in 0..<9 {
                group.addTask {
                    var acknowledged: [Acknowledged] = []
                    var sent: [Sent] = []
                    func send(_ replica: Int, _ path: String, _ body: [String: JSONValue]) async -> Outcome {
                        let afterKill = victimIsDead.withLock { $0 }
                        let outcome = await Self.post(replicas[replica].baseURL, path, body)
                        sent.append(Sent(replica: replica, afterKill: afterKill, outcome: outcome))
                        answered.withLock { $0 += 1 }
                        return outcome
                    }
                    for round in 0..<24 {
                        let index = (worker + round) % 3
                        guard case .status(200, let body) = await send(index, "/v1/accounts:signUp", ["returnSecureToken": .bool(true)]),
                            let uid = Self.string(body, "localId"), let refresh = Self.string(body, "refreshToken"),
                            let idToken = Self.string(body, "idToken")
                        else { continue }
                        var linked: String?
                        var current = refresh
                        // Link an e-mail on another replica (which ends the first session and starts a new
                        // one), then refresh on a third.
                        let email = "w\(worker)r\(round)@example.com"
                        let linking = await send(
                            (index + 1) % 3, "/v1/accounts:signUp",
                            [
                                "idToken": .string(idToken), "email": .string(email), "password": .string("secret1"),
                            ])
                        if case .status(200, let body) = linking, let renewed = Self.string(body, "refreshToken") {
                            linked = email
                            current = renewed
                        }
                        // A link whose connection the kill cut may have been committed, ending the first session:
                        // which refresh token works is then unknown, so neither is tried.
                        let sessionKnown = if case .status = linking { true } else { false }
                        acknowledged.append(
                            Acknowledged(uid: uid, refreshToken: current, replica: index, linkedEmail: linked, sessionKnown: sessionKnown))
                        guard sessionKnown else { continue }
                        _ = await send(
                            (index + 2) % 3, "/v1/token",
                            [
                                "grant_type": .string("refresh_token"), "refresh_token": .string(current),
                            ])
                    }
                    return (acknowledged, sent)
                }
            }
            group.addTask {
                // Hang guard only: the load makes 9 × 24 × 3 requests at most.
                let deadline = ContinuousClock.now + .seconds(120)
                while answered.withLock({ $0 }) < killAfterAnswers, ContinuousClock.now < deadline {
                    try await Task.sleep(for: .milliseconds(5))
                }
                await victim.kill()
                victimIsDead.withLock { $0 = !victim.isRunning }
                return ([], [])
            }
            return try await group.reduce(into: ([Acknowledged](), [Sent]())) {
                $0.0 += $1.0
                $0.1 += $1.1
            }
        }
        let (acknowledged, sent) = results
        #expect(!victim.isRunning)
        #expect(acknowledged.count > 30)
        #expect(acknowledged.contains { $0.replica == 0 }, "the killed replica acknowledged sign-ups before it died")

        // Per replica: answers by status, connections cut, requests sent after the kill.
        for replica in 0..<3 {
            let mine = sent.filter { $0.replica == replica }
            var statuses: [Int: Int] = [:]
            var cut: [String] = []
            var unexpected: [String] = []
            for item in mine {
                switch item.outcome {
                case .status(let code, let body):
                    statuses[code, default: 0] += 1
                    if code != 200 { unexpected.append("\(code) \(String(describing: body).prefix(300))") }
                case .cut(let reason): cut.append(reason)
                case .timedOut(let reason): Issue.record("replica \(replica) did not answer in time: \(reason)")
                }
            }
            let afterKill = mine.filter(\.afterKill)
            print(
                "replica \(replica)\(replica == 0 ? " (killed)" : ""): \(mine.count) requests, statuses \(statuses), \(cut.count) connection errors, \(afterKill.count) sent after the kill"
            )
            // No answer but 200 from anyone: connections cut by the kill are not answers.
            #expect(statuses.keys.allSatisfy { $0 == 200 }, "replica \(replica) answered \(statuses): \(unexpected)")
            if replica == 0 {
                #expect(!cut.isEmpty, "no request to the killed replica was cut: the kill did not land mid-load")
                #expect(afterKill.allSatisfy { if case .cut = $0.outcome { true } else { false } })
            } else {
                #expect(cut.isEmpty, "connection errors on surviving replica \(replica): \(cut)")
                #expect(
                    afterKill.contains { if case .status(200, _) = $0.outcome { true } else { false } },
                    "no request reached surviving replica \(replica) after the kill: the load had ended before it")
            }
        }

        // Everything acknowledged is in the database.
        let store = try await PostgresStorage.open(url: url, logger: Logger(label: "replica-test"), migrate: false)
        for item in acknowledged {
            let user = try await store.user(uid: item.uid)
            #expect(user != nil, "acknowledged sign-up \(item.uid) is missing")
            if let email = item.linkedEmail { #expect(user?.email == email) }
        }
        try await store.close()

        // Refresh tokens the dead replica issued work on the survivors.
        for item in acknowledged where item.replica == 0 && item.sessionKnown {
            guard
                case .status(let code, _) = await Self.post(
                    replicas[1 + item.uid.count % 2].baseURL, "/v1/token",
                    [
                        "grant_type": .string("refresh_token"), "refresh_token": .string(item.refreshToken),
                    ])
            else {
                Issue.record("survivor unreachable")
                continue
            }
            #expect(code == 200)
        }
    }

    @Test("two replicas on one database: a pending credential from A links on B; a browser sign-in started on A completes on B")
    func crossReplicaFlows() async throws {
        let url = try await PostgresTestCluster.shared().createDatabase()
        let clock = ManualClock()
        let secretsKey = KeyEncryptionKey.generate().base64
        let a = try await LiveHearth.start(
            clock: clock, providers: { _ in },
            {
                $0.databaseURL = url
                $0.secrets.key = secretsKey
            })
        let b: LiveHearth
        do {
            // Both replicas talk to the same identity providers (here A's sandbox), as real replicas share the
            // real ones; the redirect URI registered with them is A's handler (the load balancer's, in a deployment).
            let endpoints = a.sandbox.endpoints()
            b = try await LiveHearth.start(
                clock: clock,
                providers: { providers in
                    var shared = ProvidersConfiguration()
                    shared.browserSignIn = providers.browserSignIn
                    providers = shared.fillingDisabled(from: .sandbox(endpoints))
                },
                {
                    $0.databaseURL = url
                    $0.secrets.key = secretsKey
                })
        } catch {
            try? await a.stop()
            throw error
        }
        let http = HTTPClient(eventLoopGroupProvider: .singleton, configuration: .init(redirectConfiguration: .disallow))
        do {
            let (clientA, clientB) = (FirebaseTestClient(baseURL: a.baseURL), FirebaseTestClient(baseURL: b.baseURL))

            // needConfirmation on A; the password sign-in and the link of the pending credential on B.
            let email = try #require(SandboxIdentity.facebookUser.email)
            let existing = try await clientA.signUp(email: email, password: "correct horse")
            let conflict = try await clientA.signInWithIdp(try a.sandbox.signInCredential(for: .facebookUser).postBody)
            #expect(conflict["needConfirmation"] == .bool(true), "\(conflict.text)")
            let pending = try #require(conflict.string("pendingToken"))
            let password = try await clientB.signIn(email: email)
            let linked = try await clientB.signInWithIdp(nil, idToken: try #require(password.string("idToken")), pendingToken: pending)
            #expect(linked.status == .ok, "\(linked.text)")
            #expect(linked.string("localId") == existing.localId)
            #expect(try await a.services.store.user(uid: existing.localId)?.providers.map(\.providerID) == ["facebook.com"])

            // Browser sign-in: createAuthUri on A, consent at the provider, which sends the browser to the
            // handler; the load balancer hands that request, and the app's signInWithIdp, to B.
            let started = try await clientA.createAuthUri(
                providerID: "google.com", continueUri: BrowserSignInTests.returnURL, sessionId: "cross-replica")
            #expect(started.status == .ok, "\(started.text)")
            let authUri = try #require(started.string("authUri"))
            let consent = try await TestBrowser(client: http, baseURL: a.baseURL)
                .get(authUri + "&sandbox_subject=\(formEncoded(SandboxIdentity.googleGmail.subject))&sandbox_decision=approve")
            let toHandler = try #require(consent.location)
            #expect(toHandler.hasPrefix(a.baseURL + "/__/auth/handler?"), "\(toHandler)")
            let browserB = TestBrowser(client: http, baseURL: b.baseURL)
            let app = try await browserB.follow(try await browserB.get(b.baseURL + toHandler.dropFirst(a.baseURL.count)))
            let link = try #require(app.queryValue("link"), "\(app)")
            let signedIn = try await clientB.completeBrowserSignIn(requestUri: link, sessionId: "cross-replica", providerID: "google.com")
            #expect(signedIn.status == .ok, "\(signedIn.text)")
            #expect(signedIn.string("providerId") == "google.com")
            #expect(signedIn.string("email") == SandboxIdentity.googleGmail.email)
            let uid = try #require(signedIn.string("localId"))
            // A sees the account B made, and B's refresh token works on A.
            #expect(try await a.services.store.user(uid: uid)?.providers.map(\.providerID) == ["google.com"])
            #expect(try await clientA.refresh(try #require(signedIn.string("refreshToken"))).status == .ok)
        } catch {
            try? await http.shutdown()
            try? await b.stop()
            try? await a.stop()
            throw error
        }
        try await http.shutdown()
        try await b.stop()
        try await a.stop()
    }

    @Test("two replicas with user caches: a user disabled on A is refused on B at once, though B had it cached for a minute")
    func cachedUserDisabledOnAnotherReplica() async throws {
        let url = try await PostgresTestCluster.shared().createDatabase()
        let secretsKey = KeyEncryptionKey.generate().base64
        let a = try await LiveHearth.start(
            clock: ManualClock(), providers: { _ in },
            {
                $0.databaseURL = url
                $0.secrets.key = secretsKey
            })
        let b: LiveHearth
        do {
            // B would serve its cached user for a minute: only A's announcement can make it refuse in time.
            b = try await LiveHearth.start(
                clock: ManualClock(), providers: { _ in },
                {
                    $0.databaseURL = url
                    $0.secrets.key = secretsKey
                    $0.databaseCacheMaxAge = 60
                })
        } catch {
            try? await a.stop()
            throw error
        }
        do {
            let (clientA, clientB) = (FirebaseTestClient(baseURL: a.baseURL), FirebaseTestClient(baseURL: b.baseURL))
            // Not anonymous: the anonymous clean-up's schedule, run by either replica, would make every replica forget
            // everyone.
            let user = try await clientA.signUp(email: "ada@example.com")
            let (refreshToken, idToken) = (try #require(user.refreshToken), try #require(user.idToken))
            // B's cache serves once its listener has said LISTEN (moments after it started).
            let listening = ContinuousClock.now.advanced(by: .seconds(20))
            while !b.services.database.cacheIsServing, ContinuousClock.now < listening { try await Task.sleep(for: .milliseconds(20)) }
            // B reads the session and the user, and keeps them.
            #expect(try await clientB.refresh(refreshToken).status == .ok)
            #expect(try await clientB.lookup(idToken).status == .ok)
            #expect(
                b.services.database.cachedUserCount == 1 && b.services.database.cachedSessionCount == 1,
                "\(b.services.database.cachedUserCount) users, \(b.services.database.cachedSessionCount) sessions")

            let disabled = try await AdminClient(clientA).post("/accounts:update", #"{"localId":"\#(user.localId)","disableUser":true}"#)
            #expect(disabled.status == .ok)
            let deadline = ContinuousClock.now.advanced(by: .seconds(2))
            var refused = try await clientB.refresh(refreshToken)
            while refused.status == .ok, ContinuousClock.now < deadline {
                try await Task.sleep(for: .milliseconds(20))
                refused = try await clientB.refresh(refreshToken)
            }
            #expect(refused.errorMessage == "USER_DISABLED")
            #expect(try await clientB.lookup(idToken).errorMessage == "USER_DISABLED")
        } catch {
            try? await b.stop()
            try? await a.stop()
            throw error
        }
        try await b.stop()
        try await a.stop()
    }

    @Test("a database restart mid-load: clear errors while it is down, success after, no restart of Hearth")
    func databaseRestart() async throws {
        let cluster = try await PostgresTestCluster.startPrivate()
        defer { cluster.shutdown() }
        let url = try await cluster.createDatabase(connectTimeout: nil)
        let replica = try await HearthProcess.start(environment: ["HEARTH_DATABASE_URL": url])
        defer { replica.stop() }

        let before = await Self.post(replica.baseURL, "/v1/accounts:signUp", [:])
        guard case .status(200, let body) = before, let refresh = Self.string(body, "refreshToken") else {
            Issue.record("sign-up before the restart failed: \(before)")
            return
        }

        try await cluster.stop()
        var downMessages: Set<String> = []
        for _ in 0..<3 {
            let started = Date()
            let outcome = await Self.post(replica.baseURL, "/v1/accounts:signUp", [:])
            #expect(Date().timeIntervalSince(started) < 20, "an answer, not a hang, while the database is down")
            guard case .status(let code, let json) = outcome else {
                Issue.record("Hearth itself went away")
                continue
            }
            #expect(code == 503)
            if case .object(let error)? = json["error"], case .string(let message)? = error["message"] { downMessages.insert(message) }
        }
        #expect(downMessages == ["The service is currently unavailable."])

        try await cluster.start()
        var recovered = false
        for _ in 0..<100 {
            if case .status(200, _) = await Self.post(replica.baseURL, "/v1/accounts:signUp", [:]) {
                recovered = true
                break
            }
            try await Task.sleep(for: .milliseconds(200))
        }
        #expect(recovered, "sign-ups work again after the database is back")
        guard
            case .status(200, _) = await Self.post(
                replica.baseURL, "/v1/token", ["grant_type": .string("refresh_token"), "refresh_token": .string(refresh)])
        else {
            Issue.record("a refresh token from before the restart no longer works")
            return
        }
        #expect(replica.isRunning)
    }
}
