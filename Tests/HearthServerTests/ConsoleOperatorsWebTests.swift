import Foundation
import HearthCore
import HearthTesting
import Testing

@testable import HearthConsole
@testable import HearthServer

/// Operators managed from `/console/operators` by an owner: one added shows its authenticator secret and recovery
/// codes once and then signs in with them; roles changed; each an audit event; editors, viewers, missing form tokens
/// and other sites refused.
@Suite("Console operators from the page", .serialized)
struct ConsoleOperatorsWebTests {
    static let newPassword = "a long enough password 1"

    @Test("an owner adds an operator, who signs in with the shown secret and a recovery code; the page shows them once")
    func addedOperatorSignsIn() async throws {
        try await ConsoleTests.withConsole { live in
            let owner = try await ConsoleTests.signIn(live, try await ConsoleTests.addOperator(live, "own@example.com", role: .owner))
            let csrf = try #require(try await owner.get("/console/operators").csrf)
            let added = try await owner.post(
                "/console/operators", ["csrf": csrf, "email": "New.Op@Example.com", "role": "editor", "password": Self.newPassword])
            #expect(added.status == 200)
            #expect(added.headers["cache-control"] == "no-store")
            let secret = try #require(added.body.firstMatch(of: #/<code id="secret">([A-Z2-7]+)</code>/#).map { String($0.output.1) })
            let uri = try #require(added.body.firstMatch(of: #/<code id="otpauth">([^<]+)</code>/#).map { String($0.output.1) })
            #expect(uri.hasPrefix("otpauth://totp/") && uri.contains("secret=\(secret)"))
            // The same link as a QR code, drawn inline: the modules the page draws are the encoder's for the link.
            let expected = try #require(QRCode(Array(uri.replacingOccurrences(of: "&amp;", with: "&").utf8)))
            #expect(added.body.contains(expected.svg(label: "QR code of the authenticator link")))
            let codes = added.body.matches(of: #/<li><code>([^<]+)</code></li>/#).map { String($0.output.1) }
            #expect(codes.count == 10)
            // Never again: the list shows no secret.
            let list = try await owner.get("/console/operators")
            #expect(list.body.contains("new.op@example.com") && !list.body.contains(secret) && !list.body.contains(codes[0]))
            let events = try await live.services.store.auditEvents(uid: nil, kind: .consoleOperatorAdded, after: nil, limit: 5)
            #expect(
                events.first?.actorID == "operator:own@example.com" && events.first?.details == ["operator": "new.op@example.com", "role": "editor"])

            // The new operator signs in with the password and the shown secret's code…
            let key = try #require(RFC6238.base32Decode(secret))
            let client = ConsoleHTTPClient(baseURL: live.baseURL)
            #expect(try await client.post("/console/sign-in", ["email": "new.op@example.com", "password": Self.newPassword]).status == 303)
            let pending = try #require(try await client.get("/console/sign-in").csrf)
            live.clock.advance(by: 30)
            #expect(
                try await client.post("/console/sign-in/code", ["csrf": pending, "code": RFC6238.code(key: key, at: live.clock.now)]).status == 303)
            let users = try await client.get("/console/users")
            #expect(users.status == 200 && users.body.contains("new.op@example.com</bdi> · editor"))
            // …and, another time, with a shown recovery code.
            let again = ConsoleHTTPClient(baseURL: live.baseURL)
            #expect(try await again.post("/console/sign-in", ["email": "new.op@example.com", "password": Self.newPassword]).status == 303)
            let second = try #require(try await again.get("/console/sign-in").csrf)
            #expect(try await again.post("/console/sign-in/code", ["csrf": second, "code": codes[3]]).status == 303)
        }
    }

    @Test("adding refuses a bad e-mail, a short password, a taken e-mail and an unknown role, each with its message")
    func addRefusals() async throws {
        try await ConsoleTests.withConsole { live in
            let owner = try await ConsoleTests.signIn(live, try await ConsoleTests.addOperator(live, "own@example.com", role: .owner))
            let csrf = try #require(try await owner.get("/console/operators").csrf)
            let cases: [([String: String], String)] = [
                (["email": "not an address", "role": "viewer", "password": Self.newPassword], "That is not an e-mail address."),
                (["email": "a@example.com", "role": "viewer", "password": "short"], "The password needs at least 12 characters."),
                (["email": "own@example.com", "role": "viewer", "password": Self.newPassword], "There is an operator with that e-mail already."),
                (["email": "a@example.com", "role": "god", "password": Self.newPassword], "Choose a role: viewer, editor or owner."),
            ]
            for (form, message) in cases {
                let refused = try await owner.post("/console/operators", form.merging(["csrf": csrf]) { $1 })
                #expect(refused.status == 400, "\(form)")
                #expect(refused.body.contains(message), "\(form)")
            }
            #expect(try await live.services.store.consoleOperators().map(\.email) == ["own@example.com"])
        }
    }

    @Test("an owner changes another's role, at once and with an audit event; not their own; editors, viewers and other sites refused")
    func roles() async throws {
        try await ConsoleTests.withConsole { live in
            let owner = try await ConsoleTests.signIn(live, try await ConsoleTests.addOperator(live, "own@example.com", role: .owner))
            let editor = try await ConsoleTests.signIn(live, try await ConsoleTests.addOperator(live, "ed@example.com", role: .editor))
            let viewer = try await ConsoleTests.signIn(live, try await ConsoleTests.addOperator(live, "vi@example.com", role: .viewer))
            let csrf = try #require(try await owner.get("/console/operators").csrf)
            for client in [editor, viewer] {
                let theirs = try #require(try await client.get("/console/users").csrf)
                #expect(try await client.post("/console/operators/role", ["csrf": theirs, "email": "vi@example.com", "role": "owner"]).status == 403)
                #expect(
                    try await client.post(
                        "/console/operators", ["csrf": theirs, "email": "x@example.com", "role": "owner", "password": Self.newPassword]
                    )
                    .status == 403)
            }
            #expect(try await owner.post("/console/operators/role", ["email": "vi@example.com", "role": "owner"]).status == 403)
            #expect(
                try await owner.post(
                    "/console/operators/role", ["csrf": csrf, "email": "vi@example.com", "role": "owner"], headers: ["Origin": "https://evil.example"]
                )
                .status == 403)
            #expect(try await owner.post("/console/operators/role", ["csrf": csrf, "email": "own@example.com", "role": "viewer"]).status == 400)
            #expect(try await owner.post("/console/operators/role", ["csrf": csrf, "email": "nobody@example.com", "role": "viewer"]).status == 404)

            #expect(try await viewer.get("/console/users/new").status == 403)
            let changed = try await owner.post("/console/operators/role", ["csrf": csrf, "email": "vi@example.com", "role": "editor"])
            #expect(changed.status == 303)
            #expect(try await owner.get(try #require(changed.location)).body.contains("The role was changed"))
            #expect(try await viewer.get("/console/users/new").status == 200)
            let events = try await live.services.store.auditEvents(uid: nil, kind: .consoleOperatorRoleChanged, after: nil, limit: 5)
            #expect(events.count == 1 && events.first?.actorID == "operator:own@example.com")
            #expect(events.first?.details == ["operator": "vi@example.com", "role": "editor", "previousRole": "viewer"])
            // The same role again changes nothing and records nothing.
            #expect(try await owner.post("/console/operators/role", ["csrf": csrf, "email": "vi@example.com", "role": "editor"]).status == 303)
            #expect(try await live.services.store.auditEvents(uid: nil, kind: .consoleOperatorRoleChanged, after: nil, limit: 5).count == 1)
        }
    }
}
