import AsyncHTTPClient
import Foundation
import HTTPTypes
import HearthSandbox
import Hummingbird
import HummingbirdTesting
import NIOCore
import Testing

/// A sandbox behind an in-process router (`app.test(.router)`), reachable at `http://sandbox.test`.
func withSandbox(
    _ sandbox: Sandbox = Sandbox(baseURL: "http://sandbox.test"),
    _ body: @Sendable (Sandbox, SandboxTestClient) async throws -> Void
) async throws {
    let app = Application(router: sandbox.router())
    try await app.test(.router) { client in try await body(sandbox, SandboxTestClient(client: client)) }
}

/// A sandbox served over real HTTP on a free loopback port under `/sandbox`, its ``Sandbox/baseURL`` set to
/// it, and an HTTP client that follows redirects only when `followsRedirects`; both stop afterwards.
func withLiveSandbox(
    followsRedirects: Bool = true, _ body: @Sendable (Sandbox, HTTPClient) async throws -> Void
) async throws {
    let sandbox = Sandbox()
    let router = Router()
    sandbox.addRoutes(to: router.group("/sandbox"))
    let app = Application(router: router, configuration: .init(address: .hostname("127.0.0.1", port: 0)))
    try await app.test(.live) { client in
        let port = try #require(client.port)
        sandbox.baseURL = "http://127.0.0.1:\(port)/sandbox"
        let configuration = followsRedirects ? HTTPClient.Configuration() : .init(redirectConfiguration: .disallow)
        let http = HTTPClient(eventLoopGroupProvider: .singleton, configuration: configuration)
        do {
            try await body(sandbox, http)
        } catch {
            try await http.shutdown()
            throw error
        }
        try await http.shutdown()
    }
}

/// A response as the tests read it.
struct TestAnswer: Sendable {
    let status: HTTPResponse.Status
    let headers: HTTPFields
    let body: Data

    var text: String { String(decoding: body, as: UTF8.self) }
    var json: TestJSON { TestJSON.parse(body) ?? .null }
    subscript(key: String) -> TestJSON? { json[key] }
}

struct SandboxTestClient: Sendable {
    let client: any TestClientProtocol

    func get(_ uri: String, headers: HTTPFields = [:]) async throws -> TestAnswer {
        try await send(uri, method: .get, headers: headers)
    }

    func postForm(_ uri: String, _ form: [(String, String)], headers: HTTPFields = [:]) async throws -> TestAnswer {
        let body = form.map { "\(TestOAuth1Signer.encode($0.0))=\(TestOAuth1Signer.encode($0.1))" }.joined(separator: "&")
        var fields = headers
        fields[.contentType] = "application/x-www-form-urlencoded"
        return try await send(uri, method: .post, headers: fields, body: Data(body.utf8))
    }

    func send(_ uri: String, method: HTTPRequest.Method, headers: HTTPFields = [:], body: Data? = nil) async throws -> TestAnswer {
        let response = try await client.execute(uri: uri, method: method, headers: headers, body: body.map { ByteBuffer(bytes: $0) })
        return TestAnswer(status: response.status, headers: response.headers, body: Data(response.body.readableBytesView))
    }
}
