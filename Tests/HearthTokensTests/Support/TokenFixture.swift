import Foundation
import HearthCore
import HearthStorage
import HearthStorageSQLite
import HearthTokens
import JWTKit
import Logging
import Testing

let tokensLogger = Logger(label: "hearth.tests.tokens")
/// A start instant with a fraction, so that truncation to whole seconds shows.
let start = Date(timeIntervalSince1970: 1_800_000_000.25)
let projectID = "demo-hearth"
let issuer = "https://securetoken.google.com/demo-hearth"

/// A private directory with one SQLite database file; every ``openStore(sealer:)`` reaches the same data,
/// as replicas (or a restart) would.
final class TokenFixture: Sendable {
    let directory: URL
    let clock: ManualClock

    init(clock: ManualClock = ManualClock(start)) {
        directory = FileManager.default.temporaryDirectory
            .appendingPathComponent("hearth-tokens-tests-\(UUID().uuidString)", isDirectory: true)
        self.clock = clock
    }

    var path: String { directory.appendingPathComponent("hearth.sqlite").path }

    func openStore(sealer: SecretSealer? = nil) async throws -> SQLStore {
        try await SQLiteStorage.open(path: path, logger: tokensLogger, sealer: sealer)
    }

    /// A key ring on `store` that reads this fixture's clock; not started.
    func keyRing(_ store: SQLStore, _ configuration: KeyRing.Configuration = .init()) -> KeyRing {
        KeyRing(store: store, clock: clock.wallClock, configuration: configuration, logger: tokensLogger)
    }

    func tokenService(_ keyRing: KeyRing, projectID: String = projectID) -> TokenService {
        TokenService(keyRing: keyRing, configuration: .init(projectID: projectID), clock: clock.wallClock)
    }

    func removeFiles() {
        try? FileManager.default.removeItem(at: directory)
    }
}

/// One replica: its store handle, its started key ring and a token service on it.
struct Replica {
    let store: SQLStore
    let keyRing: KeyRing
    let tokens: TokenService
}

/// Runs `body` with fresh replicas (`count` store handles on one file, each ring started in turn), closing
/// the stores and deleting the files afterwards.
func withReplicas(
    _ count: Int = 1, _ configuration: KeyRing.Configuration = .init(), clock: ManualClock = ManualClock(start),
    _ body: ([Replica], TokenFixture) async throws -> Void
) async throws {
    let fixture = TokenFixture(clock: clock)
    defer { fixture.removeFiles() }
    var replicas: [Replica] = []
    do {
        for _ in 0..<count {
            let store = try await fixture.openStore()
            let keyRing = fixture.keyRing(store, configuration)
            replicas.append(Replica(store: store, keyRing: keyRing, tokens: fixture.tokenService(keyRing)))
            try await keyRing.start()
        }
        try await body(replicas, fixture)
    } catch {
        for replica in replicas { try? await replica.store.close() }
        throw error
    }
    for replica in replicas { try await replica.store.close() }
}

/// Runs `body` with one started replica.
func withKeyRing(
    _ configuration: KeyRing.Configuration = .init(), clock: ManualClock = ManualClock(start),
    _ body: (Replica, TokenFixture) async throws -> Void
) async throws {
    try await withReplicas(1, configuration, clock: clock) { replicas, fixture in try await body(replicas[0], fixture) }
}

// MARK: JWT pieces, read without the module's code

/// Any JWT payload as plain JSON: what a verifier outside Hearth sees.
struct RawClaims: JWTPayload, Equatable {
    var fields: [String: JSONValue]

    init(_ fields: [String: JSONValue]) { self.fields = fields }
    init(from decoder: any Decoder) throws { fields = try [String: JSONValue](from: decoder) }
    func encode(to encoder: any Encoder) throws { try fields.encode(to: encoder) }
    func verify(using algorithm: some JWTAlgorithm) async throws {}
}

func base64URLEncode(_ data: some DataProtocol) -> String {
    Data(data).base64EncodedString().replacingOccurrences(of: "+", with: "-").replacingOccurrences(of: "/", with: "_")
        .replacingOccurrences(of: "=", with: "")
}

func base64URLDecode(_ text: some StringProtocol) -> Data? {
    var base64 = text.replacingOccurrences(of: "-", with: "+").replacingOccurrences(of: "_", with: "/")
    base64.append(String(repeating: "=", count: (4 - base64.count % 4) % 4))
    return Data(base64Encoded: base64)
}

/// The JSON object of part `index` (0 header, 1 payload) of a compact JWT.
func jwtPart(_ token: String, _ index: Int) -> [String: JSONValue] {
    let parts = token.split(separator: ".", omittingEmptySubsequences: false)
    guard parts.count == 3, let data = base64URLDecode(parts[index]) else { return [:] }
    return JSONValue.object(fromJSON: String(decoding: data, as: UTF8.self)) ?? [:]
}

func keyID(of token: String) -> String? {
    if case .string(let kid)? = jwtPart(token, 0)["kid"] { kid } else { nil }
}

/// A token with its payload replaced by `payload`, header and signature kept.
func withPayload(_ token: String, _ payload: [String: JSONValue]) -> String {
    var parts = token.split(separator: ".", omittingEmptySubsequences: false).map(String.init)
    parts[1] = base64URLEncode(Data(JSONValue.object(payload).jsonText.utf8))
    return parts.joined(separator: ".")
}

/// The published key set as a JWKS document, the way a Firebase verifier downloads it.
func jwksJSON(_ set: PublicKeySet) throws -> String {
    struct Document: Encodable { let keys: [PublicKeySet.JWK] }
    return String(decoding: try JSONEncoder().encode(Document(keys: set.keys)), as: UTF8.self)
}

/// A JWTKit key collection holding exactly the published JWKS.
func jwksVerifier(_ set: PublicKeySet) async throws -> JWTKeyCollection {
    try await JWTKeyCollection().add(jwksJSON: jwksJSON(set))
}

/// A JWTKit key collection holding exactly the public keys of the published X.509 certificates.
func certificateVerifier(_ set: PublicKeySet) async throws -> JWTKeyCollection {
    let keys = JWTKeyCollection()
    for (kid, pem) in set.certificates {
        await keys.add(rsa: try Insecure.RSA.PublicKey(certificatePEM: pem), digestAlgorithm: .sha256, kid: JWKIdentifier(string: kid))
    }
    return keys
}

func makeUser(
    _ uid: String, email: String? = nil, emailVerified: Bool = false, displayName: String? = nil, photoURL: String? = nil,
    phoneNumber: String? = nil, customAttributes: String? = nil, providers: [ProviderLink] = []
) -> UserRecord {
    UserRecord(
        uid: uid, email: email, emailVerified: emailVerified, displayName: displayName, photoURL: photoURL,
        phoneNumber: phoneNumber, passwordHash: email == nil ? nil : "scrypt$test", customAttributes: customAttributes,
        createdAt: start, validSince: start, providers: providers)
}

/// Expects `body` to throw a ``HearthError`` with exactly this code, detail and (when given) reason.
func expectHearthError(
    _ code: HearthError.Code, detail: String? = nil, reason: String? = nil,
    sourceLocation: SourceLocation = #_sourceLocation, _ body: () async throws -> Any
) async {
    do {
        let value = try await body()
        Issue.record("expected \(code.rawValue), got \(value)", sourceLocation: sourceLocation)
    } catch let error as HearthError {
        #expect(error.code == code, "\(error)", sourceLocation: sourceLocation)
        #expect(error.detail == detail, "\(error)", sourceLocation: sourceLocation)
        if let reason { #expect(error.reason == reason, "\(error)", sourceLocation: sourceLocation) }
    } catch {
        Issue.record("expected HearthError.\(code.rawValue), got \(error)", sourceLocation: sourceLocation)
    }
}
