/// What a load phase sends: requests taken round-robin (timed phases) or each exactly once (counted phases).
struct RequestPlan: Sendable {
    let name: String
    let requests: [PreparedRequest]
    /// Keep every response body (fixture preparation); load phases keep only the bodies of failures.
    let capturesBodies: Bool
    /// The status a request should be answered with (404 for the unknown-path scenario); any other is an error.
    let expectedStatus: UInt

    init(name: String, requests: [PreparedRequest], capturesBodies: Bool = false, expectedStatus: UInt = 200) {
        precondition(!requests.isEmpty, "a request plan needs at least one request")
        self.name = name
        self.requests = requests
        self.capturesBodies = capturesBodies
        self.expectedStatus = expectedStatus
    }
}
