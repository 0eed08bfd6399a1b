import ArgumentParser
import Foundation
import HearthCore
import HearthStorage
import HearthTokens
import NIOCore
import NIOPosix

/// `hearth-benchmark`: measures the CPU ceilings, starts a `hearth serve` child process and drives the
/// sign-up, refresh, lookup and password sign-in endpoints over loopback, then prints one table.
/// See BENCHMARKS.md.
@main
struct BenchmarkCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "hearth-benchmark",
        abstract: "Load-test a hearth server against this machine's RS256 and scrypt ceilings.")

    @Option(
        help:
            "Comma-separated scenarios to run: signup, refresh, lookup, signin, signinUnderAttack, passwordReset, phone, mfaTOTP, saml, tenantSignup, notFound, jwks, passkey."
    )
    var scenarios: String = Scenario.allCases.map(\.rawValue).joined(separator: ",")

    @Option(help: "Concurrent keep-alive connections per scenario.")
    var connections: Int = 64

    @Option(help: "Measured seconds per scenario (after the warm-up).")
    var seconds: Double = 10

    @Option(name: .customLong("warmup-seconds"), help: "Warm-up seconds per scenario, not measured.")
    var warmupSeconds: Double = 2

    @Option(name: .customLong("ceiling-seconds"), help: "Seconds for each ceiling measurement.")
    var ceilingSeconds: Double = 3

    @Option(name: .customLong("scrypt-log-n"), help: "scrypt cost (N = 2^logN) for the server and the hash ceiling.")
    var scryptLogN: Int = 14

    @Option(help: "The hearth executable (default: `hearth` next to this executable).")
    var server: String?

    @Option(name: .customLong("client-threads"), help: "Event-loop threads of the load client.")
    var clientThreads: Int = 1

    @Option(name: .customLong("refresh-users"), help: "Anonymous accounts made for the refresh and lookup scenarios.")
    var refreshUsers: Int = 1_000

    @Option(name: .customLong("password-users"), help: "E-mail accounts made for the password sign-in scenario.")
    var passwordUsers: Int = 200

    @Option(
        name: .customLong("phone-sessions"),
        help: "Phone sessions prepared for the phone scenario: each is signed in to once, so more than warm-up + measured seconds take.")
    var phoneSessions: Int = 50_000

    @Option(
        name: .customLong("totp-sign-ins"),
        help: "Pending sign-ins prepared for the mfaTOTP scenario (8 per account), each finished once; their first factors take scrypt's time.")
    var totpSignIns: Int = 15_000

    @Option(
        name: .customLong("saml-sign-ins"),
        help: "SAML responses prepared for the saml scenario (AuthnRequests started, responses signed by the sandbox IdP), each used once.")
    var samlSignIns: Int = 8_000

    @Option(
        name: .customLong("passkey-sign-ins"),
        help: "Passkey sign-ins prepared for the passkey scenario (a challenge each, answered in advance), each finished once.")
    var passkeySignIns: Int = 40_000

    @Option(name: .customLong("passkey-users"), help: "Accounts with a passkey made for the passkey scenario.")
    var passkeyUsers: Int = 200

    @Option(
        name: .customLong("attack-bcrypt-cost"),
        help: "bcrypt cost of the accounts the signinUnderAttack scenario attacks (imported; within the server's budget).")
    var attackBcryptCost: Int = 12

    @Option(name: .customLong("request-timeout"), help: "Seconds a single response may take before the run fails.")
    var requestTimeout: Double = 30

    @Option(name: .customLong("startup-timeout"), help: "Seconds the server may take to print its port.")
    var startupTimeout: Double = 60

    @Option(help: "The servers' database: sqlite (embedded, the default) or postgres (a throwaway cluster the benchmark starts, or --postgres-url).")
    var database: DatabaseMode = .sqlite

    @Option(
        name: .customLong("postgres-url"),
        help: "With --database postgres: use this database instead of starting a cluster. It is never emptied; the user-count runs add users to it.")
    var postgresURL: String?

    @Option(
        help: "hearth serve processes on the same database, each on its own port; connections are spread round-robin over them (PostgreSQL only).")
    var replicas: Int = 1

    @Option(
        name: [.customLong("user-counts"), .customLong("user-count")],
        help:
            "Comma-separated user counts (e.g. 10000,1000000): for each, a fresh database is filled to that many users through SQL and accounts:lookup is measured on it."
    )
    var userCounts: String?

    @Option(
        name: .customLong("query-pages"),
        help:
            "With --user-counts: after the lookups, this many pages of 500 of accounts:query sorted by createdAt, at offsets spread from the first user to the last, ascending and descending, one at a time (0: none)."
    )
    var queryPages: Int = 0

    @Option(
        name: .customLong("console-pages"),
        help:
            "With --user-counts: after the lookups, this many console pages of each kind (the users listing at keyset cursors spread over the table, an e-mail-prefix search, a user's page), one at a time (0: none)."
    )
    var consolePages: Int = 0

    @Option(
        name: .customLong("audit-events"),
        help:
            "With --console-pages: fill the project's audit trail to this many events through SQL (over the last 80 days) and measure the console's activity page on it too (0: no activity rows)."
    )
    var auditEvents: Int = 0

    @Option(
        name: .customLong("latency-connections"),
        help: "Connections of the second lookup run at each user count, which measures latency without queueing.")
    var latencyConnections: Int = 1

    @Option(
        name: .customLong("admin-users"),
        help:
            "Run the admin phase: import this many users through accounts:batchCreate (bcrypt, then Firebase scrypt, each on a fresh database), list them with accounts:batchGet, and measure HearthAdmin's verifyIDToken."
    )
    var adminUsers: Int?

    @Option(name: .customLong("admin-connections"), help: "Concurrent accounts:batchCreate calls (1,000 users each) of the admin import.")
    var adminConnections: Int = 4

    @Option(name: .customLong("verify-tokens"), help: "Anonymous accounts whose ID tokens the admin phase verifies with HearthAdmin.")
    var verifyTokens: Int = 1_000

    @Option(name: .customLong("verify-tasks"), help: "Concurrent tasks calling HearthAdmin's verifyIDToken in the admin phase.")
    var verifyTasks: Int = 16

    @Option(
        name: .customLong("metrics-cost"),
        help:
            "Run the metrics-cost phase with this many rounds: refresh and lookup on a server with metrics on and one with metrics off, alternating, each round in the other order."
    )
    var metricsCost: Int?

    @Flag(
        help:
            "Also drive each scenario whose requests can be replayed with wrk (Debian's `wrk`), an independent client, right after the built-in one.")
    var wrk = false

    @Option(name: .customLong("wrk-connections"), help: "wrk's connections.")
    var wrkConnections: Int = 32

    @Option(name: .customLong("wrk-threads"), help: "wrk's threads.")
    var wrkThreads: Int = 2

    @Option(
        name: .customLong("compare-peer"),
        help:
            "Also drive another server's refresh grant with the same client, right after Hearth's refresh scenario: glewlwyd (Debian's), started in a throwaway directory."
    )
    var comparePeer: Peer?

    @Flag(name: .customLong("bare-server"), help: .hidden)
    var bareServer = false

    func validate() throws {
        if bareServer { return }
        guard (1...10_000).contains(connections) else { throw ValidationError("--connections must be 1...10000") }
        guard seconds > 0, warmupSeconds >= 0, ceilingSeconds > 0 else { throw ValidationError("durations must be positive") }
        guard (1...20).contains(scryptLogN) else { throw ValidationError("--scrypt-log-n must be 1...20") }
        guard (1...64).contains(clientThreads) else { throw ValidationError("--client-threads must be 1...64") }
        guard refreshUsers > 0, passwordUsers > 0, phoneSessions > 0, totpSignIns > 0, samlSignIns > 0 else {
            throw ValidationError("fixture counts must be positive")
        }
        guard (1...32).contains(replicas) else { throw ValidationError("--replicas must be 1...32") }
        guard replicas == 1 || database == .postgres else {
            throw ValidationError("--replicas > 1 needs --database postgres: replicas share one database, and an SQLite file belongs to one process")
        }
        guard postgresURL == nil || database == .postgres else { throw ValidationError("--postgres-url needs --database postgres") }
        guard (1...10_000).contains(latencyConnections) else { throw ValidationError("--latency-connections must be 1...10000") }
        guard adminUsers.map({ (1...10_000_000).contains($0) }) ?? true else { throw ValidationError("--admin-users must be 1...10000000") }
        guard (0...1_000).contains(queryPages) else { throw ValidationError("--query-pages must be 0...1000") }
        guard queryPages == 0 || userCounts != nil else { throw ValidationError("--query-pages needs --user-counts") }
        guard (0...1_000).contains(consolePages) else { throw ValidationError("--console-pages must be 0...1000") }
        guard consolePages == 0 || userCounts != nil else { throw ValidationError("--console-pages needs --user-counts") }
        guard (0...100_000_000).contains(auditEvents) else { throw ValidationError("--audit-events must be 0...100000000") }
        guard auditEvents == 0 || consolePages > 0 else { throw ValidationError("--audit-events needs --console-pages") }
        guard (1...64).contains(adminConnections) else { throw ValidationError("--admin-connections must be 1...64") }
        guard (1...1_000_000).contains(verifyTokens) else { throw ValidationError("--verify-tokens must be 1...1000000") }
        guard (1...10_000).contains(verifyTasks) else { throw ValidationError("--verify-tasks must be 1...10000") }
        guard metricsCost.map({ (1...20).contains($0) }) ?? true else { throw ValidationError("--metrics-cost must be 1...20 rounds") }
        guard metricsCost == nil || replicas == 1 else { throw ValidationError("--metrics-cost runs one server per variant: leave --replicas at 1") }
        let counts = try selectedUserCounts()
        let selected = try selectedScenarios()
        guard comparePeer == nil || selected.contains(.refresh) else {
            throw ValidationError("--compare-peer compares the refresh scenario: add refresh to --scenarios")
        }
        guard !selected.isEmpty || !counts.isEmpty || adminUsers != nil || metricsCost != nil else {
            throw ValidationError("nothing to run: --scenarios none, no --user-counts, no --admin-users and no --metrics-cost")
        }
    }

    private func selectedScenarios() throws -> [Scenario] {
        if scenarios.trimmingCharacters(in: .whitespaces).lowercased() == "none" { return [] }
        var selected = Set<Scenario>()
        for name in scenarios.split(separator: ",") where !name.trimmingCharacters(in: .whitespaces).isEmpty {
            guard let scenario = Scenario(argument: String(name)) else {
                throw ValidationError("unknown scenario \(name); choose from \(Scenario.allCases.map(\.rawValue).joined(separator: ", ")), or none")
            }
            selected.insert(scenario)
        }
        guard !selected.isEmpty else { throw ValidationError("--scenarios is empty (say none to run only --user-counts)") }
        return Scenario.allCases.filter(selected.contains)
    }

    private func selectedUserCounts() throws -> [Int] {
        guard let userCounts else { return [] }
        return try userCounts.split(separator: ",").map { text in
            let cleaned = text.trimmingCharacters(in: .whitespaces).replacingOccurrences(of: "_", with: "")
            let multiplier = cleaned.lowercased().hasSuffix("m") ? 1_000_000 : cleaned.lowercased().hasSuffix("k") ? 1_000 : 1
            guard let value = Int(multiplier == 1 ? cleaned : String(cleaned.dropLast())), value > 0, value * multiplier <= 100_000_000 else {
                throw ValidationError("--user-counts: \(text) is not a count in 1...100000000 (10000, 10k, 1m)")
            }
            return value * multiplier
        }
    }

    func run() async throws {
        if bareServer { return try await BareServer.run() }
        let selected = try selectedScenarios()
        let counts = try selectedUserCounts()
        let machine = MachineDescription.current()
        Self.emit("Hearth load benchmark, \(Self.timestamp())")
        Self.emit("machine : \(machine.summary)")
        Self.emit("command : \(CommandLine.arguments.joined(separator: " "))")
        Self.emit(
            "load    : \(connections) keep-alive connections, \(Self.format(warmupSeconds)) s warm-up + \(Self.format(seconds)) s measured per scenario, \(clientThreads) client thread(s)"
        )
        Self.emit("")

        // 1. Ceilings, before anything else starts, on every core (measured again at the end). RS256
        // always, as the reference every run is read against; scrypt for sign-in.
        let meter = CeilingMeter(workers: machine.cores, duration: Self.timeAmount(ceilingSeconds))
        let ceilingsBefore = try await measureCeilings(selected, meter: meter, label: "before")

        // 2. The database, then the phases; servers and database are stopped whatever happens.
        let signalTrap = SignalTrap()
        defer { withExtendedLifetime(signalTrap) {} }
        let executable = server ?? ServerProcess.defaultExecutable()
        guard FileManager.default.isExecutableFile(atPath: executable) else {
            FileHandle.standardError.write(
                Data(
                    "hearth-benchmark: no hearth executable at \(executable); build it (swift build -c release --product hearth) or pass --server PATH\n"
                        .utf8))
            throw ExitCode(2)
        }
        let databases: BenchmarkDatabase
        do {
            databases = try await BenchmarkDatabase.start(mode: database, postgresURL: postgresURL)
        } catch {
            FileHandle.standardError.write(Data("hearth-benchmark: cannot start the database: \(error)\n".utf8))
            throw ExitCode(2)
        }
        SignalTrap.guardDatabase(pid: databases.clusterPID, paths: databases.cleanupPaths)
        Self.emit("database: \(databases.summary)")
        Self.emit(
            "replicas: \(replicas) hearth serve process(es)\(replicas > 1 ? ", connections spread round-robin; they share the machine's \(machine.cores) cores with each other, the database and the load client" : "")"
        )

        let group = MultiThreadedEventLoopGroup(numberOfThreads: clientThreads)
        var results: [ScenarioResult] = []
        var userCountResults: [UserCountResult] = []
        var queryRows: [QueryBenchmark.Row] = []
        var consoleRows: [ConsoleBenchmark.Row] = []
        var adminRows: [AdminBenchmark.Row] = []
        var costRows: [MetricsCostRow] = []
        var peak: Int?
        var failure: (any Error)?
        do {
            if !selected.isEmpty {
                let url = try await databases.makeDatabase()
                SignalTrap.guardDatabase(pid: databases.clusterPID, paths: databases.cleanupPaths)
                let fleet = try await launchFleet(executable: executable, databaseURL: url)
                do {
                    results = try await runScenarios(selected, fleet: fleet, databases: databases, group: group, meter: meter)
                } catch {
                    failure = error
                }
                peak = max(peak ?? 0, fleet.peakResidentBytes() ?? 0)
                if failure != nil, !fleet.exitDescriptions.isEmpty {
                    FileHandle.standardError.write(
                        Data("a server died (\(fleet.exitDescriptions.joined(separator: ", "))); last output:\n\(fleet.stderrTails())\n".utf8))
                }
                await fleet.stop()
            }
            if failure == nil {
                for count in counts {
                    let (rows, queries, consoles, fleetPeak) = try await runUserCount(
                        count, executable: executable, databases: databases, group: group)
                    userCountResults += rows
                    queryRows += queries
                    consoleRows += consoles
                    peak = max(peak ?? 0, fleetPeak ?? 0)
                }
                if let adminUsers {
                    adminRows = try await runAdmin(adminUsers, executable: executable, databases: databases, group: group, meter: meter)
                }
                if let metricsCost {
                    costRows = try await runMetricsCost(rounds: metricsCost, executable: executable, databases: databases, group: group)
                }
            }
        } catch let error as ExitCode {
            failure = error
        } catch {
            failure = error
        }
        databases.stop()
        SignalTrap.guardDatabase(pid: nil, paths: [])
        try? await group.shutdownGracefully()

        if let failure {
            if let exit = failure as? ExitCode { throw exit }
            FileHandle.standardError.write(Data("hearth-benchmark: \(failure)\n".utf8))
            throw ExitCode(1)
        }

        // 3. The ceilings again, so drift during the run shows; the headers use the mean. (Each
        // scenario is compared with its own ceilings, measured right before and after it.)
        Self.emit("")
        let ceilingsAfter = try await measureCeilings(selected, meter: meter, label: "after ")
        var ceilings: [Scenario.Ceiling: CeilingMeter.Measurement] = [:]
        for (kind, before) in ceilingsBefore {
            ceilings[kind] = Self.combine(before, ceilingsAfter[kind])
        }

        Self.emit("")
        let setup = "\(database.rawValue), \(replicas) replica\(replicas == 1 ? "" : "s")"
        if !results.isEmpty {
            Self.emit(
                "Scenarios (\(setup); each against its ceiling measured right before and after it; RS256 \(ceilings[.rs256].map { ResultTable.grouped($0.operationsPerSecond) } ?? "-")/s at the start and end of the run):"
            )
            Self.emit("")
            Self.emit(ResultTable(results: results, serverPeakRSS: nil).render())
            if results.contains(where: { $0.wrk != nil }) {
                Self.emit("")
                Self.emit(
                    "The same scenarios driven by wrk (\(wrkThreads) threads, \(wrkConnections) connections), each right after the built-in client:")
                Self.emit("")
                Self.emit(ResultTable(results: results, serverPeakRSS: nil).renderWrk())
            }
            printPeerComparison(results)
            printErrors(results)
        }
        if !userCountResults.isEmpty {
            if !results.isEmpty { Self.emit("") }
            Self.emit(
                "accounts:lookup by user count (\(setup); RS256 ceiling \(ceilings[.rs256].map { ResultTable.grouped($0.operationsPerSecond) } ?? "-")/s in this run):"
            )
            Self.emit("")
            Self.emit(UserCountTable(rows: userCountResults).render())
        }
        if !queryRows.isEmpty {
            Self.emit("")
            Self.emit(
                "accounts:query sorted by createdAt, pages of 500 at offsets spread over the table, one at a time (\(setup); server RSS before the pages, and its peak during them after a reset):"
            )
            Self.emit("")
            Self.emit(QueryTable(rows: queryRows).render())
        }
        if !consoleRows.isEmpty {
            Self.emit("")
            Self.emit("The console's pages, one request at a time (\(setup); development mode's local owner, so no sign-in):")
            Self.emit("")
            Self.emit(ConsoleTable(rows: consoleRows).render())
        }
        if !adminRows.isEmpty {
            if !results.isEmpty || !userCountResults.isEmpty { Self.emit("") }
            Self.emit(
                "Admin API and HearthAdmin (\(setup); verifyIDToken in this process against the RS256 verification ceiling measured right before and after it):"
            )
            Self.emit("")
            Self.emit(AdminTable(rows: adminRows).render())
        }
        if !costRows.isEmpty {
            Self.emit("")
            Self.emit(
                "The cost of metrics (\(setup); the same load on a server with metrics on and one with metrics.enabled false, alternating; target: on within 3 % of off):"
            )
            Self.emit("")
            Self.emit(MetricsCostRow.render(costRows))
        }
        if let peak {
            Self.emit("")
            Self.emit(
                "Server peak RSS over the run (VmHWM, highest replica): \(ResultTable.megabytes(peak)) MB; target < \(ResultTable.memoryTargetBytes / 1_000_000) MB: \(peak < ResultTable.memoryTargetBytes ? "met" : "MISSED")"
            )
        }
        let kinds = Scenario.Ceiling.allCases
        let phases =
            kinds.compactMap { kind in ceilingsBefore[kind].map { ("\(kind.name) ceiling (before)", $0.otherCores) } }
            + results.map { ($0.title, $0.usage.otherCores) }
            + userCountResults.map { ("lookup at \($0.users) users, \($0.connections) connections", $0.usage.otherCores) }
            + adminRows.map { ($0.title, $0.usage.otherCores) }
            + costRows.flatMap { row in row.rounds.map { ("\(row.scenario.title), metrics \($0.variant)", $0.usage.otherCores) } }
            + kinds.compactMap { kind in ceilingsAfter[kind].map { ("\(kind.name) ceiling (after)", $0.otherCores) } }
        let busy = phases.filter { ($0.1 ?? 0) > Self.disturbanceThreshold }.map { "\($0.0) (\(ResultTable.cores($0.1)) cores)" }
        if !busy.isEmpty {
            Self.emit("")
            Self.emit(
                "Warning: other processes used the CPU during \(busy.joined(separator: ", ")); those figures are off. Rerun on a quiet machine.")
        }
    }

    /// Starts `--replicas` servers on `databaseURL` (with `environment` added to theirs); exit status 2 when they do
    /// not start.
    func launchFleet(executable: String, databaseURL: String, environment: [String: String] = [:]) async throws -> ServerFleet {
        do {
            let fleet = try await ServerFleet.launch(
                count: replicas, executable: executable, databaseURL: databaseURL,
                // The mail limits would stop the password-reset scenario after five mails per address.
                environment: [
                    "HEARTH_PASSWORDS_SCRYPT_LOG_N": String(scryptLogN), "HEARTH_EMAIL_LIMITS_PER_ADDRESS_PER_HOUR": "0",
                    "HEARTH_EMAIL_LIMITS_PER_MINUTE": "0", "HEARTH_SIGN_IN_PHONE_NUMBER_ENABLED": "true",
                    "HEARTH_SIGN_IN_PHONE_NUMBER_TEST_PHONE_NUMBERS": Scenario.phoneTestNumbersSetting,
                ].merging(environment) { _, given in given },
                startupTimeout: .milliseconds(Int(startupTimeout * 1_000)))
            let servers = fleet.replicas.map { "pid \($0.pid) port \($0.port)" }.joined(separator: ", ")
            Self.emit("server  : \(executable) (\(servers), HEARTH_PASSWORDS_SCRYPT_LOG_N=\(scryptLogN))")
            return fleet
        } catch {
            FileHandle.standardError.write(Data("hearth-benchmark: \(error)\n".utf8))
            throw ExitCode(2)
        }
    }

    /// One user-count phase: a fresh database filled to `count` users through SQL, the servers on it,
    /// `--refresh-users` of the loaded users (spread over the table) refreshed for ID tokens, then
    /// accounts:lookup at `--connections` and at `--latency-connections`.
    private func runUserCount(
        _ count: Int, executable: String, databases: BenchmarkDatabase, group: MultiThreadedEventLoopGroup
    ) async throws -> ([UserCountResult], [QueryBenchmark.Row], [ConsoleBenchmark.Row], Int?) {
        Self.emit("")
        let url = try await databases.makeDatabase()
        SignalTrap.guardDatabase(pid: databases.clusterPID, paths: databases.cleanupPaths)
        let store = try await databases.openStore(url)
        let outcome: BulkUserLoader.Outcome
        var consoleFixtures: ConsoleBenchmark.Fixtures?
        do {
            // One real scrypt hash, shared: the users are e-mail/password accounts.
            let hash = try PasswordHasher(logN: scryptLogN).hash("bulk-user-password")
            outcome = try await BulkUserLoader(store: store).fill(to: count, sessions: refreshUsers, passwordHash: hash)
            if consolePages > 0 {
                var fixtures = try await ConsoleBenchmark.fixtures(store: store, users: outcome.totalUsers, pages: consolePages)
                if auditEvents > 0 {
                    let loader = BulkAuditLoader(store: store)
                    let (events, seconds) = try await loader.fill(to: auditEvents)
                    Self.emit(
                        "loaded  : the audit trail holds \(ResultTable.grouped(Double(events))) events, loaded through SQL in \(String(format: "%.1f", seconds)) s"
                    )
                    try await ConsoleBenchmark.activityFixtures(&fixtures, loader: loader, events: events, pages: consolePages)
                }
                consoleFixtures = fixtures
            }
        } catch {
            try? await store.close()
            throw error
        }
        try await store.close()
        Self.emit(
            "loaded  : \(ResultTable.grouped(Double(outcome.added))) users through SQL in \(String(format: "%.1f", outcome.seconds)) s; the database holds \(ResultTable.grouped(Double(outcome.totalUsers)))"
        )

        let fleet = try await launchFleet(executable: executable, databaseURL: url)
        var rows: [UserCountResult] = []
        var queries: [QueryBenchmark.Row] = []
        var consoles: [ConsoleBenchmark.Row] = []
        var lookupPeak: Int?
        do {
            let driver = LoadDriver(group: group, host: "127.0.0.1", ports: fleet.ports, requestTimeout: Self.timeAmount(requestTimeout))
            let started = ContinuousClock.now
            let idTokens = try await FixtureFactory(driver: driver, connections: connections).refresh(outcome.refreshTokens)
            Self.emit(
                "prepared \(idTokens.count) ID tokens of users spread over the table (refreshed through HTTP) in \(Self.elapsed(since: started))")
            let requests = idTokens.map {
                PreparedRequest(path: Scenario.lookup.path, json: #"{"idToken":"\#($0.jsonEscaped)"}"#, hostHeader: driver.hostHeader)
            }
            for load in [connections, latencyConnections] where rows.last?.connections != load {
                let plan = RequestPlan(name: "lookup at \(outcome.totalUsers) users", requests: requests)
                let (report, usage) = try await measure(plan, driver: driver, connections: load, fleet: fleet, databases: databases)
                let row = UserCountResult(users: outcome.totalUsers, connections: load, report: report, usage: usage)
                rows.append(row)
                Self.emit(
                    "lookup, \(ResultTable.grouped(Double(outcome.totalUsers))) users, \(load) connection(s): \(ResultTable.decimal(report.successesPerSecond)) req/s, p50 \(report.latencyMilliseconds(percentile: 0.5).map(ResultTable.decimal) ?? "-") ms, p99 \(report.latencyMilliseconds(percentile: 0.99).map(ResultTable.decimal) ?? "-") ms, \(report.errors) errors, CPU \(ResultTable.cpu(usage))"
                )
            }
            if queryPages > 0 {
                // The query rows reset the peak RSS: the lookups' peak is kept for the run's.
                lookupPeak = fleet.peakResidentBytes()
                queries = try await QueryBenchmark(driver: driver, fleet: fleet).run(users: outcome.totalUsers, pages: queryPages)
                for row in queries {
                    Self.emit(
                        "\(row.title), \(ResultTable.grouped(Double(row.users))) users: \(row.pages) pages, \(ResultTable.decimal(row.report.successesPerSecond)) pages/s, p50 \(row.report.latencyMilliseconds(percentile: 0.5).map(ResultTable.decimal) ?? "-") ms, max \(row.report.latencyMilliseconds(percentile: 1).map(ResultTable.decimal) ?? "-") ms, server RSS \(row.residentBytesBefore.map(ResultTable.megabytes) ?? "-") MB before, peak \(row.peakResidentBytes.map(ResultTable.megabytes) ?? "-") MB"
                    )
                }
            }
            if let consoleFixtures {
                consoles = try await ConsoleBenchmark(driver: driver).run(consoleFixtures)
                for row in consoles {
                    Self.emit(
                        "console, \(row.title), \(ResultTable.grouped(Double(row.users))) users: \(row.pages) pages, p50 \(row.report.latencyMilliseconds(percentile: 0.5).map(ResultTable.decimal) ?? "-") ms, max \(row.report.latencyMilliseconds(percentile: 1).map(ResultTable.decimal) ?? "-") ms"
                    )
                }
            }
        } catch {
            if !fleet.exitDescriptions.isEmpty {
                FileHandle.standardError.write(
                    Data("a server died (\(fleet.exitDescriptions.joined(separator: ", "))); last output:\n\(fleet.stderrTails())\n".utf8))
            }
            await fleet.stop()
            throw error
        }
        let peak = ([lookupPeak, fleet.peakResidentBytes()] + queries.map(\.peakResidentBytes)).compactMap { $0 }.max()
        await fleet.stop()
        return (rows, queries, consoles, peak)
    }

    /// The admin phase: for each hash kind a fresh database and servers, `count` users imported through
    /// `accounts:batchCreate` and listed through `accounts:batchGet`; after the last, `--verify-tokens`
    /// anonymous sign-ups whose ID tokens HearthAdmin verifies, between two RS256 verification ceilings.
    private func runAdmin(
        _ count: Int, executable: String, databases: BenchmarkDatabase, group: MultiThreadedEventLoopGroup, meter: CeilingMeter
    ) async throws -> [AdminBenchmark.Row] {
        let runID = String(UUID().uuidString.prefix(8)).lowercased()
        let clusterPID = databases.clusterPID
        let databasePIDs: @Sendable () -> [Int32] = { clusterPID.map { ProcessTree.descendants(of: $0, includingRoot: true) } ?? [] }
        var rows: [AdminBenchmark.Row] = []
        for (index, hash) in AdminBenchmark.HashKind.allCases.enumerated() {
            Self.emit("")
            let url = try await databases.makeDatabase()
            SignalTrap.guardDatabase(pid: databases.clusterPID, paths: databases.cleanupPaths)
            let fleet = try await launchFleet(executable: executable, databaseURL: url)
            do {
                let driver = LoadDriver(group: group, host: "127.0.0.1", ports: fleet.ports, requestTimeout: Self.timeAmount(requestTimeout))
                let admin = AdminBenchmark(driver: driver, fleet: fleet, databasePIDs: databasePIDs)
                for row in [
                    try await admin.importUsers(count, hash: hash, runID: "\(runID)\(index)", connections: adminConnections),
                    try await admin.listUsers(after: hash),
                ] {
                    rows.append(row)
                    Self.emit(
                        "\(row.title): \(ResultTable.grouped(Double(row.users ?? 0))) users in \(row.operations) calls, \(String(format: "%.2f", row.seconds)) s, \(ResultTable.grouped(row.usersPerSecond ?? 0)) users/s, \(ResultTable.decimal(row.operationsPerSecond)) calls/s, CPU \(ResultTable.cpu(row.usage))"
                    )
                }
                if index == AdminBenchmark.HashKind.allCases.count - 1 {
                    let started = ContinuousClock.now
                    let tokens = try await FixtureFactory(driver: driver, connections: connections).anonymousSessions(count: verifyTokens).map(
                        \.idToken)
                    Self.emit("prepared \(tokens.count) ID tokens (anonymous sign-ups) in \(Self.elapsed(since: started))")
                    let before = try await meter.rs256Verification(payloadBytes: 600)
                    var row = try await admin.verifyIDTokens(
                        tokens, tasks: verifyTasks, warmup: Self.timeAmount(warmupSeconds), duration: Self.timeAmount(seconds))
                    let after = try await meter.rs256Verification(payloadBytes: 600)
                    row.ceiling = Self.combine(before, after)
                    row.target = 0.7
                    rows.append(row)
                    Self.emit(
                        "\(row.title): \(ResultTable.grouped(row.operationsPerSecond)) verifications/s, \(row.fractionOfCeiling.map { String(format: "%.1f%%", $0 * 100) } ?? "-") of the RS256 verification ceiling (right before / after: \(ResultTable.grouped(before.operationsPerSecond)) / \(ResultTable.grouped(after.operationsPerSecond))/s, \(before.workers) workers, other CPU \(ResultTable.cores(before.otherCores)) / \(ResultTable.cores(after.otherCores)) cores), CPU \(ResultTable.cpu(row.usage))"
                    )
                }
            } catch {
                if !fleet.exitDescriptions.isEmpty {
                    FileHandle.standardError.write(
                        Data("a server died (\(fleet.exitDescriptions.joined(separator: ", "))); last output:\n\(fleet.stderrTails())\n".utf8))
                }
                await fleet.stop()
                throw error
            }
            await fleet.stop()
        }
        return rows
    }

    /// Warm-up, then the measured window, while the resource monitor watches.
    func measure(
        _ plan: RequestPlan, driver: LoadDriver, connections: Int, fleet: ServerFleet, databases: BenchmarkDatabase
    ) async throws -> (LoadReport, ResourceMonitor.Usage) {
        let (report, usage, _) = try await measure(plan, driver: driver, connections: connections, fleet: fleet, databases: databases, alongside: nil)
        return (report, usage)
    }

    /// Measures `plan`, with `alongside` (another plan and its connections) driven over the same window.
    func measure(
        _ plan: RequestPlan, driver: LoadDriver, connections: Int, fleet: ServerFleet, databases: BenchmarkDatabase,
        alongside: (plan: RequestPlan, connections: Int)?
    ) async throws -> (LoadReport, ResourceMonitor.Usage, LoadReport?) {
        let measureStart = NIODeadline.now() + Self.timeAmount(warmupSeconds)
        let measureEnd = measureStart + Self.timeAmount(seconds)
        var monitor = ResourceMonitor(serverPIDs: fleet.pids)
        if let root = databases.clusterPID {
            monitor.databasePIDs = { ProcessTree.descendants(of: root, includingRoot: true) }
        }
        let side = alongside.map { alongside in
            Task { try await driver.runTimed(alongside.plan, connections: alongside.connections, measureStart: measureStart, measureEnd: measureEnd) }
        }
        do {
            let (report, usage) = try await monitor.watch(measureStart: measureStart, measureEnd: measureEnd) {
                try await driver.runTimed(plan, connections: connections, measureStart: measureStart, measureEnd: measureEnd)
            }
            return (report, usage, try await side?.value)
        } catch {
            side?.cancel()
            throw error
        }
    }

    /// The attack of the signinUnderAttack scenario: accounts imported with a bcrypt hash of `--attack-bcrypt-cost`
    /// (one hash, made here), asked in turn with a wrong password over six connections. 600 accounts, so that no
    /// account reaches the lockout's ten failures in a run of a minute or two.
    private func importedHashAttack(driver: LoadDriver) async throws -> (plan: RequestPlan, connections: Int) {
        let started = ContinuousClock.now
        let runID = String(UUID().uuidString.prefix(8)).lowercased()
        let hash = Data(try Bcrypt.hash("imported-password", cost: attackBcryptCost).utf8).base64EncodedString()
        let uids = (0..<600).map { "atk-\(runID)-\($0)" }
        let users = uids.map { #"{"localId":"\#($0)","email":"\#($0)@example.com","passwordHash":"\#(hash)"}"# }
        let importPlan = RequestPlan(
            name: "importing attacked accounts",
            requests: [
                PreparedRequest(
                    path: "/v1/projects/\(AdminBenchmark.projectID)/accounts:batchCreate",
                    json: #"{"hashAlgorithm":"BCRYPT","users":[\#(users.joined(separator: ","))]}"#, hostHeader: driver.hostHeader,
                    authorization: AdminBenchmark.authorization)
            ], capturesBodies: true)
        let imported = try await driver.runOnce(importPlan, connections: 1)
        guard let answer = imported.captured.first, answer.status == 200, !answer.body.contains(#""error""#) else {
            let detail = imported.captured.first.map { "HTTP \($0.status): \($0.body.prefix(300))" } ?? "no answer"
            throw BenchmarkError("importing attacked accounts: \(detail)")
        }
        Self.emit("prepared \(uids.count) accounts imported with bcrypt cost \(attackBcryptCost) in \(Self.elapsed(since: started))")
        let requests = uids.map {
            PreparedRequest(
                path: Scenario.signinUnderAttack.path, json: #"{"email":"\#($0)@example.com","password":"wrong-password"}"#,
                hostHeader: driver.hostHeader)
        }
        return (RequestPlan(name: "imported-hash attack", requests: requests), 6)
    }

    /// The ceiling the table uses: the mean of both measurements, or the undisturbed one when only one
    /// of them ran while other processes used the CPU.
    static func combine(_ before: CeilingMeter.Measurement, _ after: CeilingMeter.Measurement?) -> CeilingMeter.Measurement {
        guard let after else { return before }
        let beforeDisturbed = (before.otherCores ?? 0) > disturbanceThreshold
        let afterDisturbed = (after.otherCores ?? 0) > disturbanceThreshold
        switch (beforeDisturbed, afterDisturbed) {
        case (true, false): return after
        case (false, true): return before
        default: return before.averaged(with: after)
        }
    }

    /// The ceilings the selected scenarios are compared with, printed as they are measured.
    private func measureCeilings(_ selected: [Scenario], meter: CeilingMeter, label: String) async throws -> [Scenario.Ceiling: CeilingMeter
        .Measurement]
    {
        var ceilings: [Scenario.Ceiling: CeilingMeter.Measurement] = [:]
        if selected.isEmpty || selected.contains(where: { $0.ceiling == .rs256 }) {
            let (measurement, each) = try await meter.rs256(payloadBytes: 600)
            ceilings[.rs256] = measurement
            let libraries = RS256Library.allCases.compactMap { library in
                each[library].map { "\(library.rawValue) \(ResultTable.grouped($0.operationsPerSecond))" }
            }
            Self.emit(
                "ceiling \(label): RS256 2048-bit over a \(CeilingMeter.jwtSigningInput(length: 600).utf8.count)-byte input, \(measurement.workers) workers: \(ResultTable.grouped(measurement.operationsPerSecond)) signatures/s, the faster library's (\(libraries.joined(separator: ", ")); \(RS256Library.libcryptoVersion); the server signs with \(RS256Library.preferred.rawValue) here) (other CPU \(ResultTable.cores(measurement.otherCores)) cores)"
            )
        }
        if selected.contains(where: { $0.ceiling == .es256 }) {
            let measurement = try await meter.es256Verification()
            ceilings[.es256] = measurement
            Self.emit(
                "ceiling \(label): ES256 verification (P-256, a DER signature parsed and checked), \(measurement.workers) workers: \(ResultTable.grouped(measurement.operationsPerSecond)) verifications/s (other CPU \(ResultTable.cores(measurement.otherCores)) cores)"
            )
        }
        if selected.contains(where: { $0.ceiling == .scrypt }) {
            let measurement = try await meter.scrypt(logN: scryptLogN)
            ceilings[.scrypt] = measurement
            Self.emit(
                "ceiling \(label): scrypt logN \(scryptLogN), r 8, p 1, \(measurement.workers) workers: \(ResultTable.decimal(measurement.operationsPerSecond)) hashes/s (\(measurement.operations) hashes, other CPU \(ResultTable.cores(measurement.otherCores)) cores)"
            )
        }
        return ceilings
    }

    /// One ceiling, measured with the server idle.
    func measureCeiling(_ kind: Scenario.Ceiling, meter: CeilingMeter, bare: BareServerCeiling? = nil) async throws
        -> CeilingMeter.Measurement
    {
        switch kind {
        case .rs256: return try await meter.rs256(payloadBytes: 600).best
        case .scrypt: return try await meter.scrypt(logN: scryptLogN)
        case .bareServer:
            guard let bare else { throw BenchmarkError("the bare server's ceiling needs the bare server") }
            return try await bare.measure(connections: connections, duration: Self.timeAmount(ceilingSeconds))
        case .es256: return try await meter.es256Verification()
        }
    }

    /// Prepares and runs each scenario, and measures its ceiling right before and right after its
    /// load: this VM's CPU capacity drifts by up to 25 % within a minute with nothing else running,
    /// so a ceiling measured a minute away is not the one the scenario ran against.
    private func runScenarios(
        _ selected: [Scenario], fleet: ServerFleet, databases: BenchmarkDatabase, group: MultiThreadedEventLoopGroup,
        meter: CeilingMeter
    ) async throws -> [ScenarioResult] {
        let driver = LoadDriver(group: group, host: "127.0.0.1", ports: fleet.ports, requestTimeout: Self.timeAmount(requestTimeout))
        let fixtures = FixtureFactory(driver: driver, connections: connections)
        var sessions: [FixtureFactory.Session] = []
        var results: [ScenarioResult] = []
        var firstFactorsPerSecond: Double?
        let bare =
            selected.contains { $0.ceiling == .bareServer }
            ? try await BareServerCeiling.launch(
                group: group, requestTimeout: Self.timeAmount(requestTimeout), startupTimeout: Duration.milliseconds(Int(startupTimeout * 1_000)))
            : nil
        if let bare { Self.emit("bare    : Hummingbird hello-world, pid \(bare.process.pid) port \(bare.process.port)") }
        do {
            try await runEach()
        } catch {
            await bare?.process.stop()
            throw error
        }
        await bare?.process.stop()
        return results

        func runEach() async throws {
            for scenario in selected {
                let requests: [PreparedRequest]
                switch scenario {
                case .signup:
                    requests = [PreparedRequest(path: scenario.path, json: #"{"returnSecureToken":true}"#, hostHeader: driver.hostHeader)]
                case .notFound, .jwks:
                    requests = [PreparedRequest(get: scenario.path, hostHeader: driver.hostHeader)]
                case .tenantSignup:
                    let tenantID = try await fixtures.tenant()
                    Self.emit("created tenant \(tenantID) with anonymous sign-up on")
                    requests = [
                        PreparedRequest(
                            path: scenario.path, json: #"{"returnSecureToken":true,"tenantId":"\#(tenantID.jsonEscaped)"}"#,
                            hostHeader: driver.hostHeader
                        )
                    ]
                case .saml:
                    let started = ContinuousClock.now
                    let (prepared, signingSeconds) = try await fixtures.samlSignIns(count: samlSignIns, users: passwordUsers)
                    Self.emit(
                        "prepared \(prepared.count) SAML responses in \(Self.elapsed(since: started)) (\(String(format: "%.1f", signingSeconds)) s of it signing them)"
                    )
                    requests = prepared
                case .refresh, .lookup:
                    if sessions.isEmpty {
                        let started = ContinuousClock.now
                        sessions = try await fixtures.anonymousSessions(count: refreshUsers)
                        Self.emit("prepared \(sessions.count) anonymous accounts in \(Self.elapsed(since: started))")
                    }
                    requests = sessions.map { session in
                        scenario == .refresh
                            ? PreparedRequest(
                                path: scenario.path,
                                json: #"{"grant_type":"refresh_token","refresh_token":"\#(session.refreshToken.jsonEscaped)"}"#,
                                hostHeader: driver.hostHeader)
                            : PreparedRequest(
                                path: scenario.path, json: #"{"idToken":"\#(session.idToken.jsonEscaped)"}"#, hostHeader: driver.hostHeader)
                    }
                case .passwordReset:
                    let started = ContinuousClock.now
                    let accounts = try await fixtures.passwordAccounts(count: passwordUsers, runID: String(UUID().uuidString.prefix(8)).lowercased())
                    Self.emit("prepared \(accounts.count) e-mail accounts in \(Self.elapsed(since: started))")
                    requests = accounts.map {
                        PreparedRequest(
                            path: scenario.path, json: #"{"requestType":"PASSWORD_RESET","email":"\#($0.email.jsonEscaped)"}"#,
                            hostHeader: driver.hostHeader)
                    }
                case .phone:
                    let started = ContinuousClock.now
                    let (prepared, sendsPerSecond) = try await fixtures.phoneSessions(count: phoneSessions)
                    Self.emit(
                        "prepared \(prepared.count) phone sessions in \(Self.elapsed(since: started)): \(ResultTable.decimal(sendsPerSecond)) sendVerificationCode/s"
                    )
                    requests = prepared.map {
                        PreparedRequest(
                            path: scenario.path, json: #"{"sessionInfo":"\#($0.sessionInfo.jsonEscaped)","code":"\#(Scenario.phoneCode)"}"#,
                            hostHeader: driver.hostHeader)
                    }
                case .mfaTOTP:
                    let started = ContinuousClock.now
                    let (prepared, firstFactors) = try await fixtures.totpSignIns(
                        count: totpSignIns, runID: String(UUID().uuidString.prefix(8)).lowercased())
                    firstFactorsPerSecond = firstFactors
                    Self.emit(
                        "prepared \(prepared.count) pending TOTP sign-ins in \(Self.elapsed(since: started)): first factors at \(ResultTable.decimal(firstFactors))/s"
                    )
                    requests = prepared.map {
                        PreparedRequest(
                            path: scenario.path,
                            json:
                                #"{"mfaPendingCredential":"\#($0.pendingCredential.jsonEscaped)","mfaEnrollmentId":"\#($0.enrollmentID.jsonEscaped)","totpVerificationInfo":{"verificationCode":"\#($0.code)"}}"#,
                            hostHeader: driver.hostHeader)
                    }
                case .passkey:
                    let started = ContinuousClock.now
                    requests = try await fixtures.passkeySignIns(count: passkeySignIns, accounts: passkeyUsers)
                    Self.emit("prepared \(requests.count) passkey sign-ins of \(passkeyUsers) accounts in \(Self.elapsed(since: started))")
                case .signin, .signinUnderAttack:
                    let started = ContinuousClock.now
                    let accounts = try await fixtures.passwordAccounts(count: passwordUsers, runID: String(UUID().uuidString.prefix(8)).lowercased())
                    Self.emit("prepared \(accounts.count) e-mail accounts in \(Self.elapsed(since: started))")
                    requests = accounts.map {
                        PreparedRequest(
                            path: scenario.path,
                            json: #"{"email":"\#($0.email.jsonEscaped)","password":"\#($0.password.jsonEscaped)","returnSecureToken":true}"#,
                            hostHeader: driver.hostHeader)
                    }
                }
                let plan = RequestPlan(name: scenario.title, requests: requests, expectedStatus: scenario == .notFound ? 404 : 200)
                let attack = scenario == .signinUnderAttack ? try await importedHashAttack(driver: driver) : nil
                var ceilingBefore: CeilingMeter.Measurement?
                if let kind = scenario.ceiling { ceilingBefore = try await measureCeiling(kind, meter: meter, bare: bare) }
                let (report, usage, attackReport) = try await measure(
                    plan, driver: driver, connections: connections, fleet: fleet, databases: databases, alongside: attack)
                var ceiling: CeilingMeter.Measurement?
                var bracket = ""
                if let kind = scenario.ceiling, let ceilingBefore {
                    let ceilingAfter = try await measureCeiling(kind, meter: meter, bare: bare)
                    ceiling = Self.combine(ceilingBefore, ceilingAfter)
                    bracket =
                        "; \(kind.name) ceiling right before / after it: \(ResultTable.decimal(ceilingBefore.operationsPerSecond)) / \(ResultTable.decimal(ceilingAfter.operationsPerSecond))/s"
                }
                var result = ScenarioResult(scenario: scenario, report: report, ceiling: ceiling, usage: usage, target: scenario.target(on: database))
                if wrk, scenario.requestsAreReusable {
                    guard let client = WrkClient.find(threads: wrkThreads, connections: wrkConnections) else {
                        throw BenchmarkError("--wrk: no wrk on the PATH (apt-get install wrk)")
                    }
                    // Warmed up as the built-in client is: the ceiling's measurement just ran, and a replica's cached users
                    // may have aged out meanwhile (PostgreSQL's `cacheMaxAge`), so wrk's first second would read them all.
                    if warmupSeconds > 0 {
                        _ = try await client.run(requests, port: fleet.ports[0], seconds: warmupSeconds, expectedStatus: plan.expectedStatus)
                    }
                    let measured = try await client.run(requests, port: fleet.ports[0], seconds: seconds, expectedStatus: plan.expectedStatus)
                    result.wrk = measured
                    Self.emit(
                        "  wrk: \(ResultTable.decimal(measured.requestsPerSecond)) req/s, p50 \(ResultTable.decimal(measured.p50Milliseconds)) ms, p99 \(ResultTable.decimal(measured.p99Milliseconds)) ms, \(measured.unexpected) unexpected answers"
                    )
                }
                results.append(result)
                let p50 = report.latencyMilliseconds(percentile: 0.5).map(ResultTable.decimal) ?? "-"
                Self.emit(
                    "\(scenario.title): \(ResultTable.decimal(report.successesPerSecond)) req/s, p50 \(p50) ms, \(report.errors) errors, CPU server+db+client+other \(ResultTable.cpu(usage)) cores\(bracket)"
                )
                if scenario == .refresh, let comparePeer, let peer = await measurePeerRefresh(comparePeer, group: driver.group, meter: meter) {
                    results.append(peer)
                }
                if scenario == .mfaTOTP, let firstFactorsPerSecond, report.successesPerSecond > 0 {
                    // Each sign-in is both steps; their CPU costs add, so the pair's rate is the harmonic sum.
                    let scrypt = try await measureCeiling(.scrypt, meter: meter)
                    let pairs = 1 / (1 / firstFactorsPerSecond + 1 / report.successesPerSecond)
                    Self.emit(
                        "  password + TOTP sign-in, both steps: \(ResultTable.decimal(pairs)) sign-ins/s = \(String(format: "%.1f%%", pairs / max(scrypt.operationsPerSecond, 1e-9) * 100)) of the scrypt ceiling (\(ResultTable.decimal(scrypt.operationsPerSecond))/s); first factors \(ResultTable.decimal(firstFactorsPerSecond))/s, second \(ResultTable.decimal(report.successesPerSecond))/s"
                    )
                }
                if scenario == .passkey, let ceiling, report.successesPerSecond > 0 {
                    // Each sign-in verifies one ES256 signature and signs one RS256 token: their costs add.
                    let rs256 = try await measureCeiling(.rs256, meter: meter)
                    let both = 1 / (1 / ceiling.operationsPerSecond + 1 / rs256.operationsPerSecond)
                    Self.emit(
                        "  against an ES256 verification and an RS256 signature per sign-in (\(ResultTable.decimal(both))/s at most): \(String(format: "%.1f%%", report.successesPerSecond / max(both, 1e-9) * 100))"
                    )
                }
                if let attackReport {
                    let fraction =
                        ceiling.map { String(format: "%.1f%%", report.successesPerSecond / max($0.operationsPerSecond, 1e-9) * 100) } ?? "-"
                    let attempts = ResultTable.decimal(Double(attackReport.requests) / max(attackReport.seconds, 1e-9))
                    let attackP50 = attackReport.latencyMilliseconds(percentile: 0.5).map(ResultTable.decimal) ?? "-"
                    let p99 = report.latencyMilliseconds(percentile: 0.99).map(ResultTable.decimal) ?? "-"
                    Self.emit(
                        "  attack beside it: \(attempts) wrong-password answers/s (bcrypt cost \(attackBcryptCost), 6 in flight, p50 \(attackP50) ms); normal sign-ins \(fraction) of the scrypt ceiling, p99 \(p99) ms"
                    )
                }
            }
        }
    }

    private func printErrors(_ results: [ScenarioResult]) {
        let failing = results.filter { $0.report.errors > 0 }
        guard !failing.isEmpty else { return }
        Self.emit("")
        Self.emit("Errors (non-200 answers):")
        for result in failing {
            for (status, count) in result.report.errorsByStatus.sorted(by: { $0.key < $1.key }) {
                Self.emit("  \(result.scenario.title): \(count) × HTTP \(status): \(result.report.errorSamples[status] ?? "")")
            }
        }
    }

    /// Prints and flushes, so progress lines appear at once also when stdout is a pipe or a file.
    static func emit(_ line: String) {
        print(line)
        fflush(nil)
    }

    /// Cores' worth of CPU used by other processes above which a phase is reported as disturbed.
    static let disturbanceThreshold = 0.15

    static func timeAmount(_ seconds: Double) -> TimeAmount { .nanoseconds(Int64(seconds * 1e9)) }

    private static func format(_ seconds: Double) -> String {
        seconds == seconds.rounded() ? String(Int(seconds)) : String(seconds)
    }

    static func elapsed(since start: ContinuousClock.Instant) -> String {
        let duration = ContinuousClock.now - start
        return String(format: "%.1f s", Double(duration.components.seconds) + Double(duration.components.attoseconds) / 1e18)
    }

    private static func timestamp() -> String {
        let formatter = ISO8601DateFormatter()
        formatter.formatOptions = [.withInternetDateTime]
        return formatter.string(from: Date())
    }
}
