import Foundation

/// `accounts:query` sorted by `CREATED_AT` on the user-count phase's database (`--query-pages`): pages of 500
/// at offsets spread evenly from the first user to the last, one request at a time, ascending then descending.
/// Each page is checked (500 users, or the rest at the end; creation times in order). The server's peak RSS is
/// reset before and read after, so it is the peak of these pages alone: bounded memory means it does not grow
/// with the table.
struct QueryBenchmark {
    /// One direction's pages.
    struct Row: Sendable {
        let users: Int
        let descending: Bool
        let pages: Int
        let returned: Int
        let report: LoadReport
        /// The server's peak RSS over these pages (after a reset), and its RSS before them.
        let peakResidentBytes: Int?
        let residentBytesBefore: Int?

        var title: String { "query, createdAt \(descending ? "DESC" : "ASC")" }
    }

    static let pageSize = 500

    let driver: LoadDriver
    let fleet: ServerFleet

    private struct Page: Decodable {
        struct User: Decodable {
            let createdAt: String?
        }
        let userInfo: [User]?
    }

    func run(users: Int, pages: Int) async throws -> [Row] {
        var rows: [Row] = []
        // Offsets 0, …, the last full page: spread evenly, the deepest reading (almost) the whole index.
        let last = max(0, users - Self.pageSize)
        let offsets = (0..<pages).map { pages > 1 ? last * $0 / (pages - 1) : 0 }
        for descending in [false, true] {
            let requests = offsets.map { offset in
                PreparedRequest(
                    path: "/v1/projects/\(AdminBenchmark.projectID)/accounts:query",
                    json: #"{"sortBy":"CREATED_AT","order":"\#(descending ? "DESC" : "ASC")","offset":"\#(offset)","limit":\#(Self.pageSize)}"#,
                    hostHeader: driver.hostHeader, authorization: AdminBenchmark.authorization)
            }
            let before = fleet.replicas.first.flatMap { $0.memory()?.residentBytes }
            fleet.resetPeakResidentBytes()
            let report = try await driver.runOnce(
                RequestPlan(name: "query \(descending ? "DESC" : "ASC")", requests: requests, capturesBodies: true), connections: 1)
            let peak = fleet.peakResidentBytes()
            guard report.captured.count == requests.count else {
                throw BenchmarkError("query: \(report.captured.count) of \(requests.count) answers")
            }
            var returned = 0
            for (index, response) in report.captured.enumerated() {
                guard response.status == 200, let page = try? JSONDecoder().decode(Page.self, from: Data(response.body.utf8)) else {
                    throw BenchmarkError("query: HTTP \(response.status): \(response.body.prefix(300))")
                }
                let times = (page.userInfo ?? []).compactMap { $0.createdAt.flatMap { Int64($0) } }
                let ordered = descending ? times == times.sorted(by: >) : times == times.sorted()
                let expected = min(Self.pageSize, max(0, users - offsets[index]))
                guard times.count == expected, ordered else {
                    throw BenchmarkError(
                        "query: page at offset \(offsets[index]) has \(times.count) users (expected \(expected)), ordered: \(ordered)")
                }
                returned += times.count
            }
            rows.append(
                Row(
                    users: users, descending: descending, pages: requests.count, returned: returned, report: report, peakResidentBytes: peak,
                    residentBytesBefore: before))
        }
        return rows
    }
}

/// The query rows as a Markdown table.
struct QueryTable {
    let rows: [QueryBenchmark.Row]

    func render() -> String {
        let header = [
            "Users", "Order", "Pages of 500", "Users returned", "Pages/s", "p50 ms", "p99 ms", "max ms", "Server RSS before MB", "Server peak RSS MB",
        ]
        let cells = rows.map { row -> [String] in
            [
                ResultTable.grouped(Double(row.users)), row.descending ? "DESC" : "ASC", String(row.pages), ResultTable.grouped(Double(row.returned)),
                ResultTable.decimal(row.report.successesPerSecond),
                row.report.latencyMilliseconds(percentile: 0.5).map(ResultTable.decimal) ?? "-",
                row.report.latencyMilliseconds(percentile: 0.99).map(ResultTable.decimal) ?? "-",
                row.report.latencyMilliseconds(percentile: 1).map(ResultTable.decimal) ?? "-",
                row.residentBytesBefore.map(ResultTable.megabytes) ?? "-", row.peakResidentBytes.map(ResultTable.megabytes) ?? "-",
            ]
        }
        return ResultTable.markdown(header: header, rows: cells, numeric: Set(header.indices).subtracting([1]))
    }
}
