import Configuration
import Crypto
import Foundation
import HTTPTypes
import HearthConfiguration
import HearthCore
import HearthServer
import HearthTesting
import HearthWire
import Testing

/// The audit trail over real HTTP: what each action records, reading it back through the admin endpoint with
/// paging and filters, its errors, that no secret is kept, and pruning after the retention.
@Suite("Audit events")
struct AuditEventsTests {
    static let path = "/v1/projects/demo-hearth/auditEvents"
    static let owner: HTTPFields = [.authorization: "Bearer owner"]

    @Test("every action records its event, newest first, with uid, actor and method; pages and filters read the same events")
    func actionsAreRecorded() async throws {
        try await withFederated { live, client in
            let password = "correct horse battery"
            // Apart from the first key's event, made as the server started.
            live.clock.advance(by: 1)
            let signedUp = try await client.signUp(email: "alice@example.com", password: password)
            let uid = signedUp.localId
            live.clock.advance(by: 1)
            let signedIn = try await client.signIn(email: "alice@example.com", password: password)
            #expect(signedIn.status == .ok)
            live.clock.advance(by: 1)
            let wrong = try await client.signIn(email: "alice@example.com", password: "not the password")
            #expect(wrong.errorMessage == "INVALID_PASSWORD")
            live.clock.advance(by: 1)
            let unknown = try await client.signIn(email: "nobody-here@example.com", password: password)
            #expect(unknown.errorMessage == "EMAIL_NOT_FOUND")
            live.clock.advance(by: 1)

            // Link Google, then take it away again.
            let credential = try live.sandbox.signInCredential(for: .googleGmail)
            let linked = try await client.signInWithIdp(credential.postBody, idToken: signedIn.string("idToken"))
            #expect(linked.status == .ok, "\(linked.text)")
            live.clock.advance(by: 1)
            let linkedToken = try #require(linked.string("idToken"))
            let unlinked = try await client.post(
                "/v1/accounts:update", ["idToken": .string(linkedToken), "deleteProvider": .array([.string("google.com")])])
            #expect(unlinked.status == .ok, "\(unlinked.text)")
            live.clock.advance(by: 1)

            // A new password (new tokens come back), then a new address.
            let newPassword = "another secret phrase"
            let changed = try await client.post("/v1/accounts:update", ["idToken": .string(linkedToken), "password": .string(newPassword)])
            #expect(changed.status == .ok, "\(changed.text)")
            live.clock.advance(by: 1)
            let moved = try await client.post(
                "/v1/accounts:update", ["idToken": .string(try #require(changed.string("idToken"))), "email": .string("alice.new@example.com")])
            #expect(moved.status == .ok, "\(moved.text)")
            live.clock.advance(by: 1)

            // An administrator's change of the user and of a provider's settings.
            let admin = try await client.raw(
                "/v1/projects/demo-hearth/accounts:update", method: .post,
                body: Data(#"{"localId":"\#(uid)","displayName":"Alice","disableUser":false}"#.utf8),
                headers: Self.owner.merging([.contentType: "application/json"]))
            #expect(admin.status == .ok, "\(admin.text)")
            live.clock.advance(by: 1)
            let providerSecret = "the-app-secret-never-kept"
            let provider = try await client.raw(
                "/v2/projects/demo-hearth/defaultSupportedIdpConfigs?idpId=facebook.com", method: .post,
                body: Data(#"{"enabled":true,"clientId":"1234567890","clientSecret":"\#(providerSecret)"}"#.utf8),
                headers: Self.owner.merging([.contentType: "application/json"]))
            #expect(provider.status == .ok, "\(provider.text)")
            live.clock.advance(by: 1)

            // The person deletes the account.
            let fresh = try await client.signIn(email: "alice.new@example.com", password: newPassword)
            live.clock.advance(by: 1)
            let deleted = try await client.post("/v1/accounts:delete", ["idToken": .string(try #require(fresh.string("idToken")))])
            #expect(deleted.status == .ok, "\(deleted.text)")

            // Alice's events, newest first.
            let mine = try await Self.list(client, query: "uid=\(uid)")
            #expect(
                mine.map(\.kind) == [
                    "user.deleted", "user.signed_in", "admin.user_updated", "user.email_changed", "user.password_changed", "user.unlinked",
                    "user.linked", "user.sign_in_failed", "user.signed_in", "user.signed_up",
                ])
            #expect(mine.allSatisfy { $0.uid == uid })
            #expect(mine.map(\.actor) == ["user", "user", "administrator", "user", "user", "user", "user", "user", "user", "user"])
            #expect(mine.map { $0.actorId ?? "-" } == ["-", "-", "owner", "-", "-", "-", "-", "-", "-", "-"])
            #expect(
                mine.map { $0.method ?? "-" } == ["-", "password", "-", "update", "update", "-", "google.com", "password", "password", "password"])
            #expect(mine.first { $0.kind == "user.unlinked" }?.details == ["providers": "google.com"])
            #expect(mine.first { $0.kind == "user.sign_in_failed" }?.details == ["reason": "wrongPassword"])
            #expect(mine.first { $0.kind == "admin.user_updated" }?.details == ["fields": "displayName,disableUser"])
            #expect(mine.allSatisfy { $0.clientAddress == "127.0.0.1" })
            let times = mine.map(\.time)
            #expect(times == times.sorted(by: >))

            // Everything: also the unknown e-mail's failure (nothing identifying), the provider change and the first key.
            let all = try await Self.list(client, query: "pageSize=1000")
            let failures = all.filter { $0.kind == "user.sign_in_failed" }
            #expect(failures.count == 2)
            #expect(failures.contains { $0.uid == nil && $0.details == ["reason": "unknownEmail"] })
            let change = try #require(all.first { $0.kind == "admin.provider_settings_changed" })
            #expect(
                change.details == ["provider": "facebook.com", "operation": "created"] && change.actor == "administrator" && change.actorId == "owner"
            )
            let key = try #require(all.last)
            #expect(key.kind == "keys.rotated" && key.actor == "system" && key.details?["trigger"] == "first")

            // Paging three at a time reads the same events in the same order; the last page names no next one.
            var paged: [AuditEventInfo] = []
            var token: String?
            var pages = 0
            repeat {
                let query = "pageSize=3" + (token.map { "&pageToken=\($0)" } ?? "")
                let page = try await client.raw(Self.path + "?" + query, method: .get, headers: Self.owner)
                #expect(page.status == .ok, "\(page.text)")
                let decoded = try page.decode(ListAuditEventsResponse.self)
                paged += decoded.events ?? []
                token = decoded.nextPageToken
                pages += 1
            } while token != nil && pages < 100
            #expect(paged == all)
            #expect(pages == (all.count + 2) / 3)

            // Filters: kind, and kind with uid; none matching is an answer without events.
            #expect(try await Self.list(client, query: "kind=user.sign_in_failed").count == 2)
            #expect(try await Self.list(client, query: "kind=user.sign_in_failed&uid=\(uid)").count == 1)
            let none = try await client.raw(Self.path + "?uid=nobody", method: .get, headers: Self.owner)
            #expect(none.status == .ok && none["events"] == nil && none["nextPageToken"] == nil)

            // No secret anywhere in what is stored: passwords, tokens, the provider's credential and secret, e-mails.
            let stored = try await live.services.store.auditEvents(uid: nil, kind: nil, after: nil, limit: 1_000)
            #expect(stored.count == all.count)
            let text = stored.map { "\($0.id) \($0.kind) \($0.uid ?? "") \($0.method ?? "") \($0.clientAddress ?? "") \($0.details)" }
                .joined(separator: "\n")
            let secrets = [
                password, newPassword, "not the password", providerSecret, signedUp.idToken ?? "", signedUp.refreshToken ?? "", linkedToken,
                "alice@example.com", "alice.new@example.com", "nobody-here@example.com", credential.postBody,
            ]
            for secret in secrets where !secret.isEmpty { #expect(!text.contains(secret), "kept: \(secret.prefix(20))") }
        }
    }

    @Test("anonymous, custom-token and federated sign-ups and sign-ins name their method")
    func methods() async throws {
        try await withFederated { live, client in
            let anonymous = try await client.signUpAnonymously()
            live.clock.advance(by: 1)
            let credential = try live.sandbox.signInCredential(for: .googleGmail)
            let first = try await client.signInWithIdp(credential.postBody)
            #expect(first.status == .ok, "\(first.text)")
            live.clock.advance(by: 1)
            let again = try await client.signInWithIdp(try live.sandbox.signInCredential(for: .googleGmail).postBody)
            #expect(again.status == .ok, "\(again.text)")
            live.clock.advance(by: 1)
            let custom = try await client.post("/v1/accounts:signInWithCustomToken", ["token": .string(#"{"uid":"custom-1"}"#)])
            #expect(custom.status == .ok, "\(custom.text)")
            let events = try await Self.list(client, query: "")
            let users = events.filter { $0.kind.hasPrefix("user.") }
            #expect(users.map(\.kind) == ["user.signed_up", "user.signed_in", "user.signed_up", "user.signed_up"])
            #expect(users.map { $0.method ?? "-" } == ["custom", "google.com", "google.com", "anonymous"])
            #expect(users.last?.uid == anonymous.localId && users.first?.uid == "custom-1")
        }
    }

    @Test("bad pageSize, pageToken, kind and uid get Google's error envelope; only administrators may read")
    func errors() async throws {
        try await withHearth { _, client async throws in
            for size in ["0", "1001", "-1", "ten", "1e3", ""] {
                let answer = try await client.raw(Self.path + "?pageSize=\(size)", method: .get, headers: Self.owner)
                #expect(answer.status == .badRequest, "pageSize=\(size)")
                #expect(answer.errorMessage?.contains("pageSize must be an integer between 1 and 1000.") == true, "\(answer.text)")
            }
            for token in ["garbage", "1.abc", "12.\(String(repeating: "g", count: 32))", "%00", "1.\(String(repeating: "a", count: 31))%0A"] {
                let answer = try await client.raw(Self.path + "?pageToken=\(token)", method: .get, headers: Self.owner)
                #expect(answer.status == .badRequest && answer.errorMessage == "INVALID_PAGE_SELECTION", "\(token): \(answer.text)")
            }
            let kind = try await client.raw(Self.path + "?kind=user.hacked", method: .get, headers: Self.owner)
            #expect(kind.status == .badRequest && kind.errorMessage?.contains("kind must be one of") == true, "\(kind.text)")
            for uid in ["%00", "", String(repeating: "u", count: 129), "a%0Ab"] {
                let answer = try await client.raw(Self.path + "?uid=\(uid)", method: .get, headers: Self.owner)
                #expect(answer.status == .badRequest && answer.errorMessage?.contains("uid must be") == true, "\(uid): \(answer.text)")
            }

            // An app's API key is no admin credential; neither is a wrong bearer.
            let keyOnly = try await client.raw(Self.path + "?key=test-api-key", method: .get)
            #expect(keyOnly.status == .unauthorized && keyOnly.decodeStatus == "UNAUTHENTICATED")
            let wrong = try await client.raw(Self.path, method: .get, headers: [.authorization: "Bearer not-an-admin"])
            #expect(wrong.status == .unauthorized)
            let otherProject = try await client.raw("/v1/projects/someone-else/auditEvents", method: .get, headers: Self.owner)
            #expect(otherProject.status != .ok)
        }
    }

    @Test("an administrator's event names the credential: an admin.tokens entry by 8 hex digits of its SHA-256, never the token")
    func adminTokenCredential() async throws {
        let token = "an-admin-token-of-at-least-32-characters"
        try await withHearth({ $0.adminTokens = [token] }) { _, client async throws in
            let created = try await client.raw(
                "/v1/projects/demo-hearth/accounts", method: .post, body: Data(#"{"localId":"made-by-token"}"#.utf8),
                headers: [.authorization: "Bearer \(token)", .contentType: "application/json"])
            #expect(created.status == .ok, "\(created.text)")
            let listed = try await client.raw(Self.path + "?kind=admin.user_created", method: .get, headers: [.authorization: "Bearer \(token)"])
            let event = try #require(try listed.decode(ListAuditEventsResponse.self).events?.first)
            let digest = SHA256.hash(data: Data(token.utf8)).prefix(4).map { String(format: "%02x", $0) }.joined()
            #expect(event.uid == "made-by-token" && event.actor == "administrator" && event.actorId == "token:\(digest)")
            #expect(!listed.text.contains(token))
        }
    }

    @Test("events older than audit.retentionDays are pruned; 0 keeps them forever")
    func retention() async throws {
        try await withHearth({ $0.auditRetentionDays = 30 }) { hearth, client async throws in
            let pruning = AuditPruningService(services: hearth.services)
            _ = try await client.signUp(email: "old@example.com")
            let before = try await hearth.services.store.auditEvents(uid: nil, kind: nil, after: nil, limit: 100).count
            #expect(before == 2)  // the first key, the sign-up
            hearth.clock.advance(by: 29 * 86_400)
            _ = try await client.signUp(email: "newer@example.com")
            #expect(try await pruning.runOnce() == 0)
            hearth.clock.advance(by: 2 * 86_400)
            #expect(try await pruning.runOnce() == 2)
            let left = try await hearth.services.store.auditEvents(uid: nil, kind: nil, after: nil, limit: 100)
            #expect(left.map(\.kind) == [.signedUp])
        }
        try await withHearth({ $0.auditRetentionDays = 0 }) { hearth, client async throws in
            _ = try await client.signUp(email: "kept@example.com")
            hearth.clock.advance(by: 3_650 * 86_400)
            #expect(try await AuditPruningService(services: hearth.services).runOnce() == 0)
            #expect(try await hearth.services.store.auditEvents(uid: nil, kind: nil, after: nil, limit: 100).count == 2)
        }
    }

    @Test("the hourly audit chore counts the charts' completed days for the project and each tenant; today is left to the visit")
    func chartsCountedByTheChore() async throws {
        try await withHearth { hearth, _ async throws in
            let now = hearth.clock.now
            let today = AuditDayCount.day(of: now)
            try await hearth.services.store.createTenant(TenantRecord(id: "chart-t1", displayName: "Charted", createdAt: now))
            let project = hearth.services.database
            let tenant = hearth.services.database.scoped(toTenant: "chart-t1")
            // Sign-ups 3 and 40 days ago and today in the project, 2 days ago in the tenant; one failed sign-in 5 days ago.
            for (store, daysAgo, kind) in [
                (project, 3, AuditEvent.Kind.signedUp), (project, 40, .signedUp), (project, 0, .signedUp), (tenant, 2, .signedUp),
                (tenant, 5, .signInFailed),
            ] {
                try await store.insertAuditEvent(
                    AuditEvent(time: now.addingTimeInterval(-Double(daysAgo) * 86_400), kind: kind, uid: "u", actor: .user, method: "password"))
            }
            let span = (today - AuditDayCounts.chartedDays + 1)...(today - 1)
            #expect(try await project.keptAuditDayCounts(kinds: AuditDayCounts.chartedKinds, days: span).counted.isEmpty)
            try await AuditPruningService(services: hearth.services).runOnce()
            // Every completed day of the span counted for every charted kind, in both trails; nothing kept of today or
            // of the day 40 days ago (outside the span).
            for store in [project, tenant] {
                let kept = try await store.keptAuditDayCounts(kinds: AuditDayCounts.chartedKinds, days: span.lowerBound - 20...today)
                #expect(Set(kept.counted.keys) == Set(span))
                #expect(kept.counted.values.allSatisfy { $0 == Set(AuditDayCounts.chartedKinds) })
            }
            let projectKept = try await project.keptAuditDayCounts(kinds: AuditDayCounts.chartedKinds, days: span).counts
            #expect(projectKept.map { [$0.day, $0.count] } == [[today - 3, 1]] && projectKept.first?.kind == .signedUp)
            let tenantKept = try await tenant.keptAuditDayCounts(kinds: AuditDayCounts.chartedKinds, days: span).counts.sorted { $0.day < $1.day }
            #expect(tenantKept.map { [$0.day, $0.count] } == [[today - 5, 1], [today - 2, 1]])
            #expect(tenantKept.map(\.kind) == [.signInFailed, .signedUp])
            // A second pass finds everything kept: it counts nothing again (the kept rows are unchanged).
            try await AuditPruningService(services: hearth.services).runOnce()
            #expect(try await tenant.keptAuditDayCounts(kinds: AuditDayCounts.chartedKinds, days: span).counts.count == 2)
        }
    }

    @Test("key rotation: the first key is the system's, `hearth keys rotate` an administrator's, a scheduled one the system's")
    func keyRotation() async throws {
        try await withHearth { hearth, _ async throws in
            hearth.clock.advance(by: 1)
            let manual = try #require(try await hearth.services.keyRing.rotateNow())
            hearth.clock.advance(by: 8 * 86_400)
            let scheduled = try #require(try await hearth.services.keyRing.rotateIfDue())
            let events = try await hearth.services.store.auditEvents(uid: nil, kind: .keysRotated, after: nil, limit: 10)
            #expect(events.map { $0.details["trigger"] } == ["scheduled", "manual", "first"])
            #expect(events.map(\.actor) == [.system, .administrator, .system])
            #expect(events.prefix(2).map { $0.details["kid"] } == [scheduled, manual])
            #expect(events.allSatisfy { $0.uid == nil && $0.details.keys.sorted() == ["activatesAt", "kid", "trigger"] })
        }
    }

    @Test("audit.retentionDays: 90 days by default, 0 keeps events forever, anything else outside 0...36500 refused")
    func setting() throws {
        func read(_ values: [AbsoluteConfigKey: ConfigValue]) throws -> ServerConfiguration {
            try ServerConfiguration(reader: ConfigReader(provider: InMemoryProvider(values: values)), defaultMode: .development)
        }
        #expect(try read([:]).auditRetentionDays == 90)
        #expect(try read(["audit.retentionDays": ConfigValue(.int(0), isSecret: false)]).auditRetentionDays == 0)
        for bad in [-1, 36_501] {
            #expect {
                try read(["audit.retentionDays": ConfigValue(.int(bad), isSecret: false)])
            } throws: { error in
                (error as? ConfigurationError)?.key == "audit.retentionDays"
            }
        }
        #expect(KnownSettings.keys.contains("audit.retentionDays"))
    }

    /// Every event the endpoint lists for `query`, all pages.
    static func list(_ client: FirebaseTestClient, query: String) async throws -> [AuditEventInfo] {
        var events: [AuditEventInfo] = []
        var token: String?
        repeat {
            let page = try await client.raw(
                path + "?" + query + (token.map { "&pageToken=\($0)" } ?? ""), method: .get, headers: owner)
            #expect(page.status == .ok, "\(page.text)")
            let decoded = try page.decode(ListAuditEventsResponse.self)
            events += decoded.events ?? []
            token = decoded.nextPageToken
        } while token != nil
        return events
    }
}

extension WireResult {
    /// The `error.status` of Google's envelope.
    fileprivate var decodeStatus: String? { (try? decode(WireErrorResponse.self))?.error.status }
}
