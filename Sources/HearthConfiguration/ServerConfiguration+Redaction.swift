import Foundation

/// A configuration holds secrets (the key-encryption key, admin tokens, the database and mail servers'
/// passwords, providers' client secrets). Whatever prints one — string interpolation, `dump`, a logger
/// describing a service that holds the server's parts (ServiceLifecycle does, at debug level) — sees only this.
extension ServerConfiguration: CustomStringConvertible, CustomDebugStringConvertible, CustomReflectable {
    public var description: String {
        "ServerConfiguration(mode: \(mode.rawValue), project: \(projectID), listen: \(baseURL), data: \(storageDescription), secrets redacted)"
    }

    public var debugDescription: String { description }

    public var customMirror: Mirror {
        Mirror(self, children: ["mode": mode.rawValue, "projectID": projectID, "baseURL": baseURL], displayStyle: .struct)
    }
}
