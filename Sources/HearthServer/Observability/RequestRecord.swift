import Crypto
import Foundation
import HearthCore

/// What the access log learns about a request while it is answered: the user it turned out to be about, the
/// API key it came with, whether an administrator sent it.
///
/// ``AccessLogMiddleware`` makes one per request and sets it as ``current`` (a task-local) around the rest of
/// the chain; the code that learns something notes it there (``noteUser(_:)``) without handing it back up
/// through every return value. Outside a request (tests on the bare router, background services) the notes go
/// nowhere.
final class RequestRecord: Sendable {
    @TaskLocal static var current: RequestRecord?

    struct Notes: Sendable {
        var uid: String?
        var apiKeyID: String?
        var administrator = false
    }

    private let box = LockedBox(Notes())

    var notes: Notes { box.withLock { $0 } }

    /// The request is about user `uid`: its ID token checked out, or it signed in.
    static func noteUser(_ uid: String) {
        current?.box.withLock { $0.uid = uid }
    }

    /// The request came with this API key; the log shows only ``keyID(_:)``.
    static func noteAPIKey(_ key: String) {
        current?.box.withLock { $0.apiKeyID = keyID(key) }
    }

    /// An administrator's credential was accepted.
    static func noteAdministrator() {
        current?.box.withLock { $0.administrator = true }
    }

    /// A name for an API key that can go in a log: `key-` and the first 8 hex digits of its SHA-256. It tells
    /// an operator's keys apart without revealing one.
    static func keyID(_ key: String) -> String {
        "key-" + SHA256.hash(data: Data(key.utf8)).prefix(4).map { String(format: "%02x", $0) }.joined()
    }
}
