import Foundation
import HTTPTypes
import HearthAdmin
import HearthTesting
import Hummingbird
import HummingbirdTesting
import NIOCore
import NotesBackend
import Testing

/// The example backend: the uid of the verified ID token decides whose notes a request reaches.
@Suite("Example: the notes backend")
struct NotesBackendTests {
    static func bearer(_ token: String) -> HTTPFields { [.authorization: "Bearer \(token)"] }

    static func notes(_ response: TestResponse) throws -> [Note] {
        try JSONDecoder().decode([Note].self, from: Data(response.body.readableBytesView))
    }

    @Test("two users each see only their own notes; no token, a bad token, another project's token: 401 with a JSON error")
    func ownNotesOnly() async throws {
        try await withLiveHearth { live in
            let ada = try await signUp(live, email: "ada@example.com")
            let bob = try await signUp(live, email: "bob@example.com")
            let app = Application(router: buildNotesRouter(admin: try makeAdmin(live)))
            try await app.test(.router) { client in
                for (user, text) in [(ada, "ada's first"), (bob, "bob's secret"), (ada, "ada's second")] {
                    let created = try await client.execute(
                        uri: "/notes", method: .post, headers: Self.bearer(user.idToken).merging([.contentType: "application/json"]),
                        body: ByteBuffer(string: #"{"text":"\#(text)"}"#))
                    #expect(created.status == .created)
                }
                let adas = try Self.notes(try await client.execute(uri: "/notes", method: .get, headers: Self.bearer(ada.idToken)))
                #expect(adas.map(\.text) == ["ada's first", "ada's second"])
                let bobs = try Self.notes(try await client.execute(uri: "/notes", method: .get, headers: Self.bearer(bob.idToken)))
                #expect(bobs.map(\.text) == ["bob's secret"])

                let none = try await client.execute(uri: "/notes", method: .get)
                #expect(none.status == .unauthorized)
                #expect(none.headers[.wwwAuthenticate] != nil)
                let body = try JSONDecoder().decode([String: [String: ClaimValue]].self, from: Data(none.body.readableBytesView))
                #expect(body["error"]?["code"] == 401)
                #expect(body["error"]?["status"] == "UNAUTHENTICATED")
                for header in ["Bearer", "Bearer ", "Basic \(ada.idToken)", "Bearer not-a-token", "Bearer \(ada.idToken)x"] {
                    let refused = try await client.execute(uri: "/notes", method: .get, headers: [.authorization: header])
                    #expect(refused.status == .unauthorized, "\(header.prefix(20))")
                }
                let posted = try await client.execute(uri: "/notes", method: .post, body: ByteBuffer(string: #"{"text":"anonymous"}"#))
                #expect(posted.status == .unauthorized)
            }
            // A genuine ID token of another project (another server, its own keys and audience).
            try await withLiveHearth({ $0.projectID = "another-project" }) { other in
                let stranger = try await signUp(other, email: "ada@example.com")
                try await app.test(.router) { client in
                    let refused = try await client.execute(uri: "/notes", method: .get, headers: Self.bearer(stranger.idToken))
                    #expect(refused.status == .unauthorized)
                }
            }
        }
    }

    @Test("an expired token is refused with auth/id-token-expired")
    func expired() async throws {
        try await withLiveHearth { live in
            let ada = try await signUp(live, email: "ada@example.com")
            let clock = OffsetClock(live.clock)
            let app = Application(router: buildNotesRouter(admin: try makeAdmin(live, clock: clock)))
            try await app.test(.router) { client in
                #expect(try await client.execute(uri: "/notes", method: .get, headers: Self.bearer(ada.idToken)).status == .ok)
                clock.set(3_600 + 61)
                let refused = try await client.execute(uri: "/notes", method: .get, headers: Self.bearer(ada.idToken))
                #expect(refused.status == .unauthorized)
                let body = try JSONDecoder().decode([String: [String: ClaimValue]].self, from: Data(refused.body.readableBytesView))
                #expect(body["error"]?["reason"] == "auth/id-token-expired")
            }
        }
    }
}

extension HTTPFields {
    func merging(_ other: HTTPFields) -> HTTPFields {
        var result = self
        for field in other where result[field.name] == nil { result.append(field) }
        return result
    }
}
