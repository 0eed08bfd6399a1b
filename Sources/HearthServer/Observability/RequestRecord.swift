import Foundation
import HearthCore

/// What the access log learns about a request while it is answered: the user it turned out to be about, the
/// API key it came with, whether an administrator sent it.
///
/// ``RequestObservationMiddleware`` makes one per request and sets it as ``current`` (a task-local) around the rest of
/// the chain; the code that learns something notes it there (``noteUser(_:)``) without handing it back up
/// through every return value. Outside a request (tests on the bare router, background services) the notes go
/// nowhere.
final class RequestRecord: Sendable {
    @TaskLocal static var current: RequestRecord?

    struct Notes: Sendable {
        var uid: String?
        var apiKeyID: String?
        var administrator = false
        /// Firebase's error code of an error answer (`EMAIL_EXISTS`), or the status name of a malformed
        /// request's (`INVALID_ARGUMENT`): never a message, which can quote the request.
        var errorCode: String?
        /// A sign-in or sign-up the request tried (and, once it succeeded, how).
        var signIn: SignIn?
        /// The client's address once resolved (`.some(nil)`: the peer is unknown).
        var clientAddress: IPAddress??
    }

    /// What `hearth_sign_ins_total` and `hearth_sign_ups_total` count of a request.
    struct SignIn: Sendable, Equatable {
        /// `password`, `anonymous`, `custom`, `emailLink`, a provider id, or `other` before it is known.
        var provider: String
        /// A sign-up request (`accounts:signUp`): a failure counts as a failed sign-up.
        var signUp: Bool
        /// Set once it succeeded: whether an account was created.
        var newUser: Bool?
    }

    private let box = LockedBox(Notes())

    var notes: Notes { box.withLock { $0 } }

    /// The request is about user `uid`: its ID token checked out, or it signed in.
    static func noteUser(_ uid: String) {
        current?.box.withLock { $0.uid = uid }
    }

    /// The client's address, resolved once a request: the counters, the audit event and the access log each ask.
    static func clientAddress(_ resolve: () -> IPAddress?) -> IPAddress? {
        guard let record = current else { return resolve() }
        if let known = record.box.withLock({ $0.clientAddress }) { return known }
        let address = resolve()
        record.box.withLock { $0.clientAddress = .some(address) }
        return address
    }

    /// The request came with this API key; the log shows only ``APIKeyName``'s name for it.
    static func noteAPIKey(_ key: String) {
        current?.box.withLock { $0.apiKeyID = APIKeyName.of(key) }
    }

    /// The request tries to sign in (or up, `signUp`) with `provider`; a later note replaces an earlier one.
    static func noteSignInAttempt(provider: String, signUp: Bool) {
        current?.box.withLock { $0.signIn = SignIn(provider: provider, signUp: signUp) }
    }

    /// The request signed in with `provider`, into a new account or an existing one.
    static func noteSignedIn(provider: String, newUser: Bool) {
        current?.box.withLock { $0.signIn = SignIn(provider: provider, signUp: newUser, newUser: newUser) }
    }

    /// The request is answered with this error code.
    static func noteError(_ code: String) {
        current?.box.withLock { $0.errorCode = code }
    }

    /// An administrator's credential was accepted.
    static func noteAdministrator() {
        current?.box.withLock { $0.administrator = true }
    }
}
