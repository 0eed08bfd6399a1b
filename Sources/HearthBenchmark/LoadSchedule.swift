import NIOCore

/// When the connections of a load phase stop sending.
enum LoadSchedule: Sendable {
    /// Send until `measureEnd`; responses completed in `measureStart ..< measureEnd` are measured,
    /// the ones before are warm-up.
    case timed(measureStart: NIODeadline, measureEnd: NIODeadline)
    /// Send each of the first `count` requests of the plan exactly once, shared among the connections.
    case counted(Int)
}
