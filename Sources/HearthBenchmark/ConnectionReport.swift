/// What one connection saw during a load phase.
struct ConnectionReport: Sendable {
    /// A response kept whole (fixture preparation): which request of the plan it answers.
    struct CapturedResponse: Sendable {
        let index: Int
        let status: UInt
        let body: String
    }

    /// Latencies (nanoseconds) of the responses completed inside the measured window, whatever their status.
    var latencies: [UInt64] = []
    /// Responses with status 200 completed inside the measured window.
    var successes = 0
    /// Non-200 responses inside the measured window (all of them for counted phases), by status.
    var errorsByStatus: [UInt: Int] = [:]
    /// The first body seen for each failing status, shortened.
    var errorSamples: [UInt: String] = [:]
    var captured: [CapturedResponse] = []
}
