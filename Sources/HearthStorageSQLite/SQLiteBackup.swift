import Foundation
import HearthCore
import Logging
import SQLiteNIO

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// A consistent copy of a SQLite database that a running server may be writing.
///
/// ```swift
/// let bytes = try await SQLiteBackup.copy(databaseAt: "/var/lib/hearth/hearth.sqlite", to: "/backups/hearth.sqlite", logger: logger)
/// ```
public enum SQLiteBackup {
    /// Writes a snapshot of the database at `source` to `destination` with `VACUUM INTO`: one read
    /// transaction, so the copy holds exactly the transactions committed when it began, and the server's
    /// writers go on meanwhile (WAL). The copy is written to a temporary file (mode 0600: the database
    /// holds sealed secrets) beside `destination`, checked with `PRAGMA quick_check`, synced, and only
    /// then moved into place, so `destination` is either the previous file or the whole new copy.
    ///
    /// Takes no lock on `<source>.lock`: a server that holds it keeps serving.
    ///
    /// - Returns: the size of the copy in bytes.
    /// - Throws: ``SQLiteBackupError`` when `source` is not a database, `destination` exists and
    ///   `replacing` is `false`, or `destination` is `source`; `HearthError(.storageUnavailable)` when
    ///   SQLite cannot read or write.
    @discardableResult
    public static func copy(databaseAt source: String, to destination: String, replacing: Bool = false, logger: Logger) async throws -> Int {
        guard let sourceSize = regularFileSize(source), sourceSize > 0 else {
            throw SQLiteBackupError("no database at \(source)")
        }
        let destinationURL = URL(fileURLWithPath: destination)
        let directory = destinationURL.deletingLastPathComponent().path
        var isDirectory: ObjCBool = false
        guard FileManager.default.fileExists(atPath: directory, isDirectory: &isDirectory), isDirectory.boolValue else {
            throw SQLiteBackupError("the directory \(directory) does not exist")
        }
        if samePlace(source, destination) || ["-wal", "-shm", ".lock"].contains(where: { samePlace(source + $0, destination) }) {
            throw SQLiteBackupError("\(destination) is the database itself; write the copy somewhere else")
        }
        if !replacing, FileManager.default.fileExists(atPath: destination) {
            throw SQLiteBackupError("\(destination) exists; choose a new file, or replace it with --force")
        }

        let temporary = (directory as NSString).appendingPathComponent(".\(destinationURL.lastPathComponent).\(UUID().uuidString).partial")
        do {
            // VACUUM INTO writes into an existing file when it is empty: made here, it is 0600 from the start.
            try PrivateFiles.createFile(atPath: temporary)
        } catch {
            throw SQLiteBackupError("cannot write in \(directory): \(error.localizedDescription)")
        }
        defer { unlink(temporary) }

        try await withConnection(source, logger: logger) { connection in
            // The server's writer holds its lock only briefly; wait for it rather than fail.
            _ = try await connection.query("PRAGMA busy_timeout = 5000", [])
            _ = try await connection.query("VACUUM INTO ?", [.text(temporary)])
        }
        try await withConnection(temporary, logger: logger) { connection in
            let rows = try await connection.query("PRAGMA quick_check", [])
            let verdict = rows.first?.column("quick_check")?.string ?? "no answer"
            guard verdict == "ok" else { throw SQLiteBackupError("the copy failed its check: \(verdict)") }
        }
        try sync(temporary)
        try place(temporary, at: destination, replacing: replacing)
        try? sync(directory)
        logger.debug("Backed up the SQLite database", metadata: ["bytes": "\(regularFileSize(destination) ?? 0)"])
        return regularFileSize(destination) ?? 0
    }

    /// Opens `path`, runs `body`, and closes the connection on every way out.
    private static func withConnection(
        _ path: String, logger: Logger, _ body: (SQLiteConnection) async throws -> Void
    ) async throws {
        let connection: SQLiteConnection
        do {
            connection = try await SQLiteConnection.open(storage: .file(path: path), logger: logger).get()
        } catch {
            throw SQLiteFailure.translate(error)
        }
        do {
            try await body(connection)
        } catch {
            try? await connection.close()
            throw SQLiteFailure.translate(error)
        }
        try await connection.close()
    }

    /// Moves `temporary` to `destination`. Without `replacing`, a hard link makes the new name, which
    /// fails rather than replace a file that appeared since the check.
    private static func place(_ temporary: String, at destination: String, replacing: Bool) throws {
        if !replacing {
            if link(temporary, destination) == 0 { return }
            let failure = errno
            if failure == EEXIST { throw SQLiteBackupError("\(destination) exists; choose a new file, or replace it with --force") }
            // File systems without hard links: the check above has to do.
            guard failure == EPERM || failure == ENOTSUP || failure == EXDEV else {
                throw SQLiteBackupError("cannot write \(destination): \(String(cString: strerror(failure)))")
            }
        }
        guard rename(temporary, destination) == 0 else {
            throw SQLiteBackupError("cannot write \(destination): \(String(cString: strerror(errno)))")
        }
    }

    /// Flushes the file or directory at `path` to the disk.
    private static func sync(_ path: String) throws {
        let descriptor = open(path, O_RDONLY | O_CLOEXEC)
        guard descriptor >= 0 else { throw SQLiteBackupError("cannot open \(path): \(String(cString: strerror(errno)))") }
        defer { close(descriptor) }
        guard fsync(descriptor) == 0 else { throw SQLiteBackupError("cannot sync \(path): \(String(cString: strerror(errno)))") }
    }

    /// The size of the regular file at `path` (following links), or `nil` when there is none.
    private static func regularFileSize(_ path: String) -> Int? {
        var info = stat()
        guard stat(path, &info) == 0, info.st_mode & S_IFMT == S_IFREG else { return nil }
        return Int(info.st_size)
    }

    /// Whether `a` and `b` name the same existing file.
    private static func samePlace(_ a: String, _ b: String) -> Bool {
        var first = stat()
        var second = stat()
        guard stat(a, &first) == 0, stat(b, &second) == 0 else { return false }
        return first.st_dev == second.st_dev && first.st_ino == second.st_ino
    }
}

/// Why ``SQLiteBackup/copy(databaseAt:to:replacing:logger:)`` wrote nothing: one line for a person.
public struct SQLiteBackupError: Error, CustomStringConvertible, Sendable {
    public let description: String

    init(_ description: String) {
        self.description = description
    }
}
