import Foundation
import HTTPTypes
import HearthCore
import HearthFormEncoding
import HearthTokens
import Hummingbird
import Logging
import NIOCore

/// `POST /oauth2/v4/token`: the `token_uri` of service-account files. Exchanges a JWT signed with a
/// service-account key (the JWT-bearer grant, RFC 7523, as google-auth sends it) for an access token the
/// admin routes accept. Answers are OAuth's (RFC 6749 §5.1, §5.2), not Google's API envelope: every refusal
/// is `400 {"error": …, "error_description": …}`.
struct ServiceAccountTokenController<Context: RequestContext>: Sendable {
    static var grantType: String { "urn:ietf:params:oauth:grant-type:jwt-bearer" }
    /// Form bodies longer than this are refused unread.
    static var maximumBodyBytes: Int { 16_384 }

    let logger: Logger
    let accessTokens: AdminAccessTokens

    @Sendable func token(_ request: Request, context: Context) async throws -> Response {
        let body: ByteBuffer
        do {
            body = try await request.body.collect(upTo: Self.maximumBodyBytes)
        } catch {
            return Self.refusal("invalid_request", "The request body is too large.")
        }
        let contentType = request.headers[.contentType]?.lowercased() ?? ""
        guard contentType.hasPrefix("application/x-www-form-urlencoded") else {
            return Self.refusal("invalid_request", "Send the parameters form-encoded (application/x-www-form-urlencoded).")
        }
        guard let form = Self.parseForm(Data(body.readableBytesView)) else {
            return Self.refusal("invalid_request", "The form is malformed or repeats a parameter.")
        }
        guard let grantType = form["grant_type"] else { return Self.refusal("invalid_request", "grant_type is required.") }
        guard grantType == Self.grantType else {
            return Self.refusal("unsupported_grant_type", "Only \(Self.grantType) is supported.")
        }
        guard let assertion = form["assertion"], !assertion.isEmpty else { return Self.refusal("invalid_request", "assertion is required.") }

        let checked: AdminAccessTokens.Assertion
        do {
            checked = try await accessTokens.verifyAssertion(assertion)
        } catch let error as AdminAccessTokens.GrantError {
            return Self.refusal(error.code, error.description)
        }
        // An assertion may be used more than once within its life, as Google's endpoint allows: Google's libraries
        // put no `jti` in it and RS256 signatures are deterministic, so two processes sharing a key sign the very
        // same assertion in the same second, and refusing the second would break one of them.

        let token = try await accessTokens.mint(for: checked)
        logger.info(
            "Granted an admin access token", metadata: ["clientEmail": "\(checked.key.clientEmail)", "keyID": "\(checked.key.keyID)"])
        return Self.json(Granted(accessToken: token, expiresIn: Int(accessTokens.lifetime)), status: .ok)
    }

    /// The parameters of a form body; `nil` for bad percent-encoding, a repeated parameter (RFC 6749 §3.2)
    /// or a value holding a control character.
    static func parseForm(_ data: Data) -> [String: String]? {
        guard let text = String(data: data, encoding: .utf8), let pairs = FormEncoding.pairs(text),
            !pairs.contains(where: { ($0.name + $0.value).unicodeScalars.contains { $0.properties.generalCategory == .control } })
        else { return nil }
        return FormEncoding.uniqueValues(pairs)
    }

    /// RFC 6749 §5.1.
    struct Granted: Encodable {
        let accessToken: String
        let tokenType = "Bearer"
        let expiresIn: Int

        enum CodingKeys: String, CodingKey {
            case accessToken = "access_token"
            case tokenType = "token_type"
            case expiresIn = "expires_in"
        }
    }

    /// RFC 6749 §5.2.
    struct Refused: Encodable {
        let error: String
        let errorDescription: String

        enum CodingKeys: String, CodingKey {
            case error
            case errorDescription = "error_description"
        }
    }

    static func refusal(_ code: String, _ description: String) -> Response {
        json(Refused(error: code, errorDescription: description), status: .badRequest)
    }

    private static func json(_ value: some Encodable, status: HTTPResponse.Status) -> Response {
        let data = (try? WireCoding.encoder.encode(value)) ?? Data("{}".utf8)
        // RFC 6749 §5.1: token answers are never cached.
        let headers: HTTPFields = [.contentType: "application/json; charset=UTF-8", .cacheControl: "no-store", .init("Pragma")!: "no-cache"]
        return Response(status: status, headers: headers, body: ResponseBody(byteBuffer: ByteBuffer(bytes: data)))
    }
}
