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

    /// The envelope's JSON, written field by field in the order of its `Codable` encoding (the same bytes as
    /// ``WireJSONEncoder``'s containers write, as a test compares): every failure is answered with it.
    func jsonBytes() -> [UInt8] {
        let writer = WireJSONEncoder.Writer()
        writer.literal(#"{"error":{"code":"#)
        writer.literal(String(error.code))
        writer.literal(#","message":"#)
        writer.string(error.message)
        writer.literal(#","errors":["#)
        for (index, item) in error.errors.enumerated() {
            writer.literal(index == 0 ? #"{"message":"# : #",{"message":"#)
            writer.string(item.message)
            writer.literal(#","reason":"#)
            writer.string(item.reason)
            writer.literal(#","domain":"#)
            writer.string(item.domain)
            if let location = item.location {
                writer.literal(#","location":"#)
                writer.string(location)
            }
            if let locationType = item.locationType {
                writer.literal(#","locationType":"#)
                writer.string(locationType)
            }
            writer.literal("}")
        }
        writer.literal("]")
        if let status = error.status {
            writer.literal(#","status":"#)
            writer.string(status)
        }
        writer.literal("}}")
        return writer.bytes
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
