import HearthCore
import Synchronization

/// Users read by uid and refresh sessions read by token hash, remembered by a store that is the only
/// process writing its database.
///
/// Only ``SQLStore`` uses it, and only when the backend guarantees that no other process writes the
/// database (the embedded SQLite file, which the server holds an exclusive lock on; never PostgreSQL,
/// whose replicas write independently). The rules that keep it exact:
///
/// - Every store method that changes a user's row or links forgets that user after its transaction,
///   whether the transaction succeeded or not, and with it the user's sessions; methods that change
///   users or sessions in bulk forget everything.
/// - A session row never changes once inserted: it goes only with its user (`ON DELETE CASCADE`, so
///   forgetting the user covers it) or is replaced by a data import (which forgets everything). Its
///   validity is judged against the user's `validSince` and `disabled`, read from the user entry.
/// - Every forgetting moves ``generation``. A read takes the generation before it asks the database
///   and remembers its answer only if the generation has not moved since. So a read that raced a
///   write can never put back what the write replaced: either it remembered before the write forgot
///   (and the write removes it), or the write forgot first (and the read keeps nothing).
/// - A caller whose write has returned reads its own write: forgetting happens before the write
///   method returns.
///
/// It holds at most `capacity` users and `capacity` sessions and starts afresh when full, so its
/// memory is bounded and a working set larger than that costs one dictionary insert per read.
final class AccountCache: Sendable {
    private struct State {
        var users: [String: UserRecord] = [:]
        var sessions: [String: RefreshSessionRecord] = [:]
        /// The token hashes of the remembered sessions of each uid.
        var sessionHashes: [String: [String]] = [:]
        var generation: UInt64 = 0

        mutating func forget(uid: String) {
            users[uid] = nil
            for hash in sessionHashes.removeValue(forKey: uid) ?? [] {
                sessions[hash] = nil
            }
        }
    }

    let capacity: Int
    private let state = Mutex(State())

    init(capacity: Int) {
        precondition(capacity > 0, "an account cache needs room for at least one entry")
        self.capacity = capacity
    }

    /// The remembered user with this uid, if any.
    func user(uid: String) -> UserRecord? {
        state.withLock { $0.users[uid] }
    }

    /// The remembered session with this token hash and its remembered user, if both are there.
    func sessionWithUser(tokenHash: String) -> (session: RefreshSessionRecord, user: UserRecord)? {
        state.withLock { state in
            guard let session = state.sessions[tokenHash], let user = state.users[session.uid] else { return nil }
            return (session, user)
        }
    }

    /// Moves whenever anything is forgotten; take it before reading the database.
    var generation: UInt64 {
        state.withLock { $0.generation }
    }

    /// Remembers `user`, read from the database after ``generation`` was `generation`, unless
    /// something was forgotten since.
    func remember(_ user: UserRecord, readAt generation: UInt64) {
        state.withLock { state in
            guard state.generation == generation else { return }
            Self.remember(user, in: &state, capacity: capacity)
        }
    }

    /// Remembers a session and its user, read together after ``generation`` was `generation`, unless
    /// something was forgotten since.
    func remember(_ session: RefreshSessionRecord, of user: UserRecord, readAt generation: UInt64) {
        state.withLock { state in
            guard state.generation == generation, session.uid == user.uid else { return }
            Self.remember(user, in: &state, capacity: capacity)
            guard state.sessions[session.tokenHash] == nil else { return }
            if state.sessions.count >= capacity {
                state.sessions.removeAll(keepingCapacity: true)
                state.sessionHashes.removeAll(keepingCapacity: true)
            }
            state.sessions[session.tokenHash] = session
            state.sessionHashes[session.uid, default: []].append(session.tokenHash)
        }
    }

    private static func remember(_ user: UserRecord, in state: inout State, capacity: Int) {
        if state.users.count >= capacity, state.users[user.uid] == nil {
            state.users.removeAll(keepingCapacity: true)
        }
        state.users[user.uid] = user
    }

    /// Forgets the users with these uids and their sessions.
    func forget<Uids: Sequence<String>>(uids: Uids) {
        state.withLock { state in
            state.generation &+= 1
            for uid in uids { state.forget(uid: uid) }
        }
    }

    /// Forgets the user with this uid and its sessions.
    func forget(uid: String) {
        forget(uids: CollectionOfOne(uid))
    }

    /// Forgets everything.
    func forgetAll() {
        state.withLock { state in
            state.generation &+= 1
            state.users.removeAll(keepingCapacity: true)
            state.sessions.removeAll(keepingCapacity: true)
            state.sessionHashes.removeAll(keepingCapacity: true)
        }
    }

    /// How many users and sessions are remembered now (for tests).
    var counts: (users: Int, sessions: Int) {
        state.withLock { ($0.users.count, $0.sessions.count) }
    }
}
