import Foundation
import HearthCore
import HearthStorage
import HearthWire
import Testing

/// Text that would not come back from storage whole (a NUL) never reaches another account, and profile
/// fields are bounded: a test per field, over HTTP and at the store on both backends.
@Suite("NUL bytes, control characters and profile limits")
struct UserTextTests {
    @Test("a custom-token uid with a NUL or any control character is refused; the account it points at is untouched")
    func customTokenUIDs() async throws {
        try await withHearth { hearth, client async throws in
            let victimToken = CustomTokenTests.unsigned(["uid": .string("victim")], now: hearth.clock.now)
            let victim = try await client.post(
                "/v1/accounts:signInWithCustomToken", ["token": .string(victimToken), "returnSecureToken": .bool(true)])
            #expect(victim.status == .ok)
            for uid in [
                "victim\u{0000}x", "victim\u{0000}", "victim\u{001B}", "victim\u{007F}", "victim\u{200B}", "victim\n", "line\u{2028}break",
                String(repeating: "a", count: 129),
            ] {
                let token = CustomTokenTests.unsigned(["uid": .string(uid)], now: hearth.clock.now)
                let refused = try await client.post(
                    "/v1/accounts:signInWithCustomToken", ["token": .string(token), "returnSecureToken": .bool(true)])
                #expect(
                    refused.errorMessage == "INVALID_CUSTOM_TOKEN : ((The uid must be a non-empty string of at most 128 printable characters.))",
                    "\(uid.debugDescription)")
            }
            #expect(try await hearth.services.store.countUsers() == 1)
            let printable = CustomTokenTests.unsigned(["uid": .string("user with spaces/and:ünïcode")], now: hearth.clock.now)
            #expect(try await client.post("/v1/accounts:signInWithCustomToken", ["token": .string(printable)]).status == .ok)
            let longest = CustomTokenTests.unsigned(["uid": .string(String(repeating: "a", count: 128))], now: hearth.clock.now)
            #expect(try await client.post("/v1/accounts:signInWithCustomToken", ["token": .string(longest)]).status == .ok)
        }
    }

    @Test("display names: NUL, control characters and more than 256 characters are refused on signUp and update")
    func displayNames() async throws {
        try await withHearth { _, client async throws in
            let created = try await client.signUp(email: "ada@example.com")
            let token = JSONValue.string(try #require(created.idToken))
            for name in ["a\u{0000}b", "a\u{0007}b", "a\nb", "a\u{0085}b", String(repeating: "x", count: 257), String(repeating: "é", count: 900_00)]
            {
                let update = try await client.post("/v1/accounts:update", ["idToken": token, "displayName": .string(name)])
                #expect(update.errorMessage == "INVALID_DISPLAY_NAME", "\(name.prefix(8).debugDescription)")
                let signUp = try await client.post(
                    "/v1/accounts:signUp",
                    [
                        "email": .string("new-\(UUID().uuidString.prefix(6))@example.com"), "password": .string("secret1"),
                        "displayName": .string(name),
                    ])
                #expect(signUp.errorMessage == "INVALID_DISPLAY_NAME", "\(name.prefix(8).debugDescription)")
            }
            let kept = try await client.post("/v1/accounts:update", ["idToken": token, "displayName": .string(String(repeating: "é", count: 256))])
            #expect(kept.string("displayName")?.count == 256)
            let lookup = try await client.post("/v1/accounts:lookup", ["idToken": token])
            #expect(lookup.status == .ok)
        }
    }

    @Test("photo URLs: only absolute http(s) URLs of at most 2,048 bytes, no control characters or spaces")
    func photoURLs() async throws {
        try await withHearth { _, client async throws in
            let created = try await client.signUp(email: "ada@example.com")
            let token = JSONValue.string(try #require(created.idToken))
            for url in [
                "javascript:alert(1)", "JavaScript:alert(1)", "data:image/png;base64,AAAA", "file:///etc/passwd", "ftp://example.com/a.png",
                "//example.com/a.png", "https:///a.png", "https://exa mple.com/a.png", "https://example.com/a\u{0000}.png",
                "https://example.com/\\a.png", "https://example.com/" + String(repeating: "a", count: 2_030), "",
            ] {
                let update = try await client.post("/v1/accounts:update", ["idToken": token, "photoUrl": .string(url)])
                #expect(update.errorMessage == "INVALID_PHOTO_URL", "\(url.prefix(30).debugDescription)")
            }
            let kept = try await client.post("/v1/accounts:update", ["idToken": token, "photoUrl": .string("https://example.com/a.png?size=64")])
            #expect(kept.string("photoUrl") == "https://example.com/a.png?size=64")
        }
    }
}
