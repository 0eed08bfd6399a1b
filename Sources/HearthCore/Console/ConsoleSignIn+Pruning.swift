import Foundation

extension ConsoleSignIn {
    /// Deletes every session past a time-out: idle longer than ``Timeouts/idle`` (a sign-in left waiting for its code
    /// included) or begun longer than ``Timeouts/absolute`` ago. Returns how many.
    @discardableResult
    public func pruneSessions() async throws -> Int {
        let now = clock.now
        return try await store.deleteConsoleSessions(lastSeenBefore: now - timeouts.idle, createdBefore: now - timeouts.absolute)
    }
}
