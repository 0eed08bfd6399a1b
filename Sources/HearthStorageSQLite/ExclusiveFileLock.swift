import Foundation
import HearthCore
import Synchronization

#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif

/// An exclusive `flock(2)` on `<database>.lock`, held by the one process that may write the database
/// while it keeps users in memory.
///
/// The operating system releases the lock when the process ends, however it ends, so a crashed
/// server never leaves a stale lock behind. A second server on the same file waits up to `wait` for
/// the first to let go (a restart where the new process starts before the old one has exited), then
/// fails to start with a message that names the file.
final class ExclusiveFileLock: Sendable {
    let path: String
    private let descriptor: Mutex<Int32>

    private init(path: String, descriptor: Int32) {
        self.path = path
        self.descriptor = Mutex(descriptor)
    }

    /// Takes the lock on `databasePath + ".lock"`, polling until `wait` has passed.
    static func acquire(databasePath: String, wait: Duration) async throws -> ExclusiveFileLock {
        let path = databasePath + ".lock"
        let fd = open(path, O_RDWR | O_CREAT | O_CLOEXEC, 0o600)
        guard fd >= 0 else {
            throw HearthError(.storageUnavailable, reason: "cannot open the lock file \(path): \(String(cString: strerror(errno)))")
        }
        let deadline = ContinuousClock.now.advanced(by: wait)
        while flock(fd, LOCK_EX | LOCK_NB) != 0 {
            let failure = errno
            guard failure == EWOULDBLOCK || failure == EINTR else {
                close(fd)
                throw HearthError(.storageUnavailable, reason: "cannot lock \(path): \(String(cString: strerror(failure)))")
            }
            guard ContinuousClock.now < deadline else {
                close(fd)
                throw HearthError(
                    .storageUnavailable,
                    reason: "another Hearth server is using the SQLite database \(databasePath) (it holds \(path)); "
                        + "one SQLite file serves one server: stop the other one, or run several on PostgreSQL")
            }
            do {
                try await Task.sleep(for: .milliseconds(100))
            } catch {
                close(fd)
                throw error
            }
        }
        return ExclusiveFileLock(path: path, descriptor: fd)
    }

    /// Lets go of the lock. Idempotent.
    func release() {
        descriptor.withLock { fd in
            guard fd >= 0 else { return }
            close(fd)  // closing the only descriptor releases the flock
            fd = -1
        }
    }

    deinit { release() }
}
