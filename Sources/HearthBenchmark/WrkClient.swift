import Foundation
import HearthPostgresLauncher
import NIOCore
import NIOHTTP1

/// wrk (Debian's `wrk`), an independent load client driven over the same scenarios: the built-in client's figures
/// are checked against a second party's, tail included. Each scenario's prepared requests are written into a Lua
/// script that sends them round-robin, and wrk's `--latency` summary is read back.
struct WrkClient {
    let executable: String
    let threads: Int
    let connections: Int

    /// `wrk` on the `PATH`, or `nil`.
    static func find(threads: Int, connections: Int) -> WrkClient? {
        let directories = (ProcessInfo.processInfo.environment["PATH"] ?? "/usr/bin").split(separator: ":")
        guard let found = directories.map({ "\($0)/wrk" }).first(where: FileManager.default.isExecutableFile(atPath:)) else { return nil }
        return WrkClient(executable: found, threads: threads, connections: connections)
    }

    /// What wrk printed for one run.
    struct Result: Sendable {
        let requestsPerSecond: Double
        let p50Milliseconds: Double
        let p99Milliseconds: Double
        /// Answers with another status than the scenario's.
        let unexpected: Int
        var tail: Double { p50Milliseconds > 0 ? p99Milliseconds / p50Milliseconds : 0 }
    }

    /// Runs `requests` (round-robin) against `port` for `seconds`; answers other than `expectedStatus` are counted.
    func run(_ requests: [PreparedRequest], port: Int, seconds: Double, expectedStatus: UInt) async throws -> Result {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("hearth-wrk-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: directory) }
        let script = directory.appendingPathComponent("scenario.lua")
        try Self.script(requests, expectedStatus: expectedStatus).write(to: script, atomically: true, encoding: .utf8)
        let output = directory.appendingPathComponent("wrk.out")
        let process = try ChildProcess.start(
            [
                executable, "--threads", String(threads), "--connections", String(connections), "--duration", "\(max(1, Int(seconds.rounded())))s",
                "--timeout", "30s", "--latency", "--script", script.path, "http://127.0.0.1:\(port)",
            ], output: output)
        guard try await process.wait(timeout: seconds + 60) == 0 else {
            process.send(SIGKILL)
            throw BenchmarkError("wrk failed: \((try? String(contentsOf: output, encoding: .utf8))?.suffix(500) ?? "")")
        }
        return try Self.parse(String(contentsOf: output, encoding: .utf8))
    }

    /// A Lua script that sends `requests` in turn and counts answers of another status than `expectedStatus`.
    static func script(_ requests: [PreparedRequest], expectedStatus: UInt) -> String {
        func lua(_ text: String) -> String {
            var quoted = "\""
            for byte in text.utf8 {
                switch byte {
                case UInt8(ascii: "\""), UInt8(ascii: "\\"): quoted += "\\" + String(UnicodeScalar(byte))
                case 0x20..<0x7F: quoted += String(UnicodeScalar(byte))
                default: quoted += "\\" + String(byte)
                }
            }
            return quoted + "\""
        }
        let entries = requests.map { request in
            let headers = request.head.headers.filter { $0.name.lowercased() != "host" && $0.name.lowercased() != "content-length" }
                .map { "[\(lua($0.name))] = \(lua($0.value))" }.joined(separator: ", ")
            let body = request.body.readableBytes > 0 ? lua(String(buffer: request.body)) : "nil"
            return "  {\(lua(request.head.method.rawValue)), \(lua(request.head.uri)), {\(headers)}, \(body)}"
        }
        return """
            local requests = {
            \(entries.joined(separator: ",\n"))
            }
            local index = 0
            unexpected = 0
            request = function()
              index = index % #requests + 1
              local r = requests[index]
              return wrk.format(r[1], r[2], r[3], r[4])
            end
            response = function(status, headers, body)
              if status ~= \(expectedStatus) then unexpected = unexpected + 1 end
            end
            setup = function(thread) table.insert(threads, thread) end
            threads = {}
            done = function(summary, latency, requests)
              local total = 0
              for _, thread in ipairs(threads) do total = total + thread:get("unexpected") end
              io.write(string.format("unexpected: %d\\n", total))
              io.write(string.format("p50us: %d\\np99us: %d\\n", latency:percentile(50), latency:percentile(99)))
            end
            """
    }

    /// Reads `Requests/sec:`, and the `p50us`, `p99us` and `unexpected` lines the script's `done` writes.
    static func parse(_ output: String) throws -> Result {
        func value(_ label: String) -> Double? {
            output.split(separator: "\n").first { $0.trimmingCharacters(in: .whitespaces).hasPrefix(label) }
                .flatMap { Double($0.split(separator: ":").last?.trimmingCharacters(in: .whitespaces) ?? "") }
        }
        guard let rate = value("Requests/sec:"), let p50 = value("p50us:"), let p99 = value("p99us:"), let unexpected = value("unexpected:") else {
            throw BenchmarkError("unreadable wrk output: \(output.suffix(500))")
        }
        return Result(requestsPerSecond: rate, p50Milliseconds: p50 / 1_000, p99Milliseconds: p99 / 1_000, unexpected: Int(unexpected))
    }
}
