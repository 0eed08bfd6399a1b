import HearthCore
import Synchronization

/// Users read by uid, remembered by a store that is the only process writing its database.
///
/// Only ``SQLStore`` uses it, and only when the backend guarantees that no other process writes the
/// database (the embedded SQLite file, which the server holds an exclusive lock on; never PostgreSQL,
/// whose replicas write independently). The rules that keep it exact:
///
/// - Every store method that changes a user's row or links forgets that user after its transaction,
///   whether the transaction succeeded or not; methods that change users in bulk forget everyone.
/// - Every forgetting moves ``generation``. A read takes the generation before it asks the database
///   and remembers its answer only if the generation has not moved since. So a read that raced a
///   write can never put back the row the write replaced: either it remembered before the write
///   forgot (and the write removes it), or the write forgot first (and the read keeps nothing).
/// - A caller whose write has returned reads its own write: forgetting happens before the write
///   method returns.
///
/// It holds at most `capacity` users and starts afresh when full, so its memory is bounded and a
/// working set larger than the capacity costs one dictionary insert per read, no more.
final class UserCache: Sendable {
    private struct State {
        var users: [String: UserRecord] = [:]
        var generation: UInt64 = 0
    }

    let capacity: Int
    private let state = Mutex(State())

    init(capacity: Int) {
        precondition(capacity > 0, "a user cache needs room for at least one user")
        self.capacity = capacity
    }

    /// The remembered user with this uid, if any.
    func user(uid: String) -> UserRecord? {
        state.withLock { $0.users[uid] }
    }

    /// Moves whenever a user is forgotten; take it before reading the database.
    var generation: UInt64 {
        state.withLock { $0.generation }
    }

    /// Remembers `user`, read from the database after ``generation`` was `generation`, unless a user
    /// was forgotten since.
    func remember(_ user: UserRecord, readAt generation: UInt64) {
        state.withLock { state in
            guard state.generation == generation else { return }
            if state.users.count >= capacity, state.users[user.uid] == nil {
                state.users.removeAll(keepingCapacity: true)
            }
            state.users[user.uid] = user
        }
    }

    /// Forgets the users with these uids.
    func forget<Uids: Sequence<String>>(uids: Uids) {
        state.withLock { state in
            state.generation &+= 1
            for uid in uids { state.users[uid] = nil }
        }
    }

    /// Forgets the user with this uid.
    func forget(uid: String) {
        forget(uids: CollectionOfOne(uid))
    }

    /// Forgets every user.
    func forgetAll() {
        state.withLock { state in
            state.generation &+= 1
            state.users.removeAll(keepingCapacity: true)
        }
    }

    /// How many users are remembered now (for tests).
    var count: Int {
        state.withLock { $0.users.count }
    }
}
