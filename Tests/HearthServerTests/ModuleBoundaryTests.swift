import Foundation
import Testing

/// The module rules of the README's Layout, read from the manifest and from every `import` of the sources so
/// that they hold as the code grows: the server never links the provider sandbox, the sandbox never sees the
/// code it stands in for, the domain knows nothing of HTTP or SQL, the wire types and the SDK stand alone; and
/// every module a target imports is one Package.swift declares for it (not one that merely comes along with
/// another package).
@Suite("Module boundaries")
struct ModuleBoundaryTests {
    static let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()

    /// Modules of the toolchain and the operating systems: imported without a package dependency.
    static let platform: Set<String> = [
        "Foundation", "FoundationEssentials", "FoundationNetworking", "FoundationXML", "CoreFoundation", "Dispatch", "Synchronization", "Observation",
        "Glibc", "Musl", "Darwin", "Android", "WinSDK", "CryptoKit", "Security", "AuthenticationServices", "Testing", "XCTest",
    ]

    /// HTTP: the server's and the clients' modules.
    /// (HummingbirdBcrypt, OpenBSD's bcrypt in C, comes with Hummingbird's packages but has nothing of HTTP.)
    static func isHTTP(_ module: String) -> Bool {
        (module.hasPrefix("Hummingbird") && module != "HummingbirdBcrypt") || module.hasPrefix("NIOHTTP") || module.hasPrefix("HTTPTypes")
            || module == "AsyncHTTPClient"
    }

    /// SQL: SQLKit and the drivers.
    static func isSQL(_ module: String) -> Bool {
        module.hasPrefix("SQL") || module.hasPrefix("Postgres")
    }

    /// A rule of one module: what it must never import (a predicate over module names).
    struct Rule: Sendable, CustomTestStringConvertible {
        let module: String
        let says: String
        let forbids: @Sendable (String) -> Bool

        var testDescription: String { "\(module): \(says)" }
    }

    static let rules: [Rule] = [
        // The store is chosen, and the PostgreSQL pool run, by the composition: the server knows only the SQL store.
        Rule(module: "HearthServer", says: "never the sandbox, development mode, the test kit, the composition or a storage backend") {
            ["HearthSandbox", "HearthDevelopment", "HearthTesting", "HearthComposition", "HearthStorageSQLite", "HearthStoragePostgres"]
                .contains($0) || isSQL($0)
        },
        Rule(module: "HearthComposition", says: "never the sandbox, development mode or the test kit") {
            ["HearthSandbox", "HearthDevelopment", "HearthTesting"].contains($0)
        },
        // The two dependency-free codecs are shared; nothing that verifies or signs is.
        Rule(module: "HearthSandbox", says: "nothing of Hearth but the base64url and form codecs") {
            $0.hasPrefix("Hearth") && !["HearthBase64URL", "HearthFormEncoding"].contains($0)
        },
        Rule(module: "HearthProviders", says: "never the sandbox, the server or the tokens") {
            ["HearthSandbox", "HearthServer", "HearthTokens", "HearthDevelopment"].contains($0)
        },
        // HearthWebAuthn is verification alone, like swift-crypto: the use cases call it directly.
        Rule(module: "HearthCore", says: "no HTTP, no SQL, no NIO, no wire types") {
            isHTTP($0) || isSQL($0) || $0.hasPrefix("NIO") || ($0.hasPrefix("Hearth") && !["HearthBase64URL", "HearthWebAuthn"].contains($0))
        },
        Rule(module: "HearthWebAuthn", says: "the platform, swift-crypto, swift-certificates, swift-asn1 and HearthBase64URL only") {
            !platform.contains($0) && !["Crypto", "CryptoExtras", "X509", "SwiftASN1", "HearthBase64URL"].contains($0)
        },
        Rule(module: "HearthWire", says: "nothing but the platform") { !platform.contains($0) },
        Rule(module: "HearthBase64URL", says: "nothing but the platform") { !platform.contains($0) },
        Rule(module: "HearthAuth", says: "the platform, HearthWire and HearthBase64URL only") {
            !platform.contains($0) && !["HearthWire", "HearthBase64URL"].contains($0)
        },
        // The C++ API's bridge is the client SDK's: nothing of the server may reach an app through it.
        Rule(module: "HearthAuthBridge", says: "the platform and HearthAuth only") { !platform.contains($0) && $0 != "HearthAuth" },
        Rule(module: "HearthAdmin", says: "no server module and no server framework") {
            ["HearthCore", "HearthServer", "HearthStorage", "HearthTokens", "HearthTesting"].contains($0) || $0.hasPrefix("Hummingbird") || isSQL($0)
        },
        Rule(module: "HearthAdminHummingbird", says: "no server module") {
            ["HearthCore", "HearthServer", "HearthStorage", "HearthTokens", "HearthTesting"].contains($0) || isSQL($0)
        },
        Rule(module: "HearthTelemetry", says: "nothing of Hearth") { $0.hasPrefix("Hearth") },
        // Settings, texts and pages are plain values and strings: the server's HTTP translates them.
        Rule(module: "HearthConfiguration", says: "no HTTP, no SQL, nothing of the server") {
            isHTTP($0) || isSQL($0) || $0.hasPrefix("NIO") || ["HearthServer", "HearthStorage", "HearthSandbox"].contains($0)
        },
        Rule(module: "HearthMessages", says: "no HTTP, no SQL: texts and pages as strings") {
            isHTTP($0) || isSQL($0) || $0.hasPrefix("NIO") || ($0.hasPrefix("Hearth") && $0 != "HearthCore")
        },
        // The console serves its own pages (Hummingbird) over the use cases HearthServer hands it; no SQL, never the server.
        Rule(module: "HearthConsole", says: "no SQL driver, no storage backend, never the server") {
            isSQL($0) || ["HearthServer", "HearthSandbox", "HearthDevelopment", "HearthStorageSQLite", "HearthStoragePostgres"].contains($0)
        },
        // SAML's signatures and encryption are libxmlsec1's: the module speaks no HTTP and stores nothing.
        Rule(module: "HearthSAML", says: "the platform and libxmlsec1 (CXMLSec, CXMLSecSupport) only") {
            !platform.contains($0) && !["CXMLSec", "CXMLSecSupport"].contains($0)
        },
        Rule(module: "HearthMail", says: "nothing of Hearth") { $0.hasPrefix("Hearth") },
        Rule(module: "HearthPostgresLauncher", says: "nothing of Hearth") { $0.hasPrefix("Hearth") },
    ]

    // MARK: The checks

    @Test("no module declares or imports a module its rule forbids", arguments: rules)
    func rule(_ rule: Rule) throws {
        let target = try #require(Self.manifestTargets.first { $0.name == rule.module }, "no target \(rule.module) in Package.swift")
        for name in target.dependencies.sorted() where rule.forbids(name) {
            Issue.record("\(rule.module) declares \(name): \(rule.says)")
        }
        let imports = try Self.imports(of: target)
        #expect(!imports.isEmpty || ["HearthWire", "HearthBase64URL"].contains(rule.module), "no import found in \(target.path)")
        for (module, files) in imports.sorted(by: { $0.key < $1.key }) where rule.forbids(module) {
            Issue.record("\(files.first ?? "?") in \(rule.module) imports \(module): \(rule.says)")
        }
    }

    @Test("every module a target imports is declared in its dependencies in Package.swift")
    func everyImportDeclared() throws {
        let targets = Self.manifestTargets
        #expect(targets.count > 30, "Package.swift's targets not found: \(targets.map(\.name))")
        var swiftTargets = 0
        for target in targets {
            let imports = try Self.imports(of: target)
            if !imports.isEmpty { swiftTargets += 1 }
            for (module, files) in imports.sorted(by: { $0.key < $1.key })
            where !Self.platform.contains(module) && module != target.name && !target.dependencies.contains(module) {
                Issue.record("\(target.name) imports \(module) (\(files.first ?? "?")) without declaring it in Package.swift")
            }
        }
        #expect(swiftTargets > 25)
    }

    /// The checks above pass only if the readers see what is there: known imports and declarations, and
    /// a violation made up here, must be found.
    @Test("the readers find known imports and declarations, and a made-up violation")
    func readersSeeWhatIsThere() throws {
        let targets = Self.manifestTargets
        func target(_ name: String) throws -> ManifestTarget { try #require(targets.first { $0.name == name }) }

        let server = try target("HearthServer")
        #expect(server.path == "Sources/HearthServer")
        #expect(server.dependencies.isSuperset(of: ["HearthCore", "HearthWire", "Hummingbird", "HTTPTypes", "NIOCore", "Tracing"]))
        let serverImports = try Self.imports(of: server)
        #expect(Set(serverImports.keys).isSuperset(of: ["Foundation", "HearthCore", "HearthWire", "Hummingbird", "HTTPTypes", "NIOCore"]))
        #expect(try Set(Self.imports(of: target("HearthStorageSQLite")).keys).isSuperset(of: ["SQLiteNIO", "SQLKit", "HearthStorage"]))
        #expect(try Set(Self.imports(of: target("HearthAuth")).keys).isSuperset(of: ["Foundation", "HearthWire", "HearthBase64URL"]))
        #expect(try target("HearthAuthExample").path == "Examples/HearthAuthExample")
        #expect(try target("HearthServerTests").path == "Tests/HearthServerTests")
        #expect(try target("HearthWire").dependencies.isEmpty)

        // Every form an import takes, and lines that only look like one.
        let source = [
            "import Foundation", "@testable import HearthStorage", "public import HearthCore", "internal import struct NIOCore.ByteBuffer",
            "@preconcurrency import Dispatch", "  #if canImport(FoundationNetworking)", "    import FoundationNetworking", "#endif",
            "@_spi(Testing) @testable import Hummingbird", "import SQLKit // trailing", "// import HearthSandbox",
            "/// import HearthSandbox", "let important = 1", "importer()",
        ].joined(separator: "\n")
        #expect(
            Self.importedModules(in: source) == [
                "Foundation", "HearthStorage", "HearthCore", "NIOCore", "Dispatch", "FoundationNetworking", "Hummingbird", "SQLKit",
            ])

        // A manifest with a target that declares its sandbox, and sources that import an undeclared module.
        let manifest = """
            .target(
                name: "HearthServer",
                dependencies: ["HearthCore", "HearthSandbox", .product(name: "Hummingbird", package: "hummingbird")],
                swiftSettings: swiftSettings
            ),
            .testTarget(name: "HearthServerTests", dependencies: ["HearthServer"], path: "Elsewhere/Tests")
            """
        let made = Self.targets(in: manifest)
        #expect(made.map(\.name) == ["HearthServer", "HearthServerTests"])
        #expect(made.first?.dependencies == ["HearthCore", "HearthSandbox", "Hummingbird"])
        #expect(made.last?.path == "Elsewhere/Tests" && made.last?.dependencies == ["HearthServer"])
        let serverRule = try #require(Self.rules.first { $0.module == "HearthServer" })
        #expect(made.first?.dependencies.filter(serverRule.forbids) == ["HearthSandbox"])
        let coreRule = try #require(Self.rules.first { $0.module == "HearthCore" })
        #expect(
            ["Hummingbird", "HTTPTypes", "NIOHTTP1", "AsyncHTTPClient", "SQLKit", "PostgresNIO", "SQLiteNIO", "HearthWire"].allSatisfy(
                coreRule.forbids))
        #expect(!["Foundation", "Crypto", "Logging", "HearthBase64URL"].contains(where: coreRule.forbids))
    }

    // MARK: Reading the manifest and the sources

    struct ManifestTarget: Sendable {
        let name: String
        /// Where its sources are, relative to the package root.
        let path: String
        /// The targets and products it names (a product's name is its module's in this package's dependencies).
        let dependencies: Set<String>
    }

    static let manifestTargets: [ManifestTarget] = {
        let manifest = (try? String(contentsOf: root.appendingPathComponent("Package.swift"), encoding: .utf8)) ?? ""
        return targets(in: manifest)
    }()

    /// The targets of a manifest's text, each with its path and the names in its `dependencies: [ … ]`.
    static func targets(in manifest: String) -> [ManifestTarget] {
        let start = #/\.(target|executableTarget|testTarget)\(\s*name:\s*"([^"]+)"/#
        let matches = manifest.matches(of: start)
        return matches.enumerated().map { index, match -> ManifestTarget in
            let kind = String(match.output.1)
            let name = String(match.output.2)
            let end = index + 1 < matches.count ? matches[index + 1].range.lowerBound : manifest.endIndex
            let declaration = manifest[match.range.upperBound..<end]
            var dependencies: Set<String> = []
            if let list = declaration.range(of: "dependencies: [") {
                var depth = 1
                var cursor = list.upperBound
                while cursor < declaration.endIndex, depth > 0 {
                    if declaration[cursor] == "[" { depth += 1 }
                    if declaration[cursor] == "]" { depth -= 1 }
                    cursor = declaration.index(after: cursor)
                }
                let text = declaration[list.upperBound..<cursor]
                // `.product(name: "X", package: "y")` names module X; a bare "X" names a target.
                let product = #/\.product\(\s*name:\s*"([^"]+)"[^)]*\)/#
                dependencies.formUnion(text.matches(of: product).map { String($0.output.1) })
                let targets = String(text).replacing(product, with: "")
                dependencies.formUnion(targets.matches(of: #/"([^"]+)"/#).map { String($0.output.1) })
            }
            let path =
                declaration.firstMatch(of: #/path:\s*"([^"]+)"/#).map { String($0.output.1) }
                ?? (kind == "testTarget" ? "Tests/" : "Sources/") + name
            return ManifestTarget(name: name, path: path, dependencies: dependencies)
        }
    }

    /// The modules `source` imports, in order of first appearance: every `import` line (attributes, access
    /// levels, `import struct M.T` and the lines inside `#if` included), comments not.
    static func importedModules(in source: String) -> [String] {
        let line =
            #/^\s*(?:@[A-Za-z_]+(?:\([^)]*\))?\s+)*(?:(?:public|package|internal|fileprivate|private)\s+)?import\s+(?:(?:struct|class|enum|protocol|func|var|let|typealias)\s+)?([A-Za-z_][A-Za-z0-9_]*)/#
        var seen: Set<String> = []
        var modules: [String] = []
        for text in source.split(separator: "\n", omittingEmptySubsequences: true) {
            guard let match = text.firstMatch(of: line) else { continue }
            let module = String(match.output.1)
            if seen.insert(module).inserted { modules.append(module) }
        }
        return modules
    }

    /// The modules a target's Swift sources import, each with the files (relative paths) that do.
    static func imports(of target: ManifestTarget) throws -> [String: [String]] {
        let directory = root.appendingPathComponent(target.path)
        guard let files = FileManager.default.enumerator(at: directory, includingPropertiesForKeys: nil) else { return [:] }
        var found: [String: [String]] = [:]
        for case let file as URL in files where file.pathExtension == "swift" {
            let text = try String(contentsOf: file, encoding: .utf8)
            for module in importedModules(in: text) {
                found[module, default: []].append(target.path + "/" + file.lastPathComponent)
            }
        }
        return found
    }
}
