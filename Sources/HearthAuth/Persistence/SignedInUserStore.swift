import Foundation

#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif

/// Keeps the signed-in user (its refresh token, last ID token and profile) between launches, one entry per app.
///
/// Implementations must be safe to call from any thread. The value is opaque JSON; treat it as a secret
/// (it contains a refresh token).
public protocol SignedInUserStore: Sendable {
    /// The stored value of `key`, or nil.
    func data(forKey key: String) throws -> Data?
    /// Stores `data` under `key`, replacing what was there.
    func setData(_ data: Data, forKey key: String) throws
    /// Removes `key`; removing a missing key is not an error.
    func removeData(forKey key: String) throws
}

/// A store in memory: nothing survives the process. For tests and for apps that want no persistence.
public final class MemorySignedInUserStore: SignedInUserStore {
    private let entries = Locked<[String: Data]>([:])

    public init() {}

    public func data(forKey key: String) throws -> Data? { entries.withLock { $0[key] } }
    public func setData(_ data: Data, forKey key: String) throws { entries.withLock { $0[key] = data } }
    public func removeData(forKey key: String) throws { _ = entries.withLock { $0.removeValue(forKey: key) } }
}

/// A store of one file per key in a directory, readable by the owner only (directory 0700, files 0600),
/// written atomically (a temporary file renamed over the old one).
///
/// The default directory is `$XDG_DATA_HOME/hearth-auth`, or `~/.local/share/hearth-auth` when
/// `XDG_DATA_HOME` is not set, which is where Linux keeps per-user application data.
public struct FileSignedInUserStore: SignedInUserStore {
    /// The directory holding the files.
    public let directory: URL

    /// - Parameter directory: the directory; created (0700) on first write.
    public init(directory: URL) {
        self.directory = directory
    }

    /// The store in the default directory.
    public init() {
        self.init(directory: Self.defaultDirectory())
    }

    /// `$XDG_DATA_HOME/hearth-auth`, or `~/.local/share/hearth-auth`, read from `environment` (the
    /// process's own by default). A relative `XDG_DATA_HOME` is ignored, as the XDG spec says.
    public static func defaultDirectory(environment: [String: String] = ProcessInfo.processInfo.environment) -> URL {
        if let xdg = environment["XDG_DATA_HOME"], xdg.hasPrefix("/") {
            return URL(fileURLWithPath: xdg, isDirectory: true).appendingPathComponent("hearth-auth", isDirectory: true)
        }
        let home = URL(fileURLWithPath: environment["HOME"] ?? NSHomeDirectory(), isDirectory: true)
        return home.appendingPathComponent(".local/share/hearth-auth", isDirectory: true)
    }

    /// The file of a key: the key with anything but letters, digits, `-`, `_` and `.` replaced by `_`.
    public func fileURL(forKey key: String) -> URL {
        let safe = String(
            key.unicodeScalars.map { scalar -> Character in
                let allowed = CharacterSet.alphanumerics.contains(scalar) && scalar.isASCII || "-_.".unicodeScalars.contains(scalar)
                return allowed ? Character(scalar) : "_"
            })
        return directory.appendingPathComponent(safe + ".json", isDirectory: false)
    }

    public func data(forKey key: String) throws -> Data? {
        let url = fileURL(forKey: key)
        guard FileManager.default.fileExists(atPath: url.path) else { return nil }
        return try Data(contentsOf: url)
    }

    public func setData(_ data: Data, forKey key: String) throws {
        let manager = FileManager.default
        try manager.createDirectory(at: directory, withIntermediateDirectories: true, attributes: [.posixPermissions: 0o700])
        let url = fileURL(forKey: key)
        let temporary = directory.appendingPathComponent(".\(UUID().uuidString).tmp", isDirectory: false)
        // Created 0600 before any byte is written, so the secret is never readable by others.
        guard manager.createFile(atPath: temporary.path, contents: nil, attributes: [.posixPermissions: 0o600]) else {
            throw CocoaError(.fileWriteUnknown, userInfo: [NSFilePathErrorKey: temporary.path])
        }
        do {
            let handle = try FileHandle(forWritingTo: temporary)
            defer { try? handle.close() }
            try handle.write(contentsOf: data)
            try handle.synchronize()
        } catch {
            try? manager.removeItem(at: temporary)
            throw error
        }
        if rename(temporary.path, url.path) != 0 {
            let code = errno
            try? manager.removeItem(at: temporary)
            throw POSIXError(POSIXErrorCode(rawValue: code) ?? .EIO)
        }
    }

    public func removeData(forKey key: String) throws {
        let url = fileURL(forKey: key)
        guard FileManager.default.fileExists(atPath: url.path) else { return }
        try FileManager.default.removeItem(at: url)
    }
}
