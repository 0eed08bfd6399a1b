/// Google's JSON error envelope, as Identity Toolkit answers every failure.
///
///     {"error":{"code":400,"message":"EMAIL_EXISTS","errors":[{"message":"EMAIL_EXISTS","reason":"invalid","domain":"global"}]}}
public struct WireErrorResponse: Codable, Sendable, Equatable {
    public struct Body: Codable, Sendable, Equatable {
        public var code: Int
        public var message: String
        public var errors: [Item]
        /// Absent on business errors (HTTP 400 with a Firebase code), present on the others.
        public var status: String?
    }

    public struct Item: Codable, Sendable, Equatable {
        public var message: String
        public var reason: String
        public var domain: String
        public var location: String?
        public var locationType: String?
    }

    public var error: Body

    public init(code: Int, message: String, reason: String = "invalid", status: String? = nil) {
        error = Body(code: code, message: message, errors: [Item(message: message, reason: reason, domain: "global")], status: status)
    }

    /// The Firebase code of the message: the part before `" : "`.
    public var firebaseCode: String {
        // Not `firstRange(of:)`, which needs macOS 13 / iOS 16: the SDK runs on older systems.
        let message = error.message
        var index = message.startIndex
        while index < message.endIndex {
            if message[index...].hasPrefix(" : ") { return String(message[..<index]) }
            message.formIndex(after: &index)
        }
        return message
    }
}
