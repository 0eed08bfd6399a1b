import Dispatch
import Foundation
import Synchronization

/// Where the server's log lines go (standard error), off the request's path: a line is appended to a buffer, and a
/// background queue writes what has gathered within a couple of milliseconds with one `write(2)`. A request never
/// waits for the terminal or the pipe unless the buffer is full (1 MiB: the reader fell behind), when the line's
/// writer empties it itself, so no line is ever dropped and memory stays bounded.
///
/// Lines are written whole and in the order they were given. ``flush()`` writes what is buffered now; the server
/// calls it when it stops. What a crash interrupts loses at most the last few milliseconds of lines.
public final class LogOutput: Sendable {
    /// Standard error, shared by every handler of the process.
    public static let standardError = LogOutput(fileDescriptor: 2)

    /// The most that may wait in the buffer.
    public static var capacity: Int { 1 << 20 }
    /// How long a line may wait for the lines after it.
    static var delay: DispatchTimeInterval { .milliseconds(2) }

    private struct Pending: Sendable {
        var bytes: [UInt8] = []
        var flushScheduled = false
    }

    private let fileDescriptor: Int32
    private let pending = Mutex(Pending())
    /// Held while taking the buffer and writing it, so that two flushes never reorder lines.
    private let writing = Mutex(())
    private let queue = DispatchQueue(label: "hearth.log-output")

    public init(fileDescriptor: Int32) {
        self.fileDescriptor = fileDescriptor
    }

    /// Adds `line` (its newline included) to what is written next.
    public func write(_ line: String) {
        let (schedule, full) = pending.withLock { pending in
            pending.bytes.append(contentsOf: line.utf8)
            let schedule = !pending.flushScheduled
            pending.flushScheduled = true
            return (schedule, pending.bytes.count >= Self.capacity)
        }
        if full {
            flush()
        } else if schedule {
            queue.asyncAfter(deadline: .now() + Self.delay) { self.flush() }
        }
    }

    /// Writes everything buffered, now, on the calling thread.
    public func flush() {
        writing.withLock { _ in
            let bytes = pending.withLock { pending in
                pending.flushScheduled = false
                defer { pending.bytes.removeAll(keepingCapacity: pending.bytes.capacity <= 64 * 1_024) }
                return pending.bytes
            }
            bytes.withUnsafeBytes { buffer in
                var offset = 0
                while offset < buffer.count {
                    let written = Foundation.write(fileDescriptor, buffer.baseAddress! + offset, buffer.count - offset)
                    if written > 0 {
                        offset += written
                    } else if written < 0 && errno == EINTR {
                        continue
                    } else {
                        return  // closed or broken: nothing more can be written there.
                    }
                }
            }
        }
    }
}
