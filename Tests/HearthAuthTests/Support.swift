import Foundation
import HearthAuth
import HearthCore
import HearthTesting
import Synchronization
import Testing

/// Configures a named app (unique per test) against a live server, sharing its manual clock.
func makeAuth(
    _ live: LiveHearth, store: (any SignedInUserStore)? = MemorySignedInUserStore(), name: String = "test-\(UUID().uuidString)",
    transport: (any AuthTransport)? = nil
) -> Auth {
    var options = HearthOptions(apiKey: live.apiKey, projectID: live.projectID, serverURL: live.baseURL)
    options.userStore = store
    let clock = live.clock
    options.clock = { clock.now }
    if let transport { options.transport = transport }
    HearthApp.configure(name: name, options: options)
    return Auth.auth(app: HearthApp.app(name: name)!)
}

/// Values collected from callbacks on any thread.
final class Recorder<Value: Sendable>: Sendable {
    private let values = Mutex<[Value]>([])

    func append(_ value: Value) { values.withLock { $0.append(value) } }
    var all: [Value] { values.withLock { $0 } }
    var count: Int { values.withLock { $0.count } }
}

/// Waits until `condition` holds, polling; fails the test after `timeout` seconds.
///
/// The limit is a hang guard, not a speed check: it returns as soon as the condition holds. The whole suite runs
/// in parallel on two cores beside PostgreSQL clusters and child servers, where one request once took over 10 s,
/// so the default matches the live client's 90 s guard.
func eventually(
    _ timeout: TimeInterval = 90, sourceLocation: SourceLocation = #_sourceLocation, _ condition: @escaping @Sendable () async -> Bool
) async {
    let deadline = Date().addingTimeInterval(timeout)
    while Date() < deadline {
        if await condition() { return }
        try? await Task.sleep(for: .milliseconds(20))
    }
    Issue.record("condition not met within \(timeout) s", sourceLocation: sourceLocation)
}

/// The AuthErrorCode of what `body` throws, or nil if it does not throw.
func authError(_ body: () async throws -> Void) async -> AuthErrorCode? {
    do {
        try await body()
        return nil
    } catch {
        return AuthErrorCode(error)
    }
}

/// The NSError `body` throws.
func nsError(_ body: () async throws -> Void) async -> NSError? {
    do {
        try await body()
        return nil
    } catch {
        return error as NSError
    }
}
