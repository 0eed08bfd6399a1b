import AsyncHTTPClient
import Foundation
import NIOCore
import NIOHTTP1

/// Every HTTP call of ``HearthAdmin``: one deadline, a size limit, and failures to reach the server turned into
/// `auth/internal-error`. Bodies and tokens are never put into error messages.
struct AdminHTTP: Sendable {
    struct Reply: Sendable {
        let status: UInt
        let headers: HTTPHeaders
        let body: Data
    }

    let client: HTTPClient
    let timeout: TimeInterval
    static let maximumResponseBytes = 8 * 1_024 * 1_024

    func send(_ method: HTTPMethod, _ url: URL, headers: [(String, String)] = [], body: Data? = nil) async throws -> Reply {
        var request = HTTPClientRequest(url: url.absoluteString)
        request.method = method
        request.headers.add(name: "Accept", value: "application/json")
        request.headers.add(name: "User-Agent", value: "HearthAdmin")
        for (name, value) in headers { request.headers.replaceOrAdd(name: name, value: value) }
        if let body { request.body = .bytes(ByteBuffer(bytes: body)) }
        do {
            let response = try await client.execute(request, timeout: .milliseconds(Int64(timeout * 1_000)))
            let buffer = try await response.body.collect(upTo: Self.maximumResponseBytes)
            return Reply(status: response.status.code, headers: response.headers, body: Data(buffer.readableBytesView))
        } catch {
            throw HearthAdminError(.internalError, "\(method.rawValue) \(Self.redacted(url)) failed: \(type(of: error))")
        }
    }

    /// Scheme, host, port and path only: queries may carry secrets.
    static func redacted(_ url: URL) -> String {
        var components = URLComponents(url: url, resolvingAgainstBaseURL: false)
        components?.query = nil
        components?.user = nil
        components?.password = nil
        return components?.string ?? "the server"
    }

    /// The `max-age` of a `Cache-Control` header, in seconds.
    static func maxAge(_ headers: HTTPHeaders) -> TimeInterval? {
        for value in headers["Cache-Control"] {
            for directive in value.split(separator: ",") {
                let parts = directive.trimmingCharacters(in: .whitespaces).split(separator: "=", maxSplits: 1)
                if parts.count == 2, parts[0].lowercased() == "max-age", let seconds = Int(parts[1].trimmingCharacters(in: .whitespaces)) {
                    return TimeInterval(max(0, seconds))
                }
            }
        }
        return nil
    }
}
