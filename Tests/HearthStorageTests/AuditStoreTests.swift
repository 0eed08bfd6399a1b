import Foundation
import HearthCore
import HearthStorage
import Synchronization
import Testing

private let t0 = Date(timeIntervalSince1970: 1_800_000_000.123)

/// The audit trail's store, on every backend.
@Suite("Store conformance: audit events")
struct AuditStoreTests {
    @Test("events round-trip and page newest first, by uid and kind, and are pruned by time", arguments: StoreBackend.all)
    func roundTripAndPaging(_ backend: StoreBackend) async throws {
        try await withStore(backend) { store, _ in
            let full = AuditEvent(
                time: t0, kind: .signedIn, uid: "ada", actor: .user, actorID: "owner", method: "google.com", clientAddress: "192.0.2.7",
                details: ["reason": "a \"quoted\" value/with slash", "ü": "ñ"])
            try await store.insertAuditEvent(full)
            let bare = AuditEvent(time: t0.addingTimeInterval(1), kind: .keysRotated, actor: .system)
            try await store.insertAuditEvent(bare)
            // Stored to the millisecond: the time reads back as the millisecond at or before it.
            let read = try await store.auditEvents(uid: nil, kind: nil, after: nil, limit: 10)
            #expect(read.map(\.id) == [bare.id, full.id])
            let back = try #require(read.last)
            #expect(back.kind == .signedIn && back.uid == "ada" && back.actor == .user && back.actorID == "owner" && back.method == "google.com")
            #expect(back.clientAddress == "192.0.2.7" && back.details == full.details)
            #expect(abs(back.time.timeIntervalSince(t0)) < 0.001)
            #expect(read.first?.details == [:] && read.first?.uid == nil && read.first?.method == nil && read.first?.actorID == nil)

            // Same millisecond: ordered by id, and a cursor inside the millisecond splits them exactly.
            let tied = (0..<5).map { index in
                AuditEvent(time: t0.addingTimeInterval(2), kind: index.isMultiple(of: 2) ? .signInFailed : .signedIn, uid: "bob", actor: .user)
            }
            for event in tied { try await store.insertAuditEvent(event) }
            var pages: [[String]] = []
            var cursor: AuditCursor?
            repeat {
                let page = try await store.auditEvents(uid: nil, kind: nil, after: cursor, limit: 3)
                pages.append(page.map(\.id))
                cursor = page.count == 3 ? page.last.map(AuditCursor.init(after:)) : nil
            } while cursor != nil
            let expected = tied.map(\.id).sorted(by: >) + [bare.id, full.id]
            #expect(pages.flatMap { $0 } == expected)
            #expect(pages.map(\.count) == [3, 3, 1])

            // Filters, alone and together.
            #expect(try await store.auditEvents(uid: "bob", kind: nil, after: nil, limit: 10).count == 5)
            #expect(try await store.auditEvents(uid: "bob", kind: .signInFailed, after: nil, limit: 10).count == 3)
            #expect(try await store.auditEvents(uid: nil, kind: .keysRotated, after: nil, limit: 10).map(\.id) == [bare.id])
            #expect(try await store.auditEvents(uid: "nobody", kind: nil, after: nil, limit: 10).isEmpty)
            #expect(try await store.auditEvents(uid: nil, kind: nil, after: nil, limit: 0).isEmpty)

            // Pruning deletes what happened strictly before the instant.
            #expect(try await store.deleteAuditEvents(before: t0.addingTimeInterval(1)) == 1)
            #expect(try await store.deleteAuditEvents(before: t0.addingTimeInterval(1)) == 0)
            #expect(try await count("audit_events", in: store) == 6)
            #expect(try await store.deleteAuditEvents(before: t0.addingTimeInterval(60)) == 6)
        }
    }

    @Test(
        "events inserted together share statements: each lands in its own tenant, and a failed statement stores none of its rows",
        arguments: StoreBackend.all)
    func insertedTogether(_ backend: StoreBackend) async throws {
        try await withStore(backend) { store, _ in
            let scopes = [store, store.scoped(toTenant: "t1"), store.scoped(toTenant: "t2")]
            let events = (0..<300).map { index in
                AuditEvent(time: t0.addingTimeInterval(Double(index) / 1000), kind: .signedUp, uid: "u\(index)", actor: .user, method: "anonymous")
            }
            try await withThrowingTaskGroup(of: Void.self) { group in
                for (index, event) in events.enumerated() {
                    group.addTask { try await scopes[index % 3].insertAuditEvent(event) }
                }
                try await group.waitForAll()
            }
            for (offset, scope) in scopes.enumerated() {
                let stored = try await scope.auditEvents(uid: nil, kind: nil, after: nil, limit: 500)
                let expected = events.enumerated().filter { $0.offset % 3 == offset }.map(\.element.id)
                #expect(Set(stored.map(\.id)) == Set(expected) && stored.count == 100)
            }

            // An event stored twice (its id taken) fails; racing it, every insert either throws or is stored whole.
            let taken = events[0]
            await #expect(throws: (any Error).self) { try await store.insertAuditEvent(taken) }
            let racing = (0..<60).map { AuditEvent(time: t0, kind: .signedIn, uid: "r\($0)", actor: .user) }
            let stored = await withTaskGroup(of: (String, Bool).self) { group in
                group.addTask { (taken.id, (try? await store.insertAuditEvent(taken)) != nil) }
                for event in racing {
                    group.addTask { (event.id, (try? await store.insertAuditEvent(event)) != nil) }
                }
                return await group.reduce(into: [String: Bool]()) { $0[$1.0] = $1.1 }
            }
            #expect(stored[taken.id] == false)
            let present = Set(try await store.auditEvents(uid: nil, kind: .signedIn, after: nil, limit: 500).map(\.id))
            #expect(present == Set(racing.map(\.id).filter { stored[$0] == true }))
        }
    }

    @Test("a turn queue runs every job once, in batches of the jobs queued meanwhile, each told its batch's outcome")
    func turnQueueBatches() async throws {
        struct Refused: Error {}
        let queue = TurnQueue<Int>(maximumBatch: 10)
        let batches = Mutex<[[Int]]>([])
        let (started, startedNow) = AsyncStream<Void>.makeStream()
        let (release, releaseNow) = AsyncStream<Void>.makeStream()
        let run: @Sendable ([Int]) async throws -> Void = { work in
            batches.withLock { $0.append(work) }
            if work == [0] {
                startedNow.yield()
                for await _ in release { break }
            }
            if work.contains(13) { throw Refused() }
        }
        let outcomes = try await withThrowingTaskGroup(of: (Int, Bool).self) { group in
            group.addTask { ((try? await queue.submit(0, run: run)) != nil ? (0, true) : (0, false)) }
            for await _ in started { break }
            // The first job's leader is busy: these queue behind it.
            for value in 1...25 {
                group.addTask { (value, (try? await queue.submit(value, run: run)) != nil) }
            }
            while queue.count < 25 { try await Task.sleep(for: .milliseconds(1)) }
            releaseNow.yield()
            return try await group.reduce(into: [Int: Bool]()) { $0[$1.0] = $1.1 }
        }
        let ran = batches.withLock { $0 }
        #expect(ran.first == [0] && ran.count == 4 && ran.map(\.count) == [1, 10, 10, 5])
        #expect(ran.flatMap { $0 }.sorted() == Array(0...25))
        let refused = Set(try #require(ran.first { $0.contains(13) }))
        #expect(outcomes.count == 26 && outcomes.allSatisfy { $0.value == !refused.contains($0.key) })
        #expect(queue.count == 0)
    }

    @Test("a turn queue's leader that is cancelled still runs the batch it leads: the other callers' work is done")
    func turnQueueLeaderCancelled() async throws {
        let queue = TurnQueue<Int>(maximumBatch: 10)
        let (started, startedNow) = AsyncStream<Void>.makeStream()
        let (release, releaseNow) = AsyncStream<Void>.makeStream()
        let run: @Sendable ([Int]) async throws -> Void = { work in
            if work == [0] {
                startedNow.yield()
                for await _ in release { break }
            }
            try Task.checkCancellation()
        }
        let first = Task { try await queue.submit(0, run: run) }
        for await _ in started { break }
        let others = (1...5).map { value in Task { try await queue.submit(value, run: run) } }
        while queue.count < 5 { try await Task.sleep(for: .milliseconds(1)) }
        // The second batch's leader is one of the others; cancel them all but the last before the turn passes.
        for task in others.dropLast() { task.cancel() }
        first.cancel()
        releaseNow.yield()
        try await first.value
        for task in others { try await task.value }
        #expect(queue.count == 0)
    }

    @Test("page tokens: only `<milliseconds>.<32 hex digits>` reads back")
    func cursorTokens() {
        let cursor = AuditCursor(milliseconds: 1_800_000_000_123, id: String(repeating: "a", count: 32))
        #expect(AuditCursor(token: cursor.token) == cursor)
        for bad in [
            "", ".", "1.", "x.\(String(repeating: "a", count: 32))", "-1.\(String(repeating: "a", count: 32))",
            "1.\(String(repeating: "A", count: 32))", "1.\(String(repeating: "a", count: 31))", "1.2.3",
            "1234567890123456789.\(String(repeating: "a", count: 32))", "1\u{0}.\(String(repeating: "a", count: 32))",
        ] {
            #expect(AuditCursor(token: bad) == nil, "\(bad)")
        }
        #expect(AuditEvent.isID(AuditEvent.makeID()))
    }
}
