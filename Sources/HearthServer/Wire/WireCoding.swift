import Foundation
import HTTPTypes
import HearthCore
import HearthFormEncoding
import HearthWire
import HearthWireMapping
import Hummingbird
import NIOCore

/// Reading request bodies and writing responses the way Identity Toolkit does.
enum WireCoding {
    static let encoder: JSONEncoder = {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.withoutEscapingSlashes]
        return encoder
    }()

    /// The JSON envelope of a request-level failure, for answers written below the router.
    static func encodedBody(_ failure: RequestError) -> ByteBuffer {
        ByteBuffer(bytes: (try? encoder.encode(failure.envelope)) ?? Data("{}".utf8))
    }

    /// The request body, at most `limit` bytes; more is `413` with Google's envelope.
    static func body(of request: Request, limit: Int) async throws -> ByteBuffer {
        do {
            return try await request.body.collect(upTo: limit)
        } catch is NIOTooManyBytesError {
            throw RequestError.payloadTooLarge(limit: limit)
        } catch let error as HTTPError where error.status == .contentTooLarge {
            throw RequestError.payloadTooLarge(limit: limit)
        }
    }

    static func response(_ value: some Encodable, status: HTTPResponse.Status = .ok, headers: HTTPFields = [:]) -> Response {
        response(bytes: bytes(of: value), status: status, headers: headers)
    }

    /// A JSON response of bytes encoded before (``bytes(of:)``).
    static func response(bytes: ByteBuffer, status: HTTPResponse.Status = .ok, headers: HTTPFields = [:]) -> Response {
        var headers = headers
        headers[.contentType] = "application/json; charset=UTF-8"
        return Response(status: status, headers: headers, body: ResponseBody(byteBuffer: bytes))
    }

    /// `value` as the JSON ``response(_:status:headers:)`` writes (``WireJSONEncoder``: in field order, no tree).
    static func bytes(of value: some Encodable) -> ByteBuffer {
        ByteBuffer(bytes: (try? WireJSONEncoder.encode(value)) ?? Array("{}".utf8))
    }

    /// Decodes a JSON or form-encoded body into `T`. Keys may be camelCase or snake_case; unknown keys
    /// are ignored; an empty body is `{}`. Problems become `INVALID_ARGUMENT` errors that say what is wrong.
    static func decode<T: Decodable>(_ type: T.Type, from request: Request, limit: Int) async throws -> T {
        let buffer = try await body(of: request, limit: limit)
        var data = Data(buffer.readableBytesView)
        let contentType = request.headers[.contentType]?.lowercased() ?? ""
        let looksLikeJSON = data.first(where: { ![0x20, 0x0A, 0x0D, 0x09].contains($0) }) == UInt8(ascii: "{")
        if contentType.hasPrefix("application/x-www-form-urlencoded"), !looksLikeJSON {
            data = try formToJSON(data)
        }
        if data.allSatisfy({ $0 == 0x20 || $0 == 0x0A || $0 == 0x0D || $0 == 0x09 }) { data = Data("{}".utf8) }
        return try decodeJSON(type, from: data)
    }

    /// snake_case keys read as camelCase; a body without them skips the decoder's conversion of every key.
    private static let decoders: (snakeCase: JSONDecoder, camelCase: JSONDecoder) = {
        let snakeCase = JSONDecoder()
        snakeCase.keyDecodingStrategy = .convertFromSnakeCase
        return (snakeCase, JSONDecoder())
    }()

    static func decodeJSON<T: Decodable>(_ type: T.Type, from data: Data) throws -> T {
        do {
            guard let first = data.first(where: { ![0x20, 0x0A, 0x0D, 0x09].contains($0) }), first == UInt8(ascii: "{") else {
                throw HearthError(.invalidArgument, detail: "Expected a JSON object.")
            }
            if let flat = FlatJSONDecoder.decode(T.self, from: data, convertingSnakeCase: true) { return flat }
            let keys = DuplicateKeyScanner.scan(data)
            if let key = keys.duplicate {
                throw HearthError(.invalidArgument, detail: "Duplicate key \"\(key.prefix(64))\".")
            }
            return try (keys.hasUnderscoredKey ? decoders.snakeCase : decoders.camelCase).decode(T.self, from: data)
        } catch let error as HearthError {
            throw error
        } catch let DecodingError.typeMismatch(expected, context) {
            throw HearthError(.invalidArgument, detail: "\(pointer(context.codingPath)) must be \(typeName(expected))")
        } catch let DecodingError.valueNotFound(expected, context) {
            throw HearthError(.invalidArgument, detail: "\(pointer(context.codingPath)) must be \(typeName(expected))")
        } catch let DecodingError.keyNotFound(key, context) {
            throw HearthError(.invalidArgument, detail: "\(pointer(context.codingPath + [key])) is required")
        } catch DecodingError.dataCorrupted(let context) where !context.codingPath.isEmpty {
            throw HearthError(.invalidArgument, detail: "\(pointer(context.codingPath)) is invalid")
        } catch {
            throw HearthError(.invalidArgument, detail: "Unexpected token.")
        }
    }

    private static func pointer(_ path: [any CodingKey]) -> String {
        "/" + path.map { $0.intValue.map(String.init) ?? $0.stringValue }.joined(separator: "/")
    }

    private static func typeName(_ type: Any.Type) -> String {
        switch type {
        case is String.Type: return "string"
        case is Bool.Type: return "boolean"
        case is Int.Type, is Int64.Type, is Int32.Type, is Double.Type: return "number"
        case is [String].Type, is [Any].Type: return "array"
        default:
            let name = String(describing: type)
            return name.hasPrefix("Array") ? "array" : "object"
        }
    }

    /// `a=1&b=two` → `{"a":"1","b":"two"}`; `returnSecureToken=true` style booleans become JSON booleans.
    /// A name given twice is refused, as duplicate JSON keys are: servers and proxies disagree on which wins.
    private static func formToJSON(_ data: Data) throws -> Data {
        var object: [String: JSONValue] = [:]
        for (key, value) in FormEncoding.lenientPairs(String(decoding: data, as: UTF8.self)) {
            if object[key] != nil { throw HearthError(.invalidArgument, detail: "Duplicate key \"\(key.prefix(64))\".") }
            object[key] = (value == "true" || value == "false") ? .bool(value == "true") : .string(value)
        }
        return Data(JSONValue.object(object).jsonText.utf8)
    }
}
