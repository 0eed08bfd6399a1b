import HearthFormEncoding
import NIOCore
import NIOHTTP1

/// One HTTP request, encoded once before the load starts so the hot loop only writes buffers.
struct PreparedRequest: Sendable {
    let head: HTTPRequestHead
    let body: ByteBuffer

    /// A `POST` with a JSON body to the server at `hostHeader` (e.g. `127.0.0.1:9099`), with an
    /// `Authorization` header when given (the admin API).
    init(path: String, json: String, hostHeader: String, authorization: String? = nil) {
        body = ByteBuffer(string: json)
        var headers = HTTPHeaders()
        headers.add(name: "Host", value: hostHeader)
        headers.add(name: "Content-Type", value: "application/json")
        headers.add(name: "Content-Length", value: String(body.readableBytes))
        if let authorization { headers.add(name: "Authorization", value: authorization) }
        head = HTTPRequestHead(version: .http1_1, method: .POST, uri: path, headers: headers)
    }

    /// A `POST` of an `application/x-www-form-urlencoded` body (an OAuth 2 token endpoint's), its values percent-encoded.
    init(path: String, form: [(name: String, value: String)], hostHeader: String) {
        body = ByteBuffer(
            string: form.map { "\(FormEncoding.percentEncode($0.name))=\(FormEncoding.percentEncode($0.value))" }.joined(separator: "&"))
        var headers = HTTPHeaders()
        headers.add(name: "Host", value: hostHeader)
        headers.add(name: "Content-Type", value: "application/x-www-form-urlencoded")
        headers.add(name: "Content-Length", value: String(body.readableBytes))
        head = HTTPRequestHead(version: .http1_1, method: .POST, uri: path, headers: headers)
    }

    /// A `GET` of `path`, with an `Authorization` header when given.
    init(get path: String, hostHeader: String, authorization: String? = nil) {
        body = ByteBuffer()
        var headers = HTTPHeaders()
        headers.add(name: "Host", value: hostHeader)
        if let authorization { headers.add(name: "Authorization", value: authorization) }
        head = HTTPRequestHead(version: .http1_1, method: .GET, uri: path, headers: headers)
    }
}
