import Foundation
import Testing

/// The module rules of the README's Layout, read from the manifest and the sources so that they hold as the
/// code grows: the server never links the provider sandbox, the sandbox never sees the code it stands in
/// for, and the domain knows nothing of HTTP or SQL.
@Suite("Module boundaries")
struct ModuleBoundaryTests {
    static let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()

    /// `(module, modules it must neither declare nor import)`.
    static let forbidden: [(String, [String])] = [
        ("HearthServer", ["HearthSandbox", "HearthDevelopment", "HearthTesting"]),
        ("HearthSandbox", ["HearthProviders", "HearthTokens", "HearthServer", "HearthCore", "HearthDevelopment"]),
        ("HearthProviders", ["HearthSandbox", "HearthServer", "HearthTokens"]),
        ("HearthCore", ["Hummingbird", "SQLKit", "NIOCore", "NIOHTTP1", "AsyncHTTPClient", "HearthWire", "HearthServer"]),
        ("HearthWire", ["HearthCore", "Foundation_Networking"]),
        ("HearthAuth", ["HearthCore", "HearthServer", "HearthSandbox", "HearthTesting"]),
        // The C++ API's bridge is the client SDK's: nothing of the server may reach an app through it.
        ("HearthAuthBridge", ["HearthCore", "HearthServer", "HearthSandbox", "HearthTesting", "HearthWire", "Hummingbird", "NIOCore"]),
        ("HearthAdmin", ["HearthCore", "HearthServer", "HearthStorage", "HearthTokens", "HearthTesting", "Hummingbird"]),
        ("HearthAdminHummingbird", ["HearthCore", "HearthServer", "HearthStorage", "HearthTokens", "HearthTesting"]),
    ]

    @Test("no module declares a dependency it must not have", arguments: forbidden.map(\.0))
    func manifest(module: String) throws {
        let manifest = try String(contentsOf: Self.root.appendingPathComponent("Package.swift"), encoding: .utf8)
        let declared = try #require(Self.dependencies(of: module, in: manifest), "no target \(module) in Package.swift")
        let rules = Self.forbidden.first { $0.0 == module }?.1 ?? []
        for name in rules { #expect(!declared.contains("\"\(name)\""), "\(module) declares \(name)") }
    }

    @Test("no source file imports a module its module must not see", arguments: forbidden.map(\.0))
    func imports(module: String) throws {
        let directory = Self.root.appendingPathComponent("Sources/\(module)")
        let files = try #require(FileManager.default.enumerator(at: directory, includingPropertiesForKeys: nil))
        var checked = 0
        let rules = Self.forbidden.first { $0.0 == module }?.1 ?? []
        for case let file as URL in files where file.pathExtension == "swift" {
            checked += 1
            let text = try String(contentsOf: file, encoding: .utf8)
            for line in text.split(separator: "\n") where line.hasPrefix("import ") || line.contains(" import ") {
                let imported = line.split(separator: " ").last.map(String.init) ?? ""
                #expect(!rules.contains(imported), "\(file.lastPathComponent) in \(module) imports \(imported)")
            }
        }
        #expect(checked > 0)
    }

    /// The text of `dependencies: [ … ]` of the target named `module`.
    static func dependencies(of module: String, in manifest: String) -> String? {
        // The target's declaration, not a product of the same name listed earlier.
        guard let name = manifest.range(of: "\\.target\\(\\s*name: \"\(module)\"", options: .regularExpression),
            let start = manifest.range(of: "dependencies: [", range: name.upperBound..<manifest.endIndex)
        else { return nil }
        // The target's own list: it opens before the next target starts.
        if let next = manifest.range(of: ".target(", range: name.upperBound..<manifest.endIndex), next.lowerBound < start.lowerBound {
            return ""
        }
        var depth = 1
        var index = start.upperBound
        while index < manifest.endIndex, depth > 0 {
            switch manifest[index] {
            case "[": depth += 1
            case "]": depth -= 1
            default: break
            }
            index = manifest.index(after: index)
        }
        return String(manifest[start.upperBound..<index])
    }
}
