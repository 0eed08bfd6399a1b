/// A failure to start or drive a child process or a PostgreSQL cluster, with a message meant for the
/// person running the tests or the benchmark.
public struct LauncherError: Error, CustomStringConvertible {
    public let description: String

    public init(_ description: String) {
        self.description = description
    }
}
