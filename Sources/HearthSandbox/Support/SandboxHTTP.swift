import Foundation
import HTTPTypes
import HearthFormEncoding
import Hummingbird
import NIOCore

/// Building answers and reading requests, shared by every provider stand-in.
enum SandboxHTTP {
    /// Largest request body the sandbox reads (real providers accept far less for these endpoints).
    static let maximumBodySize = 64 * 1024

    static func json(_ value: SandboxJSON, status: HTTPResponse.Status = .ok, headers: HTTPFields = [:]) -> Response {
        var fields = headers
        fields[.contentType] = "application/json; charset=utf-8"
        return Response(status: status, headers: fields, body: ResponseBody(byteBuffer: ByteBuffer(bytes: value.jsonData)))
    }

    static func text(_ text: String, status: HTTPResponse.Status, contentType: String = "text/plain; charset=utf-8") -> Response {
        Response(
            status: status, headers: [.contentType: contentType],
            body: ResponseBody(byteBuffer: ByteBuffer(string: text)))
    }

    /// The raw query string's parameters, form-decoded (`+` is a space), first value wins.
    static func query(_ request: Request) -> [String: String] {
        FormEncoding.dictionary(request.uri.query ?? "")
    }

    /// The body as text, or `nil` when it is larger than ``maximumBodySize`` or unreadable.
    static func bodyText(_ request: Request) async -> String? {
        guard let buffer = try? await request.body.collect(upTo: maximumBodySize) else { return nil }
        return String(buffer: buffer)
    }

    /// Whether the request declares an `application/x-www-form-urlencoded` body.
    static func isForm(_ request: Request) -> Bool {
        guard let type = request.headers[.contentType] else { return false }
        return type.split(separator: ";").first?.trimmingCharacters(in: .whitespaces).lowercased()
            == "application/x-www-form-urlencoded"
    }

    /// The credential of an `Authorization: <scheme> <credential>` header when the scheme is one of `schemes`
    /// (compared case-insensitively).
    static func authorization(_ request: Request, schemes: Set<String>) -> String? {
        guard let header = request.headers[.authorization] else { return nil }
        let parts = header.split(separator: " ", maxSplits: 1, omittingEmptySubsequences: true)
        guard parts.count == 2, schemes.contains(parts[0].lowercased()) else { return nil }
        let credential = parts[1].trimmingCharacters(in: .whitespaces)
        return credential.isEmpty ? nil : credential
    }

    /// Basic credentials `(user, password)` from an `Authorization: Basic` header.
    static func basicCredentials(_ request: Request) -> (user: String, password: String)? {
        guard let encoded = authorization(request, schemes: ["basic"]),
            let data = Data(base64Encoded: encoded), let text = String(data: data, encoding: .utf8),
            let colon = text.firstIndex(of: ":")
        else { return nil }
        return (String(text[..<colon]), String(text[text.index(after: colon)...]))
    }

    /// The authority (`host[:port]`) the client addressed, from the request target or the `Host` header.
    static func authority(_ request: Request) -> String? {
        if let authority = request.head.authority, !authority.isEmpty { return authority }
        return HTTPField.Name("Host").flatMap { request.headers[$0] }
    }
}
