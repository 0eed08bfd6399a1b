import NIOPosix

/// The one thread that does everything for one SQLite connection: it is the connection's
/// `NIOThreadPool` (sqlite-nio runs every statement there) AND the task executor of the units of
/// work on that connection, so the Swift code between two statements runs on it too.
///
/// Without it, every statement is a round trip from a Swift concurrency thread to a pool thread and
/// back, and the way back waits for a concurrency thread, which may be busy signing a token for a
/// millisecond while the connection (the single writer, for writes) sits idle and locked. With it,
/// a unit of work costs one hop onto this thread and one hop off, however many statements it runs.
final class LaneThread: TaskExecutor {
    /// The pool of exactly one thread that sqlite-nio is given for the connection.
    let pool: NIOThreadPool

    /// Starts the thread.
    init() {
        pool = NIOThreadPool(numberOfThreads: 1)
        pool.start()
    }

    func enqueue(_ job: consuming ExecutorJob) {
        let job = UnownedJob(job)
        pool.submit { state in
            switch state {
            case .active:
                job.runSynchronously(on: self.asUnownedTaskExecutor())
            case .cancelled:
                // The thread is gone (shut down): the job must still run, elsewhere.
                globalConcurrentExecutor.enqueue(ExecutorJob(job))
            }
        }
    }

    /// Stops the thread once the jobs already submitted have run.
    func shutdown() async {
        try? await pool.shutdownGracefully()
    }
}
