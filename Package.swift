// swift-tools-version: 6.2
import PackageDescription

/// Settings every target shares (Swift 6 language mode is implied by the tools version).
let swiftSettings: [SwiftSetting] = [
    .enableUpcomingFeature("ExistentialAny"),
    .enableUpcomingFeature("MemberImportVisibility"),
]

let package = Package(
    name: "hearth",
    // One list for the whole package. macOS 15 is what the server needs (swift-configuration's API and the
    // server's own `Mutex`es), and it is built on Macs too; the other systems run only HearthAuth, whose floor
    // is where Swift concurrency starts (FirebaseAuth's own minimums: iOS 13, tvOS 13, watchOS 7).
    platforms: [.macOS(.v15), .iOS(.v13), .tvOS(.v13), .watchOS(.v7)],
    products: [
        .executable(name: "hearth", targets: ["hearth"]),
        .executable(name: "hearth-benchmark", targets: ["HearthBenchmark"]),
        .library(name: "HearthWire", targets: ["HearthWire"]),
        .library(name: "HearthCore", targets: ["HearthCore"]),
        .library(name: "HearthTokens", targets: ["HearthTokens"]),
        .library(name: "HearthServer", targets: ["HearthServer"]),
        .library(name: "HearthAuth", targets: ["HearthAuth"]),
        .executable(name: "hearth-auth-example", targets: ["HearthAuthExample"]),
        // The C++ API (firebase::auth's classes over HearthAuth): one shared library with the Swift bridge inside,
        // and its headers in Sources/HearthCpp/include.
        .library(name: "HearthCpp", type: .dynamic, targets: ["HearthCpp"]),
        .executable(name: "hearth-cpp-example", targets: ["HearthCppExample"]),
        .library(name: "HearthAdmin", targets: ["HearthAdmin"]),
        .library(name: "HearthAdminHummingbird", targets: ["HearthAdminHummingbird"]),
        .executable(name: "notes-backend", targets: ["NotesBackendServer"]),
    ],
    // Every package below serves the server only. An app that wants HearthAuth alone turns the default trait
    // off (`.package(url: …, from: …, traits: [])`) and resolves none of them; see the loop at the end.
    traits: [
        .trait(name: "Server", description: "The server, its tools and tests, and the packages they need."),
        .default(enabledTraits: ["Server"]),
    ],
    dependencies: [
        .package(url: "https://github.com/hummingbird-project/hummingbird.git", from: "2.28.1"),
        // HTTPRequest/HTTPResponse and their fields, which Hummingbird's API speaks: imported directly, so declared.
        .package(url: "https://github.com/apple/swift-http-types.git", from: "1.8.0"),
        .package(url: "https://github.com/vapor/jwt-kit.git", from: "5.8.0"),
        .package(url: "https://github.com/apple/swift-crypto.git", from: "4.5.2"),
        .package(url: "https://github.com/apple/swift-certificates.git", from: "1.21.1"),
        .package(url: "https://github.com/apple/swift-asn1.git", from: "1.7.4"),
        .package(url: "https://github.com/apple/swift-system.git", from: "1.8.1"),
        .package(url: "https://github.com/vapor/sql-kit.git", from: "3.36.0"),
        .package(url: "https://github.com/vapor/sqlite-kit.git", from: "4.5.2"),
        // SQLiteKit's driver, whose connections HearthStorageSQLite opens itself.
        .package(url: "https://github.com/vapor/sqlite-nio.git", from: "1.13.2"),
        .package(url: "https://github.com/vapor/postgres-kit.git", from: "2.17.0"),
        .package(url: "https://github.com/vapor/postgres-nio.git", from: "1.33.2"),
        .package(url: "https://github.com/apple/swift-nio-ssl.git", from: "2.37.0"),
        .package(url: "https://github.com/apple/swift-argument-parser.git", from: "1.8.2"),
        .package(url: "https://github.com/apple/swift-log.git", from: "1.16.2"),
        .package(url: "https://github.com/apple/swift-configuration.git", from: "1.4.0", traits: ["YAML", "JSON"]),
        // swift-configuration's YAML parser, used directly to list a configuration file's keys.
        .package(url: "https://github.com/jpsim/Yams", from: "6.0.0"),
        .package(url: "https://github.com/swift-server/swift-service-lifecycle.git", from: "2.13.0"),
        .package(url: "https://github.com/apple/swift-nio.git", from: "2.101.2"),
        .package(url: "https://github.com/apple/swift-nio-extras.git", from: "1.35.2"),
        .package(url: "https://github.com/swift-server/async-http-client.git", from: "1.37.0"),
        .package(url: "https://github.com/hummingbird-project/swift-mustache.git", from: "2.1.1"),
        // OpenBSD's bcrypt (C) for imported bcrypt hashes; the product builds no Hummingbird.
        .package(url: "https://github.com/hummingbird-project/hummingbird-auth.git", from: "2.5.0"),
        .package(url: "https://github.com/swift-extras/swift-extras-base64.git", from: "1.0.0"),
        .package(url: "https://github.com/apple/swift-metrics.git", from: "2.13.0"),
        .package(url: "https://github.com/apple/swift-distributed-tracing.git", from: "1.7.3"),
        .package(url: "https://github.com/swift-server/swift-prometheus.git", from: "2.4.1"),
        // Spans to an OpenTelemetry collector over OTLP/HTTP when `tracing.otlpEndpoint` is set (no gRPC).
        .package(url: "https://github.com/swift-otel/swift-otel.git", from: "1.6.0", traits: ["OTLPHTTP"]),
    ],
    targets: [
        // Codable types of the Identity Toolkit / Secure Token REST API, shared by server and SDKs.
        .target(name: "HearthWire", swiftSettings: swiftSettings),
        // Base64url (RFC 4648 §5), the one implementation of server, sandbox and SDK: no dependencies, no Foundation.
        .target(name: "HearthBase64URL", swiftSettings: swiftSettings),
        // The one application/x-www-form-urlencoded codec of the server, the providers and the sandbox; no dependencies.
        .target(name: "HearthFormEncoding", swiftSettings: swiftSettings),
        // Domain: users, provider links, sessions, policies, password hashing, store protocols, and the sign-in and
        // account use cases, all ending in one SignInCompletion. No HTTP, no SQL.
        .target(
            name: "HearthCore",
            dependencies: [
                "HearthBase64URL", "HearthWebAuthn",
                .product(name: "Crypto", package: "swift-crypto"),
                .product(name: "CryptoExtras", package: "swift-crypto"),
                .product(name: "HummingbirdBcrypt", package: "hummingbird-auth"),
                .product(name: "Logging", package: "swift-log"),
            ],
            swiftSettings: swiftSettings
        ),
        // The system's OpenSSL libcrypto (Debian: libssl-dev), and the few lines of C that make RS256 signatures with it.
        .systemLibrary(
            name: "CLibCrypto",
            pkgConfig: "libcrypto",
            providers: [.apt(["libssl-dev", "pkg-config"]), .brew(["openssl@3", "pkg-config"])]
        ),
        .target(name: "CRS256", dependencies: ["CLibCrypto"], cSettings: [.headerSearchPath("../CLibCrypto")]),
        // glibc's allocator capped at two arenas, and freed memory given back: `hearth serve` uses both.
        .target(name: "CProcessMemory"),
        // Signing keys, ID tokens, JWKS and X.509 publication, rotation.
        .target(
            name: "HearthTokens",
            dependencies: [
                "HearthCore", "HearthWire", "HearthBase64URL", "CRS256",
                .product(name: "JWTKit", package: "jwt-kit"),
                .product(name: "Crypto", package: "swift-crypto"),
                .product(name: "CryptoExtras", package: "swift-crypto"),
                .product(name: "X509", package: "swift-certificates"),
                .product(name: "SwiftASN1", package: "swift-asn1"),
                .product(name: "Logging", package: "swift-log"),
                .product(name: "ServiceLifecycle", package: "swift-service-lifecycle"),
            ],
            swiftSettings: swiftSettings
        ),
        // What a server measures and traces: the catalogue of its metrics, one Prometheus registry per server,
        // the tracer its spans go to and the OTLP/HTTP exporter that sends them. No Hearth dependencies.
        .target(
            name: "HearthTelemetry",
            dependencies: [
                .product(name: "CoreMetrics", package: "swift-metrics"),
                .product(name: "Metrics", package: "swift-metrics"),
                .product(name: "Prometheus", package: "swift-prometheus"),
                .product(name: "Tracing", package: "swift-distributed-tracing"),
                .product(name: "OTel", package: "swift-otel"),
                .product(name: "ServiceLifecycle", package: "swift-service-lifecycle"),
                .product(name: "Logging", package: "swift-log"),
            ],
            swiftSettings: swiftSettings
        ),
        // The store protocols implemented once in portable SQL (SQLKit); dialect quirks live here.
        .target(
            name: "HearthStorage",
            dependencies: [
                "HearthCore", "HearthTelemetry", "HearthBase64URL",
                .product(name: "SQLKit", package: "sql-kit"),
                .product(name: "NIOCore", package: "swift-nio"),
                .product(name: "Logging", package: "swift-log"),
                .product(name: "Metrics", package: "swift-metrics"),
                .product(name: "Tracing", package: "swift-distributed-tracing"),
            ],
            swiftSettings: swiftSettings
        ),
        // Embedded SQLite: connections, WAL, the single-writer discipline.
        .target(
            name: "HearthStorageSQLite",
            dependencies: [
                "HearthCore",
                "HearthStorage",
                "HearthTelemetry",
                .product(name: "SQLiteKit", package: "sqlite-kit"),
                .product(name: "SQLiteNIO", package: "sqlite-nio"),
                .product(name: "Logging", package: "swift-log"),
                .product(name: "Metrics", package: "swift-metrics"),
                .product(name: "SQLKit", package: "sql-kit"),
                .product(name: "NIOCore", package: "swift-nio"),
                .product(name: "NIOPosix", package: "swift-nio"),
            ],
            swiftSettings: swiftSettings
        ),
        // PostgreSQL for several replicas sharing one database: a PostgresClient pool, advisory locks.
        .target(
            name: "HearthStoragePostgres",
            dependencies: [
                "HearthCore",
                "HearthStorage",
                "HearthTelemetry",
                .product(name: "PostgresKit", package: "postgres-kit"),
                .product(name: "PostgresNIO", package: "postgres-nio"),
                .product(name: "SQLKit", package: "sql-kit"),
                .product(name: "Logging", package: "swift-log"),
                .product(name: "ServiceLifecycle", package: "swift-service-lifecycle"),
                .product(name: "NIOCore", package: "swift-nio"),
                .product(name: "NIOPosix", package: "swift-nio"),
                .product(name: "NIOSSL", package: "swift-nio-ssl"),
            ],
            swiftSettings: swiftSettings
        ),
        // Identity-provider adapters: verify Apple, Microsoft, Twitter, Google, Facebook, GitHub, Yahoo and OIDC credentials, one folder each, one catalogue.
        .target(
            name: "HearthProviders",
            dependencies: [
                "HearthCore", "HearthBase64URL", "HearthFormEncoding", "HearthTelemetry", "HearthSAML",
                .product(name: "JWTKit", package: "jwt-kit"),
                .product(name: "Crypto", package: "swift-crypto"),
                // A SAML provider's SP key (AuthnRequests' signatures) and its self-signed certificate.
                .product(name: "CryptoExtras", package: "swift-crypto"),
                .product(name: "X509", package: "swift-certificates"),
                .product(name: "SwiftASN1", package: "swift-asn1"),
                .product(name: "AsyncHTTPClient", package: "async-http-client"),
                .product(name: "Logging", package: "swift-log"),
                .product(name: "Metrics", package: "swift-metrics"),
                .product(name: "Tracing", package: "swift-distributed-tracing"),
                .product(name: "NIOCore", package: "swift-nio"),
                .product(name: "NIOHTTP1", package: "swift-nio"),
            ],
            swiftSettings: swiftSettings
        ),
        // The domain's values as the wire has them: HearthCore's types to and from HearthWire's (accounts, imports,
        // second factors, settings, tenants, identity-provider configs, blocking hooks' events) and each domain error's
        // Firebase status and message. No HTTP server.
        .target(
            name: "HearthWireMapping",
            dependencies: [
                "HearthCore", "HearthWire", "HearthProviders", "HearthBase64URL",
                .product(name: "HTTPTypes", package: "swift-http-types"),
            ],
            swiftSettings: swiftSettings
        ),
        // Authenticator-app codes (RFC 6238) for TOTP second factors, by HummingbirdOTP, and their base32 secrets.
        .target(
            name: "HearthOTP",
            dependencies: [
                "HearthCore",
                .product(name: "HummingbirdOTP", package: "hummingbird-auth"),
                .product(name: "ExtrasBase64", package: "swift-extras-base64"),
            ],
            swiftSettings: swiftSettings
        ),
        // libxml2 and libxmlsec1 with its OpenSSL back end, from the system through pkg-config (Debian: libxmlsec1-dev;
        // Homebrew: libxmlsec1). Sources/CXMLSec/CXMLSec.h repeats the defines SwiftPM drops from the .pc file.
        .systemLibrary(
            name: "CXMLSec",
            pkgConfig: "xmlsec1-openssl",
            providers: [.apt(["libxmlsec1-dev", "pkg-config"]), .brew(["libxmlsec1", "pkg-config"])]
        ),
        // C beside libxmlsec1: its one process-wide initialisation, a parser that refuses DOCTYPEs, raw DEFLATE (zlib).
        .target(
            name: "CXMLSecSupport",
            dependencies: ["CXMLSec"],
            cSettings: [.headerSearchPath("../CXMLSec")],
            linkerSettings: [.linkedLibrary("z")]
        ),
        // SAML 2.0 for a service provider: AuthnRequests (HTTP-Redirect) and responses verified against the known
        // attacks by libxmlsec1 (XML-DSig, XML Encryption). No HTTP, no storage: the replay check is a port.
        .target(
            name: "HearthSAML",
            dependencies: ["CXMLSec", "CXMLSecSupport"],
            swiftSettings: swiftSettings
        ),
        // WebAuthn for a relying party: a strict CBOR decoder, COSE keys (ES256, RS256, EdDSA), authenticator data,
        // and registrations (attestation none and packed) and assertions verified per WebAuthn Level 3. No HTTP, no
        // storage: challenges and credentials are the caller's.
        .target(
            name: "HearthWebAuthn",
            dependencies: [
                "HearthBase64URL",
                .product(name: "Crypto", package: "swift-crypto"),
                .product(name: "CryptoExtras", package: "swift-crypto"),
                .product(name: "X509", package: "swift-certificates"),
                .product(name: "SwiftASN1", package: "swift-asn1"),
            ],
            swiftSettings: swiftSettings
        ),
        // The SMS gateways phone sign-in's codes leave through: Twilio (SMS and WhatsApp), Vonage and a signed webhook,
        // each a request format and the reading of its answer. The queue in front of them is HearthServer's.
        .target(
            name: "HearthSMS",
            dependencies: [
                "HearthCore", "HearthFormEncoding",
                .product(name: "AsyncHTTPClient", package: "async-http-client"),
                .product(name: "Crypto", package: "swift-crypto"),
                .product(name: "NIOCore", package: "swift-nio"),
                .product(name: "NIOHTTP1", package: "swift-nio"),
            ],
            swiftSettings: swiftSettings
        ),
        // An SMTP client on SwiftNIO (STARTTLS, implicit TLS, AUTH PLAIN/LOGIN) and the MIME messages it sends.
        // No Hearth dependencies.
        .target(
            name: "HearthMail",
            dependencies: [
                .product(name: "NIOCore", package: "swift-nio"),
                .product(name: "NIOPosix", package: "swift-nio"),
                .product(name: "NIOSSL", package: "swift-nio-ssl"),
                .product(name: "Logging", package: "swift-log"),
            ],
            swiftSettings: swiftSettings
        ),
        // The server's settings: the configuration file, HEARTH_* variables and defaults read into ServerConfiguration,
        // unknown and renamed keys found, every value checked with its key named. No HTTP.
        .target(
            name: "HearthConfiguration",
            dependencies: [
                "HearthCore", "HearthProviders", "HearthMail", "HearthSMS", "HearthMessages", "HearthTokens", "HearthTelemetry",
                .product(name: "Configuration", package: "swift-configuration"),
                .product(name: "Yams", package: "Yams"),
                .product(name: "Logging", package: "swift-log"),
            ],
            swiftSettings: swiftSettings
        ),
        // The operator's console: its pages rendered on the server (users, a user's page and changes, the sign-in methods
        // and settings, the status page), its routes and the operators' sign-in and sessions, over HearthCore's use cases
        // (the settings' forms become the admin API's bodies: HearthWire, HearthWireMapping). HearthServer registers it
        // (ConsoleRoutes.add) with the few parts it needs; it never sees the server, SQL or a storage backend.
        .target(
            name: "HearthConsole",
            dependencies: [
                "HearthCore", "HearthConfiguration", "HearthMessages", "HearthStorage", "HearthFormEncoding", "HearthWire", "HearthWireMapping",
                "HearthProviders",
                .product(name: "Hummingbird", package: "hummingbird"),
                .product(name: "HTTPTypes", package: "swift-http-types"),
                .product(name: "NIOCore", package: "swift-nio"),
            ],
            swiftSettings: swiftSettings
        ),
        // What the server says to people, in every language it speaks: the e-mail actions' mails (built-in texts and
        // the operator's Mustache templates) and the hosted action pages, rendered to strings. No HTTP.
        .target(
            name: "HearthMessages",
            dependencies: [
                "HearthCore",
                .product(name: "Mustache", package: "swift-mustache"),
            ],
            swiftSettings: swiftSettings
        ),
        // Throwaway PostgreSQL clusters, and the posix_spawn child processes that start them, for the tests
        // (through HearthTesting) and the benchmark. No Hearth dependencies.
        .target(name: "HearthPostgresLauncher", swiftSettings: swiftSettings),
        // The tests' Python second parties (scripts/*.py through scripts/python-venv.sh), run as a child process.
        .target(name: "HearthPythonScripts", dependencies: ["HearthPostgresLauncher"], swiftSettings: swiftSettings),
        // A live Hearth server with the provider sandbox for tests (server and SDK suites) and examples.
        .target(
            name: "HearthTesting",
            dependencies: [
                "HearthServer", "HearthComposition", "HearthDevelopment", "HearthCore", "HearthSandbox", "HearthProviders",
                "HearthPostgresLauncher", "HearthMail", "HearthConfiguration", "HearthStorage",
                .product(name: "AsyncHTTPClient", package: "async-http-client"),
                .product(name: "Crypto", package: "swift-crypto"),
                .product(name: "Hummingbird", package: "hummingbird"),
                .product(name: "ServiceLifecycle", package: "swift-service-lifecycle"),
                .product(name: "Logging", package: "swift-log"),
            ],
            swiftSettings: swiftSettings
        ),
        // HTTPS for the server: the certificate and key of `server.tls`, re-read on SIGHUP without a restart.
        .target(
            name: "HearthTLS",
            dependencies: [
                "HearthConfiguration",
                .product(name: "HummingbirdCore", package: "hummingbird"),
                .product(name: "NIOCore", package: "swift-nio"),
                .product(name: "NIOSSL", package: "swift-nio-ssl"),
                .product(name: "ServiceLifecycle", package: "swift-service-lifecycle"),
                .product(name: "UnixSignals", package: "swift-service-lifecycle"),
                .product(name: "Logging", package: "swift-log"),
            ],
            swiftSettings: swiftSettings
        ),
        // The Hummingbird application, built by a library function: controllers that decode, call a use case, encode.
        .target(
            name: "HearthServer",
            dependencies: [
                "HearthWire", "HearthCore", "HearthTokens", "HearthStorage",
                "HearthProviders", "HearthMail", "HearthSMS", "HearthMessages", "HearthTelemetry", "HearthConfiguration",
                "HearthConsole", "HearthFormEncoding", "HearthBase64URL", "HearthOTP", "HearthWireMapping", "HearthTLS",
                .product(name: "Hummingbird", package: "hummingbird"),
                .product(name: "HummingbirdCore", package: "hummingbird"),
                .product(name: "HTTPTypes", package: "swift-http-types"),
                .product(name: "Crypto", package: "swift-crypto"),
                .product(name: "AsyncHTTPClient", package: "async-http-client"),
                .product(name: "NIOHTTP1", package: "swift-nio"),
                .product(name: "NIOHTTPTypes", package: "swift-nio-extras"),
                .product(name: "ServiceLifecycle", package: "swift-service-lifecycle"),
                .product(name: "UnixSignals", package: "swift-service-lifecycle"),
                .product(name: "Logging", package: "swift-log"),
                .product(name: "NIOCore", package: "swift-nio"),
                .product(name: "NIOPosix", package: "swift-nio"),
                .product(name: "NIOSSL", package: "swift-nio-ssl"),
                .product(name: "Metrics", package: "swift-metrics"),
                .product(name: "Tracing", package: "swift-distributed-tracing"),
            ],
            swiftSettings: swiftSettings
        ),
        // What a running server is composed of outside the server itself: the store chosen by the configuration
        // (SQLite or PostgreSQL), the PostgreSQL pool, the HTTP client and the database as ServiceLifecycle services,
        // and the server opened once its group runs. Used by the `hearth` command and the test kits.
        .target(
            name: "HearthComposition",
            dependencies: [
                "HearthServer", "HearthConfiguration", "HearthCore", "HearthProviders", "HearthStorage", "HearthStorageSQLite",
                "HearthStoragePostgres", "HearthTelemetry",
                .product(name: "AsyncHTTPClient", package: "async-http-client"),
                .product(name: "ServiceLifecycle", package: "swift-service-lifecycle"),
                .product(name: "Logging", package: "swift-log"),
            ],
            swiftSettings: swiftSettings
        ),
        // Development mode's composition: HearthSandbox given to the server as an extension, every provider the
        // configuration leaves off pointed at it. Used by the `hearth` command and the test harness only.
        .target(
            name: "HearthDevelopment",
            dependencies: [
                "HearthServer", "HearthConfiguration", "HearthCore", "HearthProviders", "HearthSandbox",
                .product(name: "Hummingbird", package: "hummingbird"),
                .product(name: "HTTPTypes", package: "swift-http-types"),
                .product(name: "NIOCore", package: "swift-nio"),
                .product(name: "Logging", package: "swift-log"),
            ],
            swiftSettings: swiftSettings
        ),
        .executableTarget(
            name: "hearth",
            dependencies: [
                "HearthServer", "CProcessMemory", "HearthTLS", "HearthComposition", "HearthDevelopment", "HearthCore", "HearthStorage",
                "HearthStorageSQLite",
                "HearthStoragePostgres", "HearthTokens", "HearthWire", "HearthAdmin", "HearthConfiguration", "HearthOTP",
                .product(name: "AsyncHTTPClient", package: "async-http-client"),
                .product(name: "ArgumentParser", package: "swift-argument-parser"),
                .product(name: "ServiceLifecycle", package: "swift-service-lifecycle"),
                .product(name: "UnixSignals", package: "swift-service-lifecycle"),
                .product(name: "Configuration", package: "swift-configuration"),
                .product(name: "Hummingbird", package: "hummingbird"),
                .product(name: "Logging", package: "swift-log"),
                .product(name: "SystemPackage", package: "swift-system"),
                .product(name: "NIOCore", package: "swift-nio"),
            ],
            swiftSettings: swiftSettings
        ),
        // Load generator: starts a server and drives it over loopback (see BENCHMARKS.md).
        .executableTarget(
            name: "HearthBenchmark",
            dependencies: [
                "HearthCore", "HearthStorage", "HearthStorageSQLite", "HearthStoragePostgres", "HearthPostgresLauncher",
                "HearthBase64URL", "HearthAdmin", "HearthFormEncoding", "HearthTokens",
                // The saml scenario's IdP: the sandbox's signer (libxmlsec1), as development mode's.
                "HearthSandbox",
                // The bare server, the framework's ceiling.
                .product(name: "Hummingbird", package: "hummingbird"),
                .product(name: "SQLKit", package: "sql-kit"),
                .product(name: "Crypto", package: "swift-crypto"),
                .product(name: "Logging", package: "swift-log"),
                .product(name: "CryptoExtras", package: "swift-crypto"),
                .product(name: "ArgumentParser", package: "swift-argument-parser"),
                .product(name: "NIOCore", package: "swift-nio"),
                .product(name: "NIOPosix", package: "swift-nio"),
                .product(name: "NIOHTTP1", package: "swift-nio"),
            ],
            swiftSettings: swiftSettings
        ),
        // Offline stand-ins for the identity providers (Apple, Microsoft, Google, Facebook, GitHub, Twitter,
        // Yahoo, generic OIDC) with their own keys. Must never depend on HearthProviders, HearthTokens or HearthServer.
        .target(
            name: "HearthSandbox",
            dependencies: [
                "HearthBase64URL", "HearthFormEncoding", "CXMLSec", "CXMLSecSupport",
                .product(name: "Hummingbird", package: "hummingbird"),
                .product(name: "HTTPTypes", package: "swift-http-types"),
                .product(name: "Crypto", package: "swift-crypto"),
                .product(name: "CryptoExtras", package: "swift-crypto"),
                // The SAML IdP's self-signed certificate.
                .product(name: "X509", package: "swift-certificates"),
                .product(name: "SwiftASN1", package: "swift-asn1"),
                .product(name: "Logging", package: "swift-log"),
                .product(name: "NIOCore", package: "swift-nio"),
            ],
            swiftSettings: swiftSettings
        ),
        // The Swift client SDK with FirebaseAuth's API (Linux and Apple platforms): wire types, base64url and Foundation only.
        // The SHA-256 of Sign in with Apple nonces is CryptoKit's on Apple platforms and its own elsewhere.
        .target(
            name: "HearthAuth",
            dependencies: ["HearthWire", "HearthBase64URL"],
            swiftSettings: swiftSettings
        ),
        // Signs in anonymously against a Hearth server and upgrades the account with an e-mail and password.
        .executableTarget(
            name: "HearthAuthExample",
            dependencies: ["HearthAuth"],
            path: "Examples/HearthAuthExample",
            swiftSettings: swiftSettings
        ),
        // The Swift backend SDK: verifies ID tokens and session cookies, mints custom tokens, manages users over
        // the admin API. Wire types, swift-crypto and AsyncHTTPClient; X509 reads the published certificates.
        // The C ABI of the C++ API: HearthAuth's calls exported with `@_cdecl` (declared in hearth/c_api.h).
        .target(
            name: "HearthAuthBridge",
            dependencies: ["HearthAuth"],
            swiftSettings: swiftSettings
        ),
        // The C++ API itself: header-only C++17 (firebase/*.h, hearth/*.h) over the C ABI, so that an app picks
        // the API generation (HEARTH_FIREBASE_LEGACY_API for the pre-11 declarations) in its own compile.
        .target(
            name: "HearthCpp",
            dependencies: ["HearthAuthBridge"]
        ),
        .executableTarget(
            name: "HearthCppExample",
            dependencies: ["HearthCpp"],
            path: "Examples/HearthCppExample"
        ),
        // The seeds' C++ snippets as two programs, one per API generation; HearthCppTests runs them.
        .target(
            name: "HearthCppSeedSupport",
            dependencies: ["HearthCpp"],
            path: "Tests/CppSeeds/Support"
        ),
        .executableTarget(
            name: "hearth-cpp-seed-000",
            dependencies: ["HearthCpp", "HearthCppSeedSupport"],
            path: "Tests/CppSeeds/Seed000"
        ),
        .executableTarget(
            name: "hearth-cpp-seed-002",
            dependencies: ["HearthCpp", "HearthCppSeedSupport"],
            path: "Tests/CppSeeds/Seed002",
            cxxSettings: [.define("HEARTH_FIREBASE_LEGACY_API")]
        ),
        // PhoneAuthProvider from C++ (Tests/CppSeeds/Support/include/phone_checks.h), one program per API generation.
        .executableTarget(
            name: "hearth-cpp-phone",
            dependencies: ["HearthCpp", "HearthCppSeedSupport"],
            path: "Tests/CppSeeds/Phone"
        ),
        .executableTarget(
            name: "hearth-cpp-phone-legacy",
            dependencies: ["HearthCpp", "HearthCppSeedSupport"],
            path: "Tests/CppSeeds/PhoneLegacy",
            cxxSettings: [.define("HEARTH_FIREBASE_LEGACY_API")]
        ),
        .target(
            name: "HearthAdmin",
            dependencies: [
                "HearthWire", "HearthBase64URL",
                .product(name: "Crypto", package: "swift-crypto"),
                .product(name: "CryptoExtras", package: "swift-crypto"),
                .product(name: "X509", package: "swift-certificates"),
                .product(name: "SwiftASN1", package: "swift-asn1"),
                .product(name: "AsyncHTTPClient", package: "async-http-client"),
                .product(name: "NIOCore", package: "swift-nio"),
                .product(name: "NIOHTTP1", package: "swift-nio"),
            ],
            swiftSettings: swiftSettings
        ),
        // Hummingbird middleware that authenticates a request by its ID token, apart so that other backends need not build Hummingbird.
        .target(
            name: "HearthAdminHummingbird",
            dependencies: [
                "HearthAdmin",
                .product(name: "Hummingbird", package: "hummingbird"),
                .product(name: "HTTPTypes", package: "swift-http-types"),
                .product(name: "NIOCore", package: "swift-nio"),
            ],
            swiftSettings: swiftSettings
        ),
        // An example backend: each signed-in user reads and writes only their own notes, keyed by the verified uid.
        .target(
            name: "NotesBackend",
            dependencies: [
                "HearthAdmin", "HearthAdminHummingbird",
                .product(name: "Hummingbird", package: "hummingbird"),
            ],
            path: "Examples/NotesBackend",
            swiftSettings: swiftSettings
        ),
        .executableTarget(
            name: "NotesBackendServer",
            dependencies: [
                "NotesBackend", "HearthAdmin",
                .product(name: "Hummingbird", package: "hummingbird"),
            ],
            path: "Examples/NotesBackendServer",
            swiftSettings: swiftSettings
        ),
        // The domain's rules as plain values: no HTTP, no SQL.
        .testTarget(
            name: "HearthCoreTests",
            dependencies: [
                "HearthCore",
                // The tests check the hasher's scrypt and the stored format independently of its own code.
                .product(name: "Crypto", package: "swift-crypto"),
                .product(name: "CryptoExtras", package: "swift-crypto"),
            ],
            // Read by path: libphonenumber's example numbers (scripts/generate-phone-regions.py).
            exclude: ["Fixtures"],
            swiftSettings: [.enableUpcomingFeature("ExistentialAny")]
        ),
        .testTarget(
            name: "HearthServerTests",
            dependencies: [
                "HearthServer", "HearthComposition", "HearthWire", "HearthCore", "HearthTokens", "HearthStorage", "HearthStorageSQLite",
                "HearthStoragePostgres", "HearthTesting", "HearthSandbox", "HearthDevelopment", "HearthProviders", "HearthPostgresLauncher",
                "HearthBase64URL", "HearthTelemetry", "HearthConfiguration", "HearthMessages", "HearthConsole", "HearthSMS", "HearthSAML",
                "HearthPythonScripts", "HearthWireMapping", "CProcessMemory",
                .product(name: "Hummingbird", package: "hummingbird"),
                .product(name: "HummingbirdTesting", package: "hummingbird"),
                .product(name: "HTTPTypes", package: "swift-http-types"),
                .product(name: "Crypto", package: "swift-crypto"),
                .product(name: "CryptoExtras", package: "swift-crypto"),
                .product(name: "JWTKit", package: "jwt-kit"),
                .product(name: "Configuration", package: "swift-configuration"),
                .product(name: "AsyncHTTPClient", package: "async-http-client"),
                .product(name: "Logging", package: "swift-log"),
                .product(name: "NIOCore", package: "swift-nio"),
                .product(name: "NIOPosix", package: "swift-nio"),
                .product(name: "NIOHTTP1", package: "swift-nio"),
                .product(name: "NIOFoundationCompat", package: "swift-nio"),
                .product(name: "NIOSSL", package: "swift-nio-ssl"),
                .product(name: "SQLKit", package: "sql-kit"),
                .product(name: "ServiceLifecycle", package: "swift-service-lifecycle"),
                .product(name: "SystemPackage", package: "swift-system"),
                .product(name: "Tracing", package: "swift-distributed-tracing"),
            ],
            swiftSettings: [.enableUpcomingFeature("ExistentialAny")]
        ),
        // The store conformance suite, run against real SQLite files and a throwaway PostgreSQL cluster.
        .testTarget(
            name: "HearthStorageTests",
            dependencies: [
                "HearthCore", "HearthStorage", "HearthStorageSQLite", "HearthStoragePostgres", "HearthTesting",
                .product(name: "Logging", package: "swift-log"),
                .product(name: "SQLKit", package: "sql-kit"),
                .product(name: "ServiceLifecycle", package: "swift-service-lifecycle"),
            ],
            swiftSettings: [.enableUpcomingFeature("ExistentialAny")]
        ),
        // Keys, ID tokens, custom tokens and pending credentials without HTTP: a real SQLite file for the key
        // ring, a ManualClock, and JWTKit checking signatures against what the module publishes.
        .testTarget(
            name: "HearthTokensTests",
            dependencies: [
                "HearthTokens", "HearthCore", "HearthStorage", "HearthStorageSQLite", "HearthBase64URL",
                .product(name: "JWTKit", package: "jwt-kit"),
                .product(name: "Crypto", package: "swift-crypto"),
                .product(name: "CryptoExtras", package: "swift-crypto"),
                .product(name: "Logging", package: "swift-log"),
            ],
            swiftSettings: [.enableUpcomingFeature("ExistentialAny")]
        ),
        // The mails and action pages as rendered, in every language, with and without the operator's templates.
        .testTarget(
            name: "HearthMessagesTests",
            dependencies: ["HearthMessages", "HearthCore"],
            swiftSettings: [.enableUpcomingFeature("ExistentialAny")]
        ),
        // The SMTP client against a real mail server on loopback (aiosmtpd, started by HearthTesting).
        .testTarget(
            name: "HearthMailTests",
            dependencies: [
                "HearthMail", "HearthTesting",
                .product(name: "NIOCore", package: "swift-nio"),
                .product(name: "NIOPosix", package: "swift-nio"),
                .product(name: "NIOSSL", package: "swift-nio-ssl"),
                .product(name: "Logging", package: "swift-log"),
            ],
            swiftSettings: [.enableUpcomingFeature("ExistentialAny")]
        ),
        // The wire types against golden JSON: requests, answers, the error envelope.
        .testTarget(
            name: "HearthWireTests",
            dependencies: ["HearthWire"],
            swiftSettings: [.enableUpcomingFeature("ExistentialAny")]
        ),
        // The metrics catalogue and a server's own Prometheus registry, read back in the text format.
        .testTarget(
            name: "HearthTelemetryTests",
            dependencies: [
                "HearthTelemetry",
                .product(name: "CoreMetrics", package: "swift-metrics"),
                .product(name: "Metrics", package: "swift-metrics"),
                .product(name: "Tracing", package: "swift-distributed-tracing"),
            ],
            swiftSettings: [.enableUpcomingFeature("ExistentialAny")]
        ),
        // Development mode's composition: the sandbox under /sandbox in place of the providers left off, the outbox.
        .testTarget(
            name: "HearthDevelopmentTests",
            dependencies: [
                "HearthDevelopment", "HearthTesting", "HearthCore", "HearthProviders",
                .product(name: "AsyncHTTPClient", package: "async-http-client"),
                .product(name: "Logging", package: "swift-log"),
                .product(name: "NIOCore", package: "swift-nio"),
            ],
            swiftSettings: [.enableUpcomingFeature("ExistentialAny")]
        ),
        // A throwaway cluster started, reached by a real client, stopped and removed; the child processes under it.
        .testTarget(
            name: "HearthPostgresLauncherTests",
            dependencies: [
                "HearthPostgresLauncher",
                .product(name: "PostgresNIO", package: "postgres-nio"),
                .product(name: "Logging", package: "swift-log"),
            ],
            swiftSettings: [.enableUpcomingFeature("ExistentialAny")]
        ),
        .testTarget(
            name: "HearthBase64URLTests",
            dependencies: ["HearthBase64URL"],
            swiftSettings: [.enableUpcomingFeature("ExistentialAny")]
        ),
        .testTarget(
            name: "HearthFormEncodingTests",
            dependencies: ["HearthFormEncoding"],
            swiftSettings: [.enableUpcomingFeature("ExistentialAny")]
        ),
        // The client SDK against a live Hearth server on loopback (HearthTesting), seeds' snippets included; passkeys with the
        // software authenticator of HearthPythonScripts.
        // swift-crypto checks the SDK's own SHA-256.
        .testTarget(
            name: "HearthAuthTests",
            dependencies: [
                "HearthAuth", "HearthTesting", "HearthSandbox", "HearthCore", "HearthSMS", "HearthPythonScripts",
                .product(name: "Crypto", package: "swift-crypto"),
            ],
            swiftSettings: [.enableUpcomingFeature("ExistentialAny")]
        ),
        // The C++ programs (Tests/CppSeeds, Examples/HearthCppExample) against a live Hearth server (HearthTesting).
        .testTarget(
            name: "HearthCppTests",
            dependencies: ["HearthTesting", "HearthSandbox", "HearthCore"],
            // Programs the C++ tests hand to the C++ programs (found by path): the system browser and the SMS outbox.
            exclude: ["scripted-browser", "sms-outbox"],
            swiftSettings: [.enableUpcomingFeature("ExistentialAny")]
        ),
        // HearthAdmin, its middleware and the notes example against a live Hearth server (HearthTesting).
        .testTarget(
            name: "HearthAdminTests",
            dependencies: [
                "HearthAdmin", "HearthAdminHummingbird", "NotesBackend", "HearthTesting", "HearthWire", "HearthBase64URL", "HearthTokens",
                "HearthCore",
                .product(name: "Hummingbird", package: "hummingbird"),
                .product(name: "HummingbirdTesting", package: "hummingbird"),
                .product(name: "HTTPTypes", package: "swift-http-types"),
                .product(name: "NIOCore", package: "swift-nio"),
                .product(name: "AsyncHTTPClient", package: "async-http-client"),
                .product(name: "Crypto", package: "swift-crypto"),
                .product(name: "CryptoExtras", package: "swift-crypto"),
            ],
            swiftSettings: [.enableUpcomingFeature("ExistentialAny")]
        ),
        // HearthSAML against an independent IdP: scripts/saml-idp.py (signxml, lxml, cryptography from PyPI) signs,
        // encrypts and attacks the responses, and checks the AuthnRequests' signatures.
        .testTarget(
            name: "HearthSAMLTests",
            dependencies: ["HearthSAML", "HearthPythonScripts"],
            swiftSettings: [.enableUpcomingFeature("ExistentialAny")]
        ),
        // HearthWebAuthn against an independent software authenticator, scripts/webauthn-authenticator.py (fido2 and
        // cryptography): registrations and assertions accepted, and each verification rule broken once.
        .testTarget(
            name: "HearthWebAuthnTests",
            dependencies: [
                "HearthWebAuthn", "HearthBase64URL", "HearthPythonScripts",
                .product(name: "Crypto", package: "swift-crypto"),
                .product(name: "X509", package: "swift-certificates"),
            ],
            swiftSettings: [.enableUpcomingFeature("ExistentialAny")]
        ),
        .testTarget(
            name: "HearthSandboxTests",
            dependencies: [
                "HearthSandbox", "HearthSAML",
                .product(name: "Hummingbird", package: "hummingbird"),
                .product(name: "HummingbirdTesting", package: "hummingbird"),
                .product(name: "HTTPTypes", package: "swift-http-types"),
                .product(name: "NIOCore", package: "swift-nio"),
                .product(name: "NIOHTTP1", package: "swift-nio"),
                .product(name: "AsyncHTTPClient", package: "async-http-client"),
                // The tests check signatures independently of the sandbox's own code.
                .product(name: "Crypto", package: "swift-crypto"),
                .product(name: "CryptoExtras", package: "swift-crypto"),
            ],
            swiftSettings: [.enableUpcomingFeature("ExistentialAny")]
        ),
        .testTarget(
            name: "HearthSMSTests",
            dependencies: [
                "HearthSMS", "HearthSandbox", "HearthCore",
                .product(name: "Hummingbird", package: "hummingbird"),
                .product(name: "HummingbirdTesting", package: "hummingbird"),
                .product(name: "Logging", package: "swift-log"),
                .product(name: "AsyncHTTPClient", package: "async-http-client"),
                .product(name: "Crypto", package: "swift-crypto"),
            ],
            swiftSettings: [.enableUpcomingFeature("ExistentialAny")]
        ),
        .testTarget(
            name: "HearthProvidersTests",
            dependencies: [
                "HearthProviders", "HearthCore",
                .product(name: "HummingbirdTesting", package: "hummingbird"),
                .product(name: "Hummingbird", package: "hummingbird"),
                .product(name: "Crypto", package: "swift-crypto"),
                .product(name: "CryptoExtras", package: "swift-crypto"),
                .product(name: "AsyncHTTPClient", package: "async-http-client"),
                .product(name: "Logging", package: "swift-log"),
                .product(name: "NIOCore", package: "swift-nio"),
                .product(name: "NIOHTTP1", package: "swift-nio"),
            ],
            swiftSettings: [.enableUpcomingFeature("ExistentialAny")]
        ),
    ],
    cxxLanguageStandard: .cxx17
)

// Every product of another package is a dependency of the Server trait: with the trait off, SwiftPM neither
// fetches nor resolves those packages (HearthWire and HearthAuth use none of them). The root package always
// builds with its default traits, so `swift build` and `swift test` see every dependency as before.
for target in package.targets {
    target.dependencies = target.dependencies.map { dependency in
        guard case .productItem(let name, let package, let moduleAliases, nil) = dependency else { return dependency }
        return .product(name: name, package: package ?? name, moduleAliases: moduleAliases, condition: .when(traits: ["Server"]))
    }
}
