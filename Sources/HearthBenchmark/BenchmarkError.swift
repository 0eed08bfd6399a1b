/// A failure of the benchmark itself (the server would not start, a connection broke, a fixture failed).
struct BenchmarkError: Error, CustomStringConvertible {
    let description: String

    init(_ description: String) {
        self.description = description
    }
}
