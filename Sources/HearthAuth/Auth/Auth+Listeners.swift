import Foundation

/// The handle of a state listener, to pass to ``Auth/removeStateDidChangeListener(_:)``.
public typealias AuthStateDidChangeListenerHandle = any NSObjectProtocol
/// The handle of an ID-token listener, to pass to ``Auth/removeIDTokenDidChangeListener(_:)``.
public typealias IDTokenDidChangeListenerHandle = any NSObjectProtocol

/// A listener registration.
final class ListenerHandle: NSObject, @unchecked Sendable {
    let id: UInt64
    init(id: UInt64) { self.id = id }
}

extension Auth {
    /// Calls `listener` on the main queue now (with the current user) and whenever a different user signs in
    /// or the user signs out.
    @discardableResult
    public func addStateDidChangeListener(_ listener: @escaping @MainActor @Sendable (Auth, User?) -> Void) -> AuthStateDidChangeListenerHandle {
        ListenerHandle(id: engine.addListener(.authState, auth: self, listener))
    }

    /// Stops a listener added with ``addStateDidChangeListener(_:)``. Calls already queued still happen.
    public func removeStateDidChangeListener(_ listenerHandle: AuthStateDidChangeListenerHandle) {
        if let handle = listenerHandle as? ListenerHandle { engine.removeListener(handle.id) }
    }

    /// Calls `listener` on the main queue now and whenever the current user's ID token changes: sign-in,
    /// sign-out, refresh, link, re-authentication.
    @discardableResult
    public func addIDTokenDidChangeListener(_ listener: @escaping @MainActor @Sendable (Auth, User?) -> Void) -> IDTokenDidChangeListenerHandle {
        ListenerHandle(id: engine.addListener(.idToken, auth: self, listener))
    }

    /// Stops a listener added with ``addIDTokenDidChangeListener(_:)``.
    /// Like ``addStateDidChangeListener(_:)``, but the listener is called on `queue` instead of the main queue:
    /// for programs that never run a main loop (command-line tools, the C++ API). A serial queue keeps the
    /// calls in the order of the changes. Remove it with ``removeStateDidChangeListener(_:)``.
    @discardableResult
    public func addStateDidChangeListener(
        queue: DispatchQueue, _ listener: @escaping @Sendable (Auth, User?) -> Void
    ) -> AuthStateDidChangeListenerHandle {
        ListenerHandle(id: engine.addListener(.authState, auth: self, queue: queue, listener))
    }

    /// Like ``addIDTokenDidChangeListener(_:)``, but called on `queue`; see ``addStateDidChangeListener(queue:_:)``.
    @discardableResult
    public func addIDTokenDidChangeListener(
        queue: DispatchQueue, _ listener: @escaping @Sendable (Auth, User?) -> Void
    ) -> IDTokenDidChangeListenerHandle {
        ListenerHandle(id: engine.addListener(.idToken, auth: self, queue: queue, listener))
    }

    public func removeIDTokenDidChangeListener(_ listenerHandle: IDTokenDidChangeListenerHandle) {
        if let handle = listenerHandle as? ListenerHandle { engine.removeListener(handle.id) }
    }

    /// The current user now, then at every sign-in of a different user and every sign-out. The stream's
    /// listener is removed when iteration ends.
    public var authStateChanges: AsyncStream<User?> { stream(.authState) }

    /// The current user now, then at every change of its ID token.
    public var idTokenChanges: AsyncStream<User?> { stream(.idToken) }

    private func stream(_ kind: AuthEngine.ListenerKind) -> AsyncStream<User?> {
        let (stream, continuation) = AsyncStream.makeStream(of: User?.self, bufferingPolicy: .unbounded)
        let id = engine.addListener(kind, auth: self) { _, user in continuation.yield(user) }
        continuation.onTermination = { [engine] _ in engine.removeListener(id) }
        return stream
    }
}
