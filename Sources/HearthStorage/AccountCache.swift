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
///   older than `maximumAge` (each entry a random share of it, at least 60 %; a bound for what no announcement covers: a row changed by hand in `psql`). While the
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
    /// A remembered value, until when it is served, and from when a read of it asks for it to be read again.
    private struct Entry<Value: Sendable>: Sendable {
        let value: Value
        /// `nil` in an exclusive cache: served until forgotten, never read again ahead.
        let servedUntil: ContinuousClock.Instant?
        let refreshFrom: ContinuousClock.Instant?
    }

    /// What a reader should read again in the background (in a shared cache, an entry in the last 45 % of its time).
    enum Refresh: Hashable, Sendable {
        case user(String)
        case passkeys(String)
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
        /// The entries being read again in the background: each is asked for once.
        var refreshing: Set<Refresh> = []

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

    /// A value read now: served for ever in an exclusive cache; in a shared one, for a random share of `maximumAge`
    /// between 60 % and all of it, and asked to be read again (``Refresh``) during the last 45 % of `maximumAge` it is
    /// served (from 15–55 % on).
    ///
    /// Both against the tail of a replica under load. An entry that expires makes the next request that needs it read
    /// the database, and that read's hops (a pooled connection, the statement, its answer) each wait behind every
    /// request queued on the replica's two threads: about 50 ms at saturation, where a read alone takes 1 ms. So a
    /// PostgreSQL replica's lookups, 98 % of them answered from memory, had a p99 five to seven times their p50
    /// (BENCHMARKS.md, issue 30). An entry in use is read again in the background before it expires, and nobody
    /// waits for that read; the random shares keep entries read together (a replica's first second under load)
    /// from being read again together, and from expiring together.
    private func entry<Value: Sendable>(_ value: Value) -> Entry<Value> {
        guard let maximumAge else { return Entry(value: value, servedUntil: nil, refreshFrom: nil) }
        let now = ContinuousClock.now
        // Each entry is due for its background read for the last 45 % of `maximumAge` it is served: long enough that an
        // entry in use is read again before it expires, however its reads fall.
        let served = Double.random(in: 0.6...1)
        return Entry(value: value, servedUntil: now + maximumAge * served, refreshFrom: now + maximumAge * (served - 0.45))
    }

    /// Whether `entry`'s reader should read it again now: past its time for that, and not asked for already.
    private static func asksRefresh<Value: Sendable>(_ entry: Entry<Value>, _ refresh: Refresh, in state: inout State) -> Bool {
        guard let refreshFrom = entry.refreshFrom, state.serving, ContinuousClock.now >= refreshFrom else { return false }
        return state.refreshing.insert(refresh).inserted
    }

    /// Ends the background read asked for by `refresh`, whether it was remembered or not.
    func refreshEnded(_ refresh: Refresh) {
        _ = state.withLock { $0.refreshing.remove(refresh) }
    }

    /// Whether an entry served until `servedUntil` may still be served.
    private func isFresh(_ servedUntil: ContinuousClock.Instant?) -> Bool {
        guard let servedUntil else { return true }
        return ContinuousClock.now < servedUntil
    }

    /// The remembered user with this uid, if any (and fresh), and whether its reader should read it again in the
    /// background (then call ``refreshEnded(_:)``).
    func user(uid: String) -> (user: UserRecord, refresh: Bool)? {
        served(.user(uid)) { $0.users[uid] }
    }

    /// The remembered user with this uid, fresh or not, asking for nothing.
    func remembered(uid: String) -> UserRecord? {
        state.withLock { $0.users[uid]?.value }
    }

    /// The remembered passkeys of the user with this uid, if any (and fresh), and whether to read them again.
    func passkeys(uid: String) -> (passkeys: [PasskeyCredential], refresh: Bool)? {
        served(.passkeys(uid)) { $0.passkeys[uid] }
    }

    /// The entry `find` picks, if fresh, and whether to read it again (asked once: see ``asksRefresh(_:_:in:)``).
    private func served<Value: Sendable>(_ refresh: Refresh, _ find: (State) -> Entry<Value>?) -> (Value, Bool)? {
        let found: (Entry<Value>, Bool)? = state.withLock { state in
            guard let entry = find(state) else { return nil }
            return (entry, Self.asksRefresh(entry, refresh, in: &state))
        }
        guard let (entry, asked) = found, isFresh(entry.servedUntil) else {
            if found?.1 == true { refreshEnded(refresh) }
            return nil
        }
        return (entry.value, asked)
    }

    /// Remembers the passkeys of `uid`, read after ``generation`` was `generation`, unless something was forgotten since.
    func remember(_ passkeys: [PasskeyCredential], of uid: String, readAt generation: UInt64) {
        let made = entry(passkeys)
        state.withLock { state in
            guard state.serving, state.generation == generation else { return }
            if state.passkeys.count >= capacity, state.passkeys[uid] == nil { state.passkeys.removeAll(keepingCapacity: true) }
            state.passkeys[uid] = made
        }
    }

    /// The remembered session with this token hash and its remembered user, if both are there (and the user fresh),
    /// and whether to read the user again in the background.
    func sessionWithUser(tokenHash: String) -> (session: RefreshSessionRecord, user: UserRecord, refresh: Bool)? {
        let found: (RefreshSessionRecord, Entry<UserRecord>, Bool)? = state.withLock { state in
            guard let session = state.sessions[tokenHash], let user = state.users[session.uid] else { return nil }
            return (session, user, Self.asksRefresh(user, .user(session.uid), in: &state))
        }
        guard let (session, user, refresh) = found, isFresh(user.servedUntil) else {
            if let found, found.2 { refreshEnded(.user(found.0.uid)) }
            return nil
        }
        return (session, user.value, refresh)
    }

    /// Moves whenever anything is forgotten; take it before reading the database.
    var generation: UInt64 {
        state.withLock { $0.generation }
    }

    /// Remembers `user`, read from the database after ``generation`` was `generation`, unless
    /// something was forgotten since.
    func remember(_ user: UserRecord, readAt generation: UInt64) {
        let made = entry(user)
        state.withLock { state in
            guard state.serving, state.generation == generation else { return }
            Self.remember(made, in: &state, capacity: capacity)
        }
    }

    /// Remembers a session and its user, read together after ``generation`` was `generation`, unless
    /// something was forgotten since.
    func remember(_ session: RefreshSessionRecord, of user: UserRecord, readAt generation: UInt64) {
        let made = entry(user)
        state.withLock { state in
            guard state.serving, state.generation == generation, session.uid == user.uid else { return }
            Self.remember(made, in: &state, capacity: capacity)
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
