import HearthTelemetry
import Metrics
import SQLKit
import Tracing

/// A backend's transactor with each unit of work timed (`hearth_db_transaction_duration_seconds`, by kind)
/// and traced (a client span, `db.read` or `db.write`, under whatever span the caller is in).
///
/// ``SQLStore`` runs all its work through one; its ``SQLStore/transactor`` stays the backend's own.
struct InstrumentedTransactor: SQLTransactor {
    let base: any SQLTransactor
    /// `sqlite` or `postgresql`: OpenTelemetry's `db.system.name`.
    let system: String
    let tracer: any Tracer
    /// Whether spans are recorded at all (`false` for the `NoOpTracer` of tracing off).
    private let traces: Bool
    private let readDuration: Timer
    private let writeDuration: Timer

    init(_ base: any SQLTransactor, system: String, telemetry: Telemetry) {
        self.base = base
        self.system = system
        self.tracer = telemetry.tracer
        self.traces = !(telemetry.tracer is NoOpTracer)
        let label = MetricDescriptor.databaseTransactionDuration.name
        self.readDuration = Timer(label: label, dimensions: [("kind", "read")], factory: telemetry.metrics)
        self.writeDuration = Timer(label: label, dimensions: [("kind", "write")], factory: telemetry.metrics)
    }

    func read<T: Sendable>(_ body: @Sendable (any SQLDatabase) async throws -> T) async throws -> T {
        try await measured("db.read", readDuration) { try await base.read(body) }
    }

    func readSingleStatement<T: Sendable>(_ body: @Sendable (any SQLDatabase) async throws -> T) async throws -> T {
        try await measured("db.read", readDuration) { try await base.readSingleStatement(body) }
    }

    func write<T: Sendable>(_ body: @escaping @Sendable (any SQLDatabase) async throws -> T) async throws -> T {
        try await measured("db.write", writeDuration) { try await base.write(body) }
    }

    func writeSingleStatement<T: Sendable>(_ body: @escaping @Sendable (any SQLDatabase) async throws -> T) async throws -> T {
        try await measured("db.write", writeDuration) { try await base.writeSingleStatement(body) }
    }

    func close() async throws { try await base.close() }

    func withLeaderLock<T: Sendable>(_ name: String, _ body: @Sendable () async throws -> T) async throws -> T? {
        try await base.withLeaderLock(name, body)
    }

    func poolUsage() -> [DatabasePoolUsage] { base.poolUsage() }

    private func measured<T>(_ operation: String, _ timer: Timer, _ work: () async throws -> T) async throws -> T {
        let start = ContinuousClock.now
        defer { timer.recordInterval(since: start) }
        // Tracing off: no span, no task-local context pushed on every transaction.
        guard traces else { return try await work() }
        return try await tracer.withSpan(operation, ofKind: .client) { span in
            span.attributes["db.system.name"] = system
            do {
                return try await work()
            } catch {
                span.recordError(error)
                throw error
            }
        }
    }
}

/// How busy one of a backend's connection pools is, read when `/metrics` is scraped.
public struct DatabasePoolUsage: Sendable, Equatable {
    /// `read` or `write` (SQLite's lanes), `postgres` (the PostgreSQL client's pool).
    public var pool: String
    /// Connections running a unit of work.
    public var inUse: Int
    /// Units of work waiting for a connection.
    public var waiting: Int

    public init(pool: String, inUse: Int, waiting: Int) {
        self.pool = pool
        self.inUse = inUse
        self.waiting = waiting
    }
}

extension Timer {
    /// Records the time since `start`.
    func recordInterval(since start: ContinuousClock.Instant) {
        let elapsed = ContinuousClock.now - start
        recordNanoseconds(elapsed.components.seconds * 1_000_000_000 + elapsed.components.attoseconds / 1_000_000_000)
    }
}
