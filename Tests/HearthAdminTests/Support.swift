import AsyncHTTPClient
import Foundation
import HearthAdmin
import HearthBase64URL
import HearthCore
import HearthTesting
import NIOCore
import Synchronization
import Testing

/// A signed-in user of a live server.
struct SignedIn: Sendable {
    let uid: String
    let idToken: String
    let refreshToken: String
}

/// The clock HearthAdmin checks tokens against: the live server's clock moved by an offset the test sets.
final class OffsetClock: Sendable {
    let base: ManualClock
    private let offset = Mutex<TimeInterval>(0)

    init(_ base: ManualClock) { self.base = base }

    func set(_ seconds: TimeInterval) { offset.withLock { $0 = seconds } }
    var now: Date { base.now.addingTimeInterval(offset.withLock { $0 }) }
    var closure: @Sendable () -> Date { { [self] in self.now } }
}

/// Posts JSON to the live server (with its API key) and returns the status and the decoded object.
func post(_ live: LiveHearth, _ path: String, _ body: [String: ClaimValue], headers: [(String, String)] = []) async throws -> (
    status: UInt, json: [String: ClaimValue]
) {
    let separator = path.contains("?") ? "&" : "?"
    var request = HTTPClientRequest(url: live.baseURL + path + separator + "key=\(live.apiKey)")
    request.method = .POST
    request.headers.add(name: "Content-Type", value: "application/json")
    for (name, value) in headers { request.headers.add(name: name, value: value) }
    request.body = .bytes(ByteBuffer(bytes: try JSONEncoder().encode(ClaimValue.object(body))))
    let response = try await HTTPClient.shared.execute(request, timeout: .seconds(90))
    let data = try await response.body.collect(upTo: 1 << 20)
    let json = (try? JSONDecoder().decode(ClaimValue.self, from: Data(data.readableBytesView)))?.objectValue ?? [:]
    return (response.status.code, json)
}

/// Signs up with an e-mail and password on the live server.
func signUp(_ live: LiveHearth, email: String, password: String = "correct horse") async throws -> SignedIn {
    let result = try await post(live, "/v1/accounts:signUp", ["email": .string(email), "password": .string(password), "returnSecureToken": true])
    try #require(result.status == 200, "\(result.json)")
    return try signedIn(result.json)
}

func signIn(_ live: LiveHearth, email: String, password: String = "correct horse") async throws -> SignedIn {
    let result = try await post(
        live, "/v1/accounts:signInWithPassword", ["email": .string(email), "password": .string(password), "returnSecureToken": true])
    try #require(result.status == 200, "\(result.json)")
    return try signedIn(result.json)
}

func signedIn(_ json: [String: ClaimValue]) throws -> SignedIn {
    SignedIn(
        uid: try #require(json["localId"]?.stringValue), idToken: try #require(json["idToken"]?.stringValue),
        refreshToken: try #require(json["refreshToken"]?.stringValue))
}

/// A HearthAdmin for the live server, development mode's `Bearer owner`. Its time-out is generous: a loaded CI machine
/// answers a batch of scrypt imports in more than the default 30 seconds.
func makeAdmin(
    _ live: LiveHearth, projectID: String? = nil, clock: OffsetClock? = nil, idTokenIssuer: String? = nil, credential: Credential = .emulatorOwner
) throws -> HearthAdmin {
    let clock = clock ?? OffsetClock(live.clock)
    return try HearthAdmin(
        projectID: projectID ?? live.projectID, server: URL(string: live.baseURL)!, credential: credential, idTokenIssuer: idTokenIssuer,
        clock: clock.closure, timeout: 300)
}

/// The Admin SDK code of what `body` throws, or nil if it does not throw.
func adminError(_ body: () async throws -> Void) async -> HearthAdminError.Code? {
    do {
        try await body()
        return nil
    } catch let error as HearthAdminError {
        return error.code
    } catch {
        Issue.record("not a HearthAdminError: \(error)")
        return nil
    }
}

/// A JWT's parts, decoded, to forge variants in tests.
func jwtParts(_ token: String) -> (header: [String: ClaimValue], payload: [String: ClaimValue], signature: String) {
    let parts = token.split(separator: ".", omittingEmptySubsequences: false).map(String.init)
    func object(_ text: String) -> [String: ClaimValue] {
        (Base64URL.decode(text).flatMap { try? JSONDecoder().decode(ClaimValue.self, from: Data($0)) })?.objectValue ?? [:]
    }
    return (object(parts[0]), object(parts[1]), parts[2])
}

func encodeSegment(_ object: [String: ClaimValue]) -> String {
    Base64URL.encode(try! JSONEncoder().encode(ClaimValue.object(object)))
}
