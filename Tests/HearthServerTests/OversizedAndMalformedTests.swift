import AsyncHTTPClient
import Foundation
import HTTPTypes
import HearthCore
import HearthTesting
import HearthWire
import NIOCore
import NIOPosix
import Testing

/// Oversized and malformed requests get Google's JSON error envelope on every route: bodies over a
/// route's limit, headers over the parser's, requests the parser refuses, duplicate keys.
@Suite("Oversized and malformed requests")
struct OversizedAndMalformedTests {
    @Test("a form body over 1 MiB at the redirect handler is 413 with the envelope, not a 500")
    func handlerBody() async throws {
        try await withHearth { _, client async throws in
            // 1 MiB: a SAML IdP posts a signed response there (HearthSAML takes up to 512 KiB of XML, base64 and form-encoded).
            let form = "state=" + String(repeating: "a", count: 1_100_000)
            let result = try await client.raw(
                "/__/auth/handler", method: .post, body: Data(form.utf8), headers: [.contentType: "application/x-www-form-urlencoded"])
            #expect(result.status == .contentTooLarge)
            #expect(result.errorMessage == "Request payload size exceeds the limit: 1048576 bytes.")
        }
    }

    @Test(
        "duplicate keys are refused, whichever spelling repeats them",
        arguments: [
            #"{"email":"ada@example.com","password":"secret1","email":"eve@example.com"}"#,
            #"{"email":"ada@example.com","password":"secret1","\u0065mail":"eve@example.com"}"#,
            #"{"returnSecureToken":true,"nested":{"a":1,"a":2}}"#,
        ])
    func duplicateKeys(body: String) async throws {
        try await withHearth { hearth, client async throws in
            let result = try await client.post("/v1/accounts:signUp", json: body)
            #expect(result.status == .badRequest)
            #expect(result.errorMessage?.hasPrefix("Invalid JSON payload received. Duplicate key \"") == true, "\(result.text)")
            #expect(try await hearth.services.store.countUsers() == 0)
            // The same key in different objects is fine.
            let fine = try await client.post(
                "/v1/accounts:signUp", json: #"{"returnSecureToken":true,"x":{"email":1},"y":[{"email":2},{"email":3}]}"#)
            #expect(fine.status == .ok, "\(fine.text)")
        }
    }

    @Test("a form field given twice is refused too")
    func duplicateFormFields() async throws {
        try await withHearth { _, client async throws in
            let result = try await client.raw(
                "/v1/token", method: .post, body: Data("grant_type=refresh_token&refresh_token=a&refresh_token=b".utf8),
                headers: [.contentType: "application/x-www-form-urlencoded"])
            #expect(result.status == .badRequest)
            #expect(result.errorMessage == "Invalid JSON payload received. Duplicate key \"refresh_token\".")
        }
    }

    @Test("a 100 KB header is 413 and a malformed request line 400, both with the envelope, over a real socket")
    func parserFailures() async throws {
        try await withLiveHearth { live in
            let port = try #require(URL(string: live.baseURL)?.port)
            let hugeHeader =
                "POST /v1/accounts:lookup?key=dev HTTP/1.1\r\nHost: 127.0.0.1\r\nAuthorization: Bearer "
                + String(repeating: "a", count: 100_000) + "\r\nContent-Length: 2\r\n\r\n{}"
            let oversized = try await Self.exchange(hugeHeader, port: port)
            #expect(oversized.hasPrefix("HTTP/1.1 413"), "\(oversized.prefix(80))")
            #expect(oversized.contains(#""message":"Request header fields too large.""#))
            #expect(oversized.contains(#""status":"INVALID_ARGUMENT""#))

            let garbage = try await Self.exchange("GET /\u{7F}\u{01} HTTP/1.1\r\nHost: x\r\n\r\n", port: port)
            #expect(garbage.hasPrefix("HTTP/1.1 400"), "\(garbage.prefix(80))")
            #expect(garbage.contains(#""message":"Malformed HTTP request.""#))

            let badHeader = try await Self.exchange("GET /v1/accounts:lookup HTTP/1.1\r\nHo st: x\r\n\r\n", port: port)
            #expect(badHeader.hasPrefix("HTTP/1.1 400"), "\(badHeader.prefix(80))")
            #expect(badHeader.contains("\"error\""))

            // The server still answers afterwards.
            let healthy = try await FirebaseTestClient(baseURL: live.baseURL).post("/v1/accounts:signUp", ["returnSecureToken": .bool(true)])
            #expect(healthy.status == .ok)
        }
    }

    /// Sends `request` as raw bytes over a new connection and returns everything the server sends
    /// before it closes the connection (at most 30 s: the whole suite running at once on two cores slows it).
    static func exchange(_ request: String, port: Int) async throws -> String {
        let channel = try await ClientBootstrap(group: MultiThreadedEventLoopGroup.singleton)
            .connect(host: "127.0.0.1", port: port) { channel in
                channel.eventLoop.makeCompletedFuture {
                    try NIOAsyncChannel<ByteBuffer, ByteBuffer>(wrappingChannelSynchronously: channel)
                }
            }
        return try await withThrowingTaskGroup(of: String.self) { group in
            group.addTask {
                try await channel.executeThenClose { inbound, outbound in
                    try await outbound.write(ByteBuffer(string: request))
                    var received = ""
                    for try await chunk in inbound { received += String(buffer: chunk) }
                    return received
                }
            }
            group.addTask {
                try await Task.sleep(for: .seconds(30))
                throw CancellationError()
            }
            let first = try await group.next() ?? ""
            group.cancelAll()
            return first
        }
    }
}
