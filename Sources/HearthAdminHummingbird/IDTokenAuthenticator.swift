import Foundation
import HTTPTypes
import HearthAdmin
import Hummingbird
import NIOCore

/// A request context that carries the caller's verified identity, set by ``IDTokenAuthenticator``.
public protocol AuthenticatedRequestContext: RequestContext {
    /// The verified ID token of the caller; `nil` until the middleware has run.
    var identity: DecodedToken? { get set }
}

extension AuthenticatedRequestContext {
    /// The caller's identity, or a 401 if no ``IDTokenAuthenticator`` admitted the request.
    public func requireIdentity() throws -> DecodedToken {
        guard let identity else { throw AuthenticationFailure(code: "auth/argument-error", message: "No verified ID token.") }
        return identity
    }
}

/// Authenticates each request by the Firebase ID token in `Authorization: Bearer <token>`: verified with
/// ``HearthAdmin/verifyIDToken(_:checkRevoked:)``, the handler finds it in `context.identity` (its `uid` and
/// claims). Without a token, or with one that does not verify, the answer is 401 with a JSON error and
/// `WWW-Authenticate: Bearer`; when the server's keys cannot be fetched, 503.
public struct IDTokenAuthenticator<Context: AuthenticatedRequestContext>: RouterMiddleware {
    public let admin: HearthAdmin
    /// Whether to ask the server, on every request, whether the user is disabled or the token revoked.
    public let checkRevoked: Bool

    public init(admin: HearthAdmin, checkRevoked: Bool = false) {
        self.admin = admin
        self.checkRevoked = checkRevoked
    }

    public func handle(_ request: Request, context: Context, next: (Request, Context) async throws -> Response) async throws -> Response {
        guard let token = Self.bearer(of: request) else {
            throw AuthenticationFailure(code: "auth/argument-error", message: "Authorization: Bearer <ID token> is required.")
        }
        let identity: DecodedToken
        do {
            identity = try await admin.verifyIDToken(token, checkRevoked: checkRevoked)
        } catch let error as HearthAdminError {
            if error.code == .internalError {
                throw AuthenticationFailure(status: .serviceUnavailable, code: error.code.rawValue, message: "The token could not be checked now.")
            }
            throw AuthenticationFailure(code: error.code.rawValue, message: error.message)
        }
        var context = context
        context.identity = identity
        return try await next(request, context)
    }

    /// The token of `Authorization: Bearer <token>`, `nil` without one.
    static func bearer(of request: Request) -> String? {
        guard let header = request.headers[.authorization] else { return nil }
        let parts = header.split(separator: " ", maxSplits: 1, omittingEmptySubsequences: true)
        guard parts.count == 2, parts[0].lowercased() == "bearer" else { return nil }
        let token = parts[1].trimmingCharacters(in: .whitespaces)
        return token.isEmpty ? nil : token
    }
}

/// A refused request: 401 (or 503) with `{"error":{"code":401,"status":"UNAUTHENTICATED","message":…,"reason":"auth/…"}}`.
public struct AuthenticationFailure: Error, HTTPResponseError {
    public let status: HTTPResponse.Status
    /// The Admin SDK error code, e.g. `auth/id-token-expired`.
    public let code: String
    public let message: String

    public init(status: HTTPResponse.Status = .unauthorized, code: String, message: String) {
        self.status = status
        self.code = code
        self.message = message
    }

    public var headers: HTTPFields {
        var fields: HTTPFields = [.contentType: "application/json; charset=UTF-8"]
        if status == .unauthorized { fields[.wwwAuthenticate] = #"Bearer error="invalid_token""# }
        return fields
    }

    private struct Envelope: Encodable {
        struct Body: Encodable {
            let code: Int
            let status: String
            let message: String
            let reason: String
        }
        let error: Body
    }

    public func response(from request: Request, context: some RequestContext) throws -> Response {
        let body = Envelope(
            error: .init(code: status.code, status: status == .unauthorized ? "UNAUTHENTICATED" : "UNAVAILABLE", message: message, reason: code))
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.withoutEscapingSlashes]
        let data = (try? encoder.encode(body)) ?? Data("{}".utf8)
        return Response(status: status, headers: headers, body: ResponseBody(byteBuffer: ByteBuffer(bytes: data)))
    }
}
