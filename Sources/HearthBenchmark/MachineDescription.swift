import Foundation

/// The machine and toolchain a run happened on, for the report header.
struct MachineDescription {
    let cores: Int
    let cpuModel: String?
    let operatingSystem: String
    let swiftCompiler: String
    let memoryBytes: UInt64

    static func current() -> MachineDescription {
        let cpuinfo = (try? String(contentsOfFile: "/proc/cpuinfo", encoding: .utf8)) ?? ""
        let model = cpuinfo.split(separator: "\n").first { $0.hasPrefix("model name") }
            .flatMap { $0.split(separator: ":", maxSplits: 1).last }
            .map { $0.trimmingCharacters(in: .whitespaces) }
        return MachineDescription(
            cores: ProcessInfo.processInfo.activeProcessorCount,
            cpuModel: model,
            operatingSystem: ProcessInfo.processInfo.operatingSystemVersionString,
            swiftCompiler: compilerVersion,
            memoryBytes: ProcessInfo.processInfo.physicalMemory)
    }

    /// The compiler this benchmark was built with (known at compile time only as a range).
    private static var compilerVersion: String {
        #if compiler(>=6.4)
        "6.4 or later"
        #elseif compiler(>=6.3)
        "6.3"
        #elseif compiler(>=6.2)
        "6.2"
        #else
        "6.1 or earlier"
        #endif
    }

    var summary: String {
        let cpu = cpuModel.map { " (\($0))" } ?? ""
        return "\(cores) cores\(cpu), \(memoryBytes / 1_000_000_000) GB RAM, \(operatingSystem), built with Swift \(swiftCompiler)"
    }
}
