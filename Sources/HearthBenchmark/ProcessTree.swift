import Foundation

/// Processes by parent, from `/proc/<pid>/stat`.
enum ProcessTree {
    /// `root` (when `includingRoot`) and every process below it.
    static func descendants(of root: Int32, includingRoot: Bool) -> [Int32] {
        guard let names = try? FileManager.default.contentsOfDirectory(atPath: "/proc") else { return includingRoot ? [root] : [] }
        var children: [Int32: [Int32]] = [:]
        for name in names {
            guard let pid = Int32(name), let stat = try? String(contentsOfFile: "/proc/\(name)/stat", encoding: .utf8),
                let close = stat.lastIndex(of: ")")
            else { continue }
            // After "pid (comm)": state, then ppid.
            let fields = stat[stat.index(after: close)...].split(separator: " ", omittingEmptySubsequences: true)
            guard fields.count > 1, let parent = Int32(fields[1]) else { continue }
            children[parent, default: []].append(pid)
        }
        var result: [Int32] = includingRoot ? [root] : []
        var queue = children[root] ?? []
        while let next = queue.popLast() {
            result.append(next)
            queue += children[next] ?? []
        }
        return result
    }
}
