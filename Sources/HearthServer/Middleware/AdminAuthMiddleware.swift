import Crypto
import Foundation
import HTTPTypes
import Hummingbird

/// Requires an administrator's bearer token (`Authorization: Bearer <token>`) on the project-scoped admin
/// routes. The tokens are `admin.tokens` in the configuration; development mode also accepts the Firebase
/// emulator's `Bearer owner`, so the Admin SDKs' emulator mode works unchanged.
struct AdminAuthMiddleware<Context: RequestContext>: RouterMiddleware {
    let acceptsOwner: Bool
    let tokens: [String]

    func handle(_ request: Request, context: Context, next: (Request, Context) async throws -> Response) async throws -> Response {
        guard request.method != .options else { return try await next(request, context) }
        guard let header = request.headers[.authorization] else { throw RequestError.missingCredential }
        let parts = header.split(separator: " ", maxSplits: 1, omittingEmptySubsequences: true)
        guard parts.count == 2, parts[0].lowercased() == "bearer" else { throw RequestError.missingCredential }
        let presented = parts[1].trimmingCharacters(in: .whitespaces)
        let accepted =
            (acceptsOwner && presented.lowercased() == "owner")
            || tokens.contains { Self.constantTimeEquals($0, presented) }
        guard accepted else { throw RequestError.invalidCredential }
        return try await next(request, context)
    }

    /// Compares the SHA-256 digests of both, byte by byte without stopping at the first difference: the
    /// time taken says nothing about the token, and any difference in length or content changes the digest.
    static func constantTimeEquals(_ expected: String, _ presented: String) -> Bool {
        let a = SHA256.hash(data: Data(expected.utf8))
        let b = SHA256.hash(data: Data(presented.utf8))
        var difference: UInt8 = 0
        for (x, y) in zip(a, b) { difference |= x ^ y }
        return difference == 0
    }
}

extension RequestError {
    static let missingCredential = RequestError(
        status: .unauthorized,
        message:
            "Request is missing required authentication credential. Expected OAuth 2 access token, login cookie or other valid authentication credential. See https://developers.google.com/identity/sign-in/web/devconsole-project.",
        statusName: "UNAUTHENTICATED", reason: "required")
    static let invalidCredential = RequestError(
        status: .unauthorized,
        message:
            "Request had invalid authentication credentials. Expected OAuth 2 access token, login cookie or other valid authentication credential. See https://developers.google.com/identity/sign-in/web/devconsole-project.",
        statusName: "UNAUTHENTICATED", reason: "authError")
}
