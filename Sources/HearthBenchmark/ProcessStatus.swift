import Foundation

/// A process's resident memory and CPU time, read from procfs (`/proc/<pid>/status` and `/proc/<pid>/stat`).
/// Every reading is nil where there is no procfs (macOS) or the process is gone.
struct ProcessStatus: Sendable {
    /// `VmRSS`: resident set size now.
    let residentBytes: Int
    /// `VmHWM`: the highest resident set size so far.
    let peakResidentBytes: Int

    /// `pid` is a number or `self`.
    init?(pid: String) {
        guard let status = try? String(contentsOfFile: "/proc/\(pid)/status", encoding: .utf8) else { return nil }
        var rss: Int?
        var hwm: Int?
        for line in status.split(separator: "\n") {
            if line.hasPrefix("VmRSS:") { rss = Self.kilobytes(line) }
            if line.hasPrefix("VmHWM:") { hwm = Self.kilobytes(line) }
        }
        guard let rss, let hwm else { return nil }
        residentBytes = rss * 1_024
        peakResidentBytes = hwm * 1_024
    }

    private static func kilobytes(_ line: Substring) -> Int? {
        line.split(separator: " ", omittingEmptySubsequences: true).dropFirst().first.flatMap { Int($0) }
    }

    /// CPU seconds the whole machine has spent busy (everything but idle and I/O wait; hypervisor steal
    /// included), from the first line of `/proc/stat`.
    static func machineBusySeconds() -> Double? {
        guard let stat = try? String(contentsOfFile: "/proc/stat", encoding: .utf8),
            let line = stat.split(separator: "\n").first, line.hasPrefix("cpu ")
        else { return nil }
        // user nice system idle iowait irq softirq steal guest guest_nice (guest time is inside user).
        let ticks = line.split(separator: " ", omittingEmptySubsequences: true).dropFirst().prefix(8).compactMap { Double($0) }
        let perSecond = Double(sysconf(Int32(_SC_CLK_TCK)))
        guard ticks.count == 8, perSecond > 0 else { return nil }
        return (ticks.reduce(0, +) - ticks[3] - ticks[4]) / perSecond
    }

    /// User plus system CPU seconds the process has used, all threads together.
    static func cpuSeconds(pid: String) -> Double? {
        guard let stat = try? String(contentsOfFile: "/proc/\(pid)/stat", encoding: .utf8),
            let close = stat.lastIndex(of: ")")
        else { return nil }
        // After "pid (comm)": state is field 3, utime field 14, stime field 15.
        let fields = stat[stat.index(after: close)...].split(separator: " ", omittingEmptySubsequences: true)
        guard fields.count > 12, let user = Double(fields[11]), let system = Double(fields[12]) else { return nil }
        let ticks = Double(sysconf(Int32(_SC_CLK_TCK)))
        return ticks > 0 ? (user + system) / ticks : nil
    }
}
