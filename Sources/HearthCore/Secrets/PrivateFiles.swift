import Foundation
import Logging

#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif

/// Files and directories only their owner may read: the data directory (0700), the database and its
/// companions, the key file (0600). New ones are made so; existing ones that are wider get a warning
/// naming the `chmod` to run, and are left as they are.
public enum PrivateFiles {
    /// Creates the directory at `path` (and missing parents) with mode 0700 unless it exists.
    public static func createDirectory(atPath path: String) throws {
        var isDirectory: ObjCBool = false
        if FileManager.default.fileExists(atPath: path, isDirectory: &isDirectory), isDirectory.boolValue { return }
        try FileManager.default.createDirectory(atPath: path, withIntermediateDirectories: true, attributes: [.posixPermissions: 0o700])
        // The attributes may reach the intermediate directories only; the last one is ours for sure.
        chmod(path, 0o700)
    }

    /// Creates an empty file at `path` with mode 0600 unless one exists.
    public static func createFile(atPath path: String) throws {
        let fd = open(path, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0o600)
        if fd >= 0 {
            close(fd)
            return
        }
        let failure = errno
        guard failure == EEXIST else {
            throw CocoaError(.fileWriteUnknown, userInfo: [NSFilePathErrorKey: path, NSLocalizedDescriptionKey: String(cString: strerror(failure))])
        }
    }

    /// Writes `contents` to a new file at `path` with mode 0600. Returns `false`, writing nothing, when the
    /// file exists already (another process made it first).
    public static func createFile(atPath path: String, contents: Data) throws -> Bool {
        let fd = open(path, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0o600)
        guard fd >= 0 else {
            let failure = errno
            if failure == EEXIST { return false }
            throw CocoaError(.fileWriteUnknown, userInfo: [NSFilePathErrorKey: path, NSLocalizedDescriptionKey: String(cString: strerror(failure))])
        }
        defer { close(fd) }
        var written = 0
        try contents.withUnsafeBytes { buffer in
            while written < buffer.count {
                let count = write(fd, buffer.baseAddress! + written, buffer.count - written)
                guard count > 0 else {
                    throw CocoaError(
                        .fileWriteUnknown, userInfo: [NSFilePathErrorKey: path, NSLocalizedDescriptionKey: String(cString: strerror(errno))])
                }
                written += count
            }
        }
        return true
    }

    /// The permission bits of `path` (e.g. `0o644`), or `nil` when there is nothing there.
    public static func mode(ofPath path: String) -> Int? {
        // FileManager rather than stat(2): which C module Swift takes `struct stat` from varies with the module graph
        // (Glibc, CoreFoundation, Dispatch all include it). Links are followed, as stat(2) does.
        let target = URL(fileURLWithPath: path).resolvingSymlinksInPath().path
        guard let attributes = try? FileManager.default.attributesOfItem(atPath: target),
            let mode = (attributes[.posixPermissions] as? NSNumber)?.intValue
        else { return nil }
        return mode & 0o7777
    }

    /// Logs one warning when `path` exists and its group or others may access it. `what` says what it
    /// holds (e.g. "the database").
    /// - Returns: whether it warned.
    @discardableResult
    public static func warnIfShared(_ path: String, holding what: String, logger: Logger) -> Bool {
        guard let mode = mode(ofPath: path), mode & 0o077 != 0 else { return false }
        var isDirectory: ObjCBool = false
        FileManager.default.fileExists(atPath: path, isDirectory: &isDirectory)
        let wanted = isDirectory.boolValue ? "700" : "600"
        var octal = String(mode, radix: 8)
        while octal.count < 4 { octal = "0" + octal }
        logger.warning("\(path) (\(what)) is accessible to other users (mode \(octal)); run: chmod \(wanted) \(path)")
        return true
    }
}
