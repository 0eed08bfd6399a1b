import Foundation
import HearthCore
import HearthStorage
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
