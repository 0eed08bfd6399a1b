/// Whether `error` ended work because its task was cancelled (graceful shutdown cancels the server's loops), not
/// a failure to log: a cancelled task's statements fail with errors of their own, not only `CancellationError`.
public func endedByCancellation(_ error: any Error) -> Bool {
    Task.isCancelled || error is CancellationError
}
