import Foundation
import HearthCore

/// The last hour of requests for the status page: counts per minute (all, client errors, server errors) and
/// the last ``capacity`` error answers (time, route template, status, error code).
public final class RecentRequests: Sendable {
    public struct Minute: Sendable, Equatable {
        /// The minute's start, in minutes since 1970.
        public var minute: Int64
        public var requests = 0
        public var clientErrors = 0
        public var serverErrors = 0

        public init(minute: Int64, requests: Int = 0, clientErrors: Int = 0, serverErrors: Int = 0) {
            (self.minute, self.requests, self.clientErrors, self.serverErrors) = (minute, requests, clientErrors, serverErrors)
        }
    }

    public struct ErrorAnswer: Sendable, Equatable {
        public var time: Date
        public var route: String
        public var status: Int
        public var code: String?

        public init(time: Date, route: String, status: Int, code: String?) {
            (self.time, self.route, self.status, self.code) = (time, route, status, code)
        }
    }

    public static let capacity = 20
    static let minutes = 60

    private struct State {
        var minutes: [Minute] = []
        var errors: [ErrorAnswer] = []
    }

    private let clock: WallClock
    private let state = LockedBox(State())

    public init(clock: WallClock) {
        self.clock = clock
    }

    public func record(route: String, status: Int, errorCode: String?) {
        let now = clock.now
        let minute = Int64(now.timeIntervalSince1970 / 60)
        state.withLock { state in
            if state.minutes.last?.minute != minute {
                state.minutes.append(Minute(minute: minute))
                state.minutes.removeAll { $0.minute <= minute - Int64(Self.minutes) }
            }
            state.minutes[state.minutes.count - 1].requests += 1
            guard status >= 400 else { return }
            if status >= 500 {
                state.minutes[state.minutes.count - 1].serverErrors += 1
            } else {
                state.minutes[state.minutes.count - 1].clientErrors += 1
            }
            state.errors.append(ErrorAnswer(time: now, route: route, status: status, code: errorCode))
            if state.errors.count > Self.capacity { state.errors.removeFirst(state.errors.count - Self.capacity) }
        }
    }

    /// The minutes of the last hour that saw requests, oldest first.
    public var lastHour: [Minute] {
        let floor = Int64(clock.now.timeIntervalSince1970 / 60) - Int64(Self.minutes)
        return state.withLock { $0.minutes.filter { $0.minute > floor } }
    }

    /// The last error answers, newest first.
    public var lastErrors: [ErrorAnswer] { state.withLock { $0.errors.reversed() } }
}
