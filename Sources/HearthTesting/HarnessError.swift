/// A failure of the PostgreSQL test harness, with a message meant for the person running the tests.
public struct HarnessError: Error, CustomStringConvertible {
    public let description: String

    public init(_ description: String) {
        self.description = description
    }
}
