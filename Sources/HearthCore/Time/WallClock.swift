import Foundation

/// Where the domain reads the current time. Injected everywhere so tests can move time by hand.
public struct WallClock: Sendable {
    private let read: @Sendable () -> Date

    public init(_ read: @escaping @Sendable () -> Date) { self.read = read }

    public var now: Date { read() }

    /// The system clock.
    public static let system = WallClock { Date() }
}

/// A clock a test moves by hand.
public final class ManualClock: Sendable {
    private let state: LockedBox<Date>

    public init(_ start: Date = Date(timeIntervalSince1970: 1_800_000_000)) { state = LockedBox(start) }

    public var now: Date { state.withLock { $0 } }
    public func advance(by seconds: TimeInterval) { state.withLock { $0 += seconds } }
    public func set(_ date: Date) { state.withLock { $0 = date } }
    public var wallClock: WallClock { WallClock { [state] in state.withLock { $0 } } }
}
