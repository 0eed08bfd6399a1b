import Foundation
import HearthAdmin
import NIOCore

/// The admin phase (`--admin-users`): imports users through `accounts:batchCreate` with bcrypt and with
/// Firebase-scrypt hashes (each on a fresh database), pages through them with `accounts:batchGet`, and
/// verifies ID tokens with ``HearthAdmin`` against the RS256 verification ceiling.
struct AdminBenchmark {
    /// The password hashes the imported users carry. Import stores hashes, it does not recompute them,
    /// so every user carries the same one.
    enum HashKind: CaseIterable, Sendable {
        case bcrypt
        case firebaseScrypt

        var title: String {
            switch self {
            case .bcrypt: "BCRYPT"
            case .firebaseScrypt: "Firebase SCRYPT"
            }
        }

        /// The `batchCreate` fields that name the algorithm and its parameters.
        var parameters: String {
            switch self {
            case .bcrypt: #""hashAlgorithm":"BCRYPT""#
            // github.com/firebase/scrypt's README vector (as in AdminAccountsTests).
            case .firebaseScrypt:
                #""hashAlgorithm":"SCRYPT","signerKey":"jxspr8Ki0RYycVU8zykbdLGjFQ3McFUH0uiiTvC8pVMXAn210wjLNmdZJzxUECKbm0QsEmYUSDzZvpjeJ9WmXA==","saltSeparator":"Bw==","rounds":8,"memoryCost":14"#
            }
        }

        /// The hash fields of one user.
        var userFields: String {
            switch self {
            case .bcrypt:
                // A bcrypt hash made by Python's bcrypt package, its ASCII as bytes.
                #""passwordHash":"\#(Data("$2b$06$tXoPZeB8dx8h54okwd2scOmLV1OtST6c5Rvwop8C3f37fcoiqND7S".utf8).base64EncodedString())""#
            case .firebaseScrypt:
                #""passwordHash":"lSrfV15cpx95_sZS2W9c9Kp6i_LVgQNDNC_qzrCnh1SAyZvqmZqAjTdn3aoItz-VHjoZilo78198JAdRuid5lQ","salt":"42xEC+ixf3L2lw==""#
            }
        }
    }

    /// One row of the admin table.
    struct Row: Sendable {
        let title: String
        /// Users imported or listed; nil for verification.
        let users: Int?
        /// HTTP calls (import batches, list pages) or verifications.
        let operations: Int
        let seconds: Double
        /// The RS256 verification ceiling (verification only) and the fraction of it to reach.
        var ceiling: CeilingMeter.Measurement?
        var target: Double?
        let usage: ResourceMonitor.Usage

        var operationsPerSecond: Double { seconds > 0 ? Double(operations) / seconds : 0 }
        var usersPerSecond: Double? { users.map { seconds > 0 ? Double($0) / seconds : 0 } }
        var fractionOfCeiling: Double? {
            guard let ceiling, ceiling.operationsPerSecond > 0 else { return nil }
            return operationsPerSecond / ceiling.operationsPerSecond
        }
    }

    static let projectID = "demo-hearth"
    static let batchSize = 1_000
    static let authorization = "Bearer owner"

    let driver: LoadDriver
    let fleet: ServerFleet
    let databasePIDs: @Sendable () -> [Int32]

    /// Imports `count` users in calls of 1,000 over `connections` concurrent connections. The uids carry
    /// `runID` (a database of `--postgres-url` is never emptied) and sort in import order.
    func importUsers(_ count: Int, hash: HashKind, runID: String, connections: Int) async throws -> Row {
        let path = "/v1/projects/\(Self.projectID)/accounts:batchCreate"
        let requests = stride(from: 0, to: count, by: Self.batchSize).map { first in
            let users = (first..<min(first + Self.batchSize, count)).map { index in
                let uid = "adm-\(runID)-\(String(format: "%07d", index))"
                return #"{"localId":"\#(uid)","email":"\#(uid)@example.com",\#(hash.userFields)}"#
            }
            return PreparedRequest(
                path: path, json: "{\(hash.parameters),\"users\":[\(users.joined(separator: ","))]}", hostHeader: driver.hostHeader,
                authorization: Self.authorization)
        }
        let plan = RequestPlan(name: "import (\(hash.title))", requests: requests, capturesBodies: true)
        let before = CPUSnapshot(serverPIDs: fleet.pids, databasePIDs: databasePIDs())
        let report = try await driver.runOnce(plan, connections: connections)
        let usage = CPUSnapshot(serverPIDs: fleet.pids, databasePIDs: before.databasePIDs).usage(since: before)
        guard report.captured.count == requests.count else {
            throw BenchmarkError("\(plan.name): \(report.captured.count) of \(requests.count) answers")
        }
        for response in report.captured where response.status != 200 || response.body.contains(#""error""#) {
            throw BenchmarkError("\(plan.name): HTTP \(response.status): \(response.body.prefix(300))")
        }
        return Row(title: "import, \(hash.title)", users: count, operations: requests.count, seconds: report.seconds, usage: usage)
    }

    private struct Page: Decodable {
        /// A user, not decoded: only counted.
        struct Skipped: Decodable {
            init(from decoder: any Decoder) throws {}
        }
        let users: [Skipped]?
        let nextPageToken: String?
    }

    /// Pages through every user with `accounts:batchGet?maxResults=1000`, one page after the other.
    func listUsers(after hash: HashKind) async throws -> Row {
        let decoder = JSONDecoder()
        var token: String?
        var pages = 0
        var users = 0
        var seconds = 0.0
        let before = CPUSnapshot(serverPIDs: fleet.pids, databasePIDs: databasePIDs())
        repeat {
            var path = "/v1/projects/\(Self.projectID)/accounts:batchGet?maxResults=\(Self.batchSize)"
            if let token {
                path += "&nextPageToken=\(token.addingPercentEncoding(withAllowedCharacters: .urlQueryAllowed.subtracting(["&", "=", "+"])) ?? token)"
            }
            let plan = RequestPlan(
                name: "list", requests: [PreparedRequest(get: path, hostHeader: driver.hostHeader, authorization: Self.authorization)],
                capturesBodies: true)
            let report = try await driver.runOnce(plan, connections: 1)
            seconds += report.seconds
            guard let response = report.captured.first, response.status == 200,
                let page = try? decoder.decode(Page.self, from: Data(response.body.utf8))
            else {
                throw BenchmarkError("list: HTTP \(report.captured.first?.status ?? 0): \(report.captured.first?.body.prefix(300) ?? "")")
            }
            pages += 1
            users += page.users?.count ?? 0
            token = (page.users?.isEmpty ?? true) ? nil : page.nextPageToken
        } while token != nil
        let usage = CPUSnapshot(serverPIDs: fleet.pids, databasePIDs: before.databasePIDs).usage(since: before)
        return Row(title: "list after \(hash.title) import", users: users, operations: pages, seconds: seconds, usage: usage)
    }

    /// `HearthAdmin.verifyIDToken(_:)` (no revocation check) on `tasks` concurrent tasks, the tokens
    /// round-robin, for `warmup` and then the measured `duration`.
    func verifyIDTokens(_ tokens: [String], tasks: Int, warmup: TimeAmount, duration: TimeAmount) async throws -> Row {
        guard let port = fleet.ports.first, let server = URL(string: "http://127.0.0.1:\(port)") else {
            throw BenchmarkError("verifyIDToken: no server")
        }
        let admin = try HearthAdmin(projectID: Self.projectID, server: server, credential: .emulatorOwner)
        for token in tokens { _ = try await admin.verifyIDToken(token) }  // every token is valid; the keys are fetched
        let start = NIODeadline.now() + warmup
        let end = start + duration
        var monitor = ResourceMonitor(serverPIDs: fleet.pids)
        monitor.databasePIDs = databasePIDs
        let (verified, usage) = try await monitor.watch(measureStart: start, measureEnd: end) {
            try await withThrowingTaskGroup(of: Int.self) { group in
                for task in 0..<tasks {
                    group.addTask {
                        var index = task
                        var count = 0
                        while true {
                            _ = try await admin.verifyIDToken(tokens[index % tokens.count])
                            index += tasks
                            let now = NIODeadline.now()
                            if now >= end { return count }
                            if now >= start { count += 1 }
                        }
                    }
                }
                return try await group.reduce(0, +)
            }
        }
        return Row(
            title: "verifyIDToken, \(tasks) tasks, \(tokens.count) tokens", users: nil, operations: verified,
            seconds: Double(duration.nanoseconds) / 1e9, usage: usage)
    }
}

/// CPU seconds of the servers, the database, this process and the machine at one moment; two of them
/// give the cores' worth each used in between.
struct CPUSnapshot {
    let taken = NIODeadline.now()
    let databasePIDs: [Int32]
    private let server: Double?
    private let database: [Int32: Double]
    private let client = ProcessStatus.cpuSeconds(pid: "self")
    private let machine = ProcessStatus.machineBusySeconds()

    init(serverPIDs: [Int32], databasePIDs: [Int32]) {
        var total: Double? = 0
        for pid in serverPIDs {
            guard let seconds = ProcessStatus.cpuSeconds(pid: String(pid)) else {
                total = nil
                break
            }
            total? += seconds
        }
        server = total
        self.databasePIDs = databasePIDs
        var database: [Int32: Double] = [:]
        for pid in databasePIDs { database[pid] = ProcessStatus.cpuSeconds(pid: String(pid)) }
        self.database = database
    }

    /// What was used between `before` and this snapshot.
    func usage(since before: CPUSnapshot) -> ResourceMonitor.Usage {
        let window = Double((taken - before.taken).nanoseconds) / 1e9
        func cores(_ start: Double?, _ end: Double?) -> Double? {
            guard let start, let end, window > 0 else { return nil }
            return (end - start) / window
        }
        var usage = ResourceMonitor.Usage()
        usage.serverCores = cores(before.server, server)
        if !databasePIDs.isEmpty, window > 0 {
            // Backends that ended in between are lost (their CPU shows as "other").
            usage.databaseCores =
                before.database.reduce(0) { sum, entry in sum + max(0, (database[entry.key] ?? entry.value) - entry.value) } / window
        }
        usage.clientCores = cores(before.client, client)
        if let machine = cores(before.machine, machine), let server = usage.serverCores, let client = usage.clientCores {
            usage.otherCores = max(0, machine - server - client - (usage.databaseCores ?? 0))
        }
        return usage
    }
}

/// The admin phase's figures as a Markdown table.
struct AdminTable {
    let rows: [AdminBenchmark.Row]

    func render() -> String {
        let header = [
            "Phase", "Users", "Calls", "Seconds", "Users/s", "Calls/s", "Ceiling /s", "vs ceiling", "Target", "Met", "CPU server+db+client+other",
        ]
        let cells = rows.map { row -> [String] in
            [
                row.title,
                row.users.map { ResultTable.grouped(Double($0)) } ?? "-",
                ResultTable.grouped(Double(row.operations)),
                String(format: "%.2f", row.seconds),
                row.usersPerSecond.map { ResultTable.grouped($0) } ?? "-",
                row.operationsPerSecond >= 100 ? ResultTable.grouped(row.operationsPerSecond) : ResultTable.decimal(row.operationsPerSecond),
                row.ceiling.map { "RS256 verify \(ResultTable.grouped($0.operationsPerSecond))" } ?? "-",
                row.fractionOfCeiling.map { String(format: "%.1f%%", $0 * 100) } ?? "-",
                row.target.map { "≥ \(Int(($0 * 100).rounded()))% of ceiling" } ?? "-",
                row.target.map { (row.fractionOfCeiling ?? 0) >= $0 ? "yes" : "NO" } ?? "-",
                ResultTable.cpu(row.usage),
            ]
        }
        let text: Set<Int> = [0, 6, 8, 9]
        return ResultTable.markdown(header: header, rows: cells, numeric: Set(header.indices).subtracting(text))
    }
}
