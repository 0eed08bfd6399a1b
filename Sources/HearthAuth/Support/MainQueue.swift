import Dispatch

/// Delivers completion handlers and listener calls on the main queue, in the order they were handed over,
/// as FirebaseAuth does. The main queue must be serviced: by the app's run loop, `dispatchMain()`, or an
/// `async` `main` (which drains it on Linux too).
enum MainQueue {
    static func deliver(_ body: @escaping @MainActor @Sendable () -> Void) {
        DispatchQueue.main.async {
            MainActor.assumeIsolated { body() }
        }
    }
}

/// Runs an async operation and hands its result to a main-queue completion handler.
func complete<T: Sendable>(
    _ completion: (@MainActor @Sendable (T?, (any Error)?) -> Void)?, _ operation: @escaping @Sendable () async throws -> T
) {
    Task {
        do {
            let value = try await operation()
            if let completion { MainQueue.deliver { completion(value, nil) } }
        } catch {
            if let completion { MainQueue.deliver { completion(nil, error) } }
        }
    }
}

/// ``complete(_:_:)`` for operations without a value.
func complete(_ completion: (@MainActor @Sendable ((any Error)?) -> Void)?, _ operation: @escaping @Sendable () async throws -> Void) {
    Task {
        do {
            try await operation()
            if let completion { MainQueue.deliver { completion(nil) } }
        } catch {
            if let completion { MainQueue.deliver { completion(error) } }
        }
    }
}
