/// A failure of the PostgreSQL test harness, with a message meant for the person running the tests.
struct HarnessError: Error, CustomStringConvertible {
    let description: String

    init(_ description: String) {
        self.description = description
    }
}
