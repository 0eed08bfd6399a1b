import HearthCore
import Synchronization

/// Users read by uid, refresh sessions read by token hash and each user's passkeys, remembered by a store.
///
/// Only ``SQLStore`` uses it, in one of two ways (its `sharedCacheMaximumAge` chooses):
/// - **exclusive**: the backend guarantees that no other process writes the database (the embedded SQLite file, which
///   the server holds an exclusive lock on). Entries live until forgotten.
/// - **shared**: several processes write the database (PostgreSQL replicas). Each write that changes a user announces
///   it in its own transaction (`pg_notify`, delivered at commit), every replica hears the announcements on a
///   connection of its own and forgets what they name (``SQLStore/heardAccountChange(_:)``), and no entry is served
///   older than `maximumAge` (each entry a random share of it, at least half; a bound for what no announcement covers: a row changed by hand in `psql`). While the
///   replica does not hear the announcements (before its listener has said `LISTEN`, after its connection dropped)
///   the cache is suspended: empty, and remembering nothing.
///
/// The rules that keep it exact:
///
/// - Every store method that changes a user's row, links or passkeys forgets that user after its transaction,
///   whether the transaction succeeded or not, and with it the user's sessions; methods that change
///   users or sessions in bulk forget everything.
/// - A session row never changes once inserted: it goes only with its user (`ON DELETE CASCADE`, so
///   forgetting the user covers it) or is replaced by a data import (which forgets everything). Its
///   validity is judged against the user's `validSince` and `disabled`, read from the user entry.
/// - Every forgetting moves ``generation``. A read takes the generation before it asks the database
///   and remembers its answer only if the generation has not moved since. So a read that raced a
///   write can never put back what the write replaced: either it remembered before the write forgot
///   (and the write removes it), or the write forgot first (and the read keeps nothing). With shared
///   caching the same holds for another replica's write: its announcement arrives after its commit, so a
///   read whose generation was taken after the announcement started after the commit and saw it.
/// - A caller whose write has returned reads its own write: forgetting happens before the write
///   method returns.
///
/// It holds at most `capacity` users and `capacity` sessions and starts afresh when full, so its
/// memory is bounded and a working set larger than that costs one dictionary insert per read.
final class AccountCache: Sendable {
    /// A remembered value and until when it is served.
    private struct Entry<Value> {
        let value: Value
        let servedUntil: ContinuousClock.Instant
    }

    private struct State {
        var users: [String: Entry<UserRecord>] = [:]
        var sessions: [String: RefreshSessionRecord] = [:]
        /// The token hashes of the remembered sessions of each uid.
        var sessionHashes: [String: [String]] = [:]
        /// Each remembered uid's passkeys (every lookup answers with them; most accounts have none).
        var passkeys: [String: Entry<[PasskeyCredential]>] = [:]
        var generation: UInt64 = 0
        /// Whether entries are served and remembered (false while a shared cache cannot hear announcements).
        var serving: Bool

        mutating func forgetAll() {
            generation &+= 1
            passkeys.removeAll(keepingCapacity: true)
            users.removeAll(keepingCapacity: true)
            sessions.removeAll(keepingCapacity: true)
            sessionHashes.removeAll(keepingCapacity: true)
        }

        mutating func forget(uid: String) {
            users[uid] = nil
            passkeys[uid] = nil
            for hash in sessionHashes.removeValue(forKey: uid) ?? [] {
                sessions[hash] = nil
            }
        }
    }

    let capacity: Int
    /// How long an entry is served after it was read (`nil`: until forgotten).
    let maximumAge: Duration?
    private let state: Mutex<State>

    /// An exclusive cache (`maximumAge` nil, serving at once) or a shared one (suspended until ``resume()``).
    init(capacity: Int, maximumAge: Duration? = nil) {
        precondition(capacity > 0, "an account cache needs room for at least one entry")
        self.capacity = capacity
        self.maximumAge = maximumAge
        state = Mutex(State(serving: maximumAge == nil))
    }

    /// Until when an entry read now is served: for ever in an exclusive cache; in a shared one, for a random share of
    /// `maximumAge` between its half and all of it. Entries read together (a replica's first second under load) would
    /// otherwise all expire together, and every `maximumAge` the replica would read its whole working set from the
    /// database at once: a wave of queries queued behind each other, the lookup's p99 at 5.6 times its p50 on
    /// PostgreSQL (BENCHMARKS.md, issue 30).
    private func servedUntil() -> ContinuousClock.Instant {
        guard let maximumAge else { return .now + .seconds(1 << 40) }
        return .now + maximumAge * Double.random(in: 0.5...1)
    }

    /// Whether an entry served until `servedUntil` may still be served.
    private func isFresh(_ servedUntil: ContinuousClock.Instant) -> Bool {
        maximumAge == nil || ContinuousClock.now < servedUntil
    }

    /// The remembered user with this uid, if any (and fresh).
    func user(uid: String) -> UserRecord? {
        guard let entry = state.withLock({ $0.users[uid] }), isFresh(entry.servedUntil) else { return nil }
        return entry.value
    }

    /// The remembered passkeys of the user with this uid, if any (and fresh).
    func passkeys(uid: String) -> [PasskeyCredential]? {
        guard let entry = state.withLock({ $0.passkeys[uid] }), isFresh(entry.servedUntil) else { return nil }
        return entry.value
    }

    /// Remembers the passkeys of `uid`, read after ``generation`` was `generation`, unless something was forgotten since.
    func remember(_ passkeys: [PasskeyCredential], of uid: String, readAt generation: UInt64) {
        let servedUntil = servedUntil()
        state.withLock { state in
            guard state.serving, state.generation == generation else { return }
            if state.passkeys.count >= capacity, state.passkeys[uid] == nil { state.passkeys.removeAll(keepingCapacity: true) }
            state.passkeys[uid] = Entry(value: passkeys, servedUntil: servedUntil)
        }
    }

    /// The remembered session with this token hash and its remembered user, if both are there (and the user fresh).
    func sessionWithUser(tokenHash: String) -> (session: RefreshSessionRecord, user: UserRecord)? {
        let found: (RefreshSessionRecord, Entry<UserRecord>)? = state.withLock { state in
            guard let session = state.sessions[tokenHash], let user = state.users[session.uid] else { return nil }
            return (session, user)
        }
        guard let (session, user) = found, isFresh(user.servedUntil) else { return nil }
        return (session, user.value)
    }

    /// Moves whenever anything is forgotten; take it before reading the database.
    var generation: UInt64 {
        state.withLock { $0.generation }
    }

    /// Remembers `user`, read from the database after ``generation`` was `generation`, unless
    /// something was forgotten since.
    func remember(_ user: UserRecord, readAt generation: UInt64) {
        let servedUntil = servedUntil()
        state.withLock { state in
            guard state.serving, state.generation == generation else { return }
            Self.remember(Entry(value: user, servedUntil: servedUntil), in: &state, capacity: capacity)
        }
    }

    /// Remembers a session and its user, read together after ``generation`` was `generation`, unless
    /// something was forgotten since.
    func remember(_ session: RefreshSessionRecord, of user: UserRecord, readAt generation: UInt64) {
        let servedUntil = servedUntil()
        state.withLock { state in
            guard state.serving, state.generation == generation, session.uid == user.uid else { return }
            Self.remember(Entry(value: user, servedUntil: servedUntil), in: &state, capacity: capacity)
            guard state.sessions[session.tokenHash] == nil else { return }
            if state.sessions.count >= capacity {
                state.sessions.removeAll(keepingCapacity: true)
                state.sessionHashes.removeAll(keepingCapacity: true)
            }
            state.sessions[session.tokenHash] = session
            state.sessionHashes[session.uid, default: []].append(session.tokenHash)
        }
    }

    private static func remember(_ user: Entry<UserRecord>, in state: inout State, capacity: Int) {
        if state.users.count >= capacity, state.users[user.value.uid] == nil {
            state.users.removeAll(keepingCapacity: true)
        }
        state.users[user.value.uid] = user
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
        state.withLock { $0.forgetAll() }
    }

    /// Forgets everything and remembers nothing until ``resume()``: a shared cache that stopped hearing the
    /// announcements of other replicas' writes.
    func suspend() {
        state.withLock { state in
            state.forgetAll()
            state.serving = false
        }
    }

    /// Serves and remembers again, from nothing: the announcements are heard (again).
    func resume() {
        state.withLock { state in
            state.forgetAll()
            state.serving = true
        }
    }

    /// Whether entries are served now.
    var isServing: Bool {
        state.withLock { $0.serving }
    }

    /// How many users and sessions are remembered now (for tests).
    var counts: (users: Int, sessions: Int) {
        state.withLock { ($0.users.count, $0.sessions.count) }
    }
}
