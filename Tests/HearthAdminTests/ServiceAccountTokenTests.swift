import Crypto
import CryptoExtras
import Foundation
import HearthAdmin
import HearthBase64URL
import HearthTesting
import Hummingbird
import HummingbirdTesting
import Synchronization
import Testing

/// The service-account credential's side of RFC 7523: the JWT assertion it signs, the form it posts to the key
/// file's `token_uri`, and the access token it keeps until shortly before it expires.
///
/// Hearth's own token endpoint is being built separately; until it is merged, a token endpoint written here
/// checks the request by the RFC (form fields, the assertion's signature and claims) and answers as Google's does.
@Suite("HearthAdmin: service-account access tokens")
struct ServiceAccountTokenTests {
    static let adminToken = "exchanged-admin-token-0123456789abcdef"

    /// A token endpoint that accepts only a correct JWT-bearer grant signed by `key` for `email`, and counts exchanges.
    static func tokenEndpoint(key: _RSA.Signing.PublicKey, email: String, exchanges: Exchanges) -> Router<BasicRequestContext> {
        let router = Router()
        router.post("token") { request, context -> Response in
            let body = String(buffer: try await request.body.collect(upTo: 64 * 1024))
            var form: [String: String] = [:]
            for pair in body.split(separator: "&") {
                let parts = pair.split(separator: "=", maxSplits: 1).map { String($0).removingPercentEncoding ?? "" }
                if parts.count == 2 { form[parts[0]] = parts[1] }
            }
            func refuse(_ error: String) -> Response {
                exchanges.withLock { $0.append("refused: \(error)") }
                return Response(
                    status: .badRequest, headers: [.contentType: "application/json"],
                    body: .init(byteBuffer: ByteBuffer(string: #"{"error":"\#(error)"}"#)))
            }
            guard request.headers[.contentType]?.hasPrefix("application/x-www-form-urlencoded") == true else { return refuse("content_type") }
            guard form["grant_type"] == "urn:ietf:params:oauth:grant-type:jwt-bearer" else { return refuse("unsupported_grant_type") }
            let parts = (form["assertion"] ?? "").split(separator: ".", omittingEmptySubsequences: false)
            guard parts.count == 3, let signature = Base64URL.decode(parts[2]), let payload = Base64URL.decode(parts[1]),
                let header = Base64URL.decode(parts[0]),
                key.isValidSignature(
                    _RSA.Signing.RSASignature(rawRepresentation: signature), for: SHA256.hash(data: Data("\(parts[0]).\(parts[1])".utf8)),
                    padding: .insecurePKCS1v1_5),
                case .object(let claims) = try JSONDecoder().decode(ClaimValue.self, from: Data(payload)),
                case .object(let headerFields) = try JSONDecoder().decode(ClaimValue.self, from: Data(header))
            else { return refuse("invalid_grant") }
            guard headerFields["alg"] == "RS256", claims["iss"] == .string(email), claims["sub"] == .string(email),
                claims["aud"]?.stringValue?.hasSuffix("/token") == true, claims["scope"]?.stringValue?.isEmpty == false,
                let iat = claims["iat"]?.numberValue, let exp = claims["exp"]?.numberValue, exp > iat, exp - iat <= 3_600
            else { return refuse("invalid_grant") }
            exchanges.withLock { $0.append("ok") }
            return Response(
                status: .ok, headers: [.contentType: "application/json"],
                body: .init(byteBuffer: ByteBuffer(string: #"{"access_token":"\#(adminToken)","expires_in":3600,"token_type":"Bearer"}"#)))
        }
        return router
    }

    @Test("the assertion is exchanged once, the access token reused until 5 minutes before expires_in, then exchanged again")
    func exchangeAndCache() async throws {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("hearth-admin-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: directory) }
        let key = try _RSA.Signing.PrivateKey(keySize: .bits2048)
        let email = "backend@demo-hearth.iam.gserviceaccount.com"
        let exchanges = Exchanges()
        let endpoint = Application(router: Self.tokenEndpoint(key: key.publicKey, email: email, exchanges: exchanges))
        try await endpoint.test(.live) { tokenClient in
            let port = try #require(tokenClient.port)
            let file = try writeServiceAccount(key: key, email: email, tokenURI: "http://127.0.0.1:\(port)/token", in: directory)
            try await withLiveHearth({ $0.adminTokens = [Self.adminToken] }) { live in
                let ada = try await signUp(live, email: "ada@example.com")
                let clock = OffsetClock(live.clock)
                let admin = try makeAdmin(live, clock: clock, credential: .serviceAccount(file: file))
                // createSessionCookie is an admin route: it needs the exchanged token.
                _ = try await admin.createSessionCookie(idToken: ada.idToken, expiresIn: 3_600)
                _ = try await admin.createSessionCookie(idToken: ada.idToken, expiresIn: 3_600)
                #expect(exchanges.withLock { $0 } == ["ok"])
                clock.set(3_600 - 301)
                _ = try await admin.createSessionCookie(idToken: ada.idToken, expiresIn: 3_600)
                #expect(exchanges.withLock { $0 } == ["ok"])
                clock.set(3_600 - 299)
                _ = try await admin.createSessionCookie(idToken: ada.idToken, expiresIn: 3_600)
                #expect(exchanges.withLock { $0 } == ["ok", "ok"])
            }
        }
    }

    @Test("a refused exchange is auth/invalid-credential; the admin API refuses a made-up bearer with auth/insufficient-permission")
    func refused() async throws {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("hearth-admin-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: directory) }
        let key = try _RSA.Signing.PrivateKey(keySize: .bits2048)
        let other = try _RSA.Signing.PrivateKey(keySize: .bits2048)
        let exchanges = Exchanges()
        let endpoint = Application(router: Self.tokenEndpoint(key: other.publicKey, email: "a@b", exchanges: exchanges))
        try await endpoint.test(.live) { tokenClient in
            let port = try #require(tokenClient.port)
            let file = try writeServiceAccount(key: key, email: "a@b", tokenURI: "http://127.0.0.1:\(port)/token", in: directory)
            try await withLiveHearth { live in
                let ada = try await signUp(live, email: "ada@example.com")
                let admin = try makeAdmin(live, credential: .serviceAccount(file: file))
                #expect(await adminError { _ = try await admin.createSessionCookie(idToken: ada.idToken, expiresIn: 3_600) } == .invalidCredential)
                #expect(exchanges.withLock { $0 } == ["refused: invalid_grant"])
                let stranger = try makeAdmin(live, credential: .bearer("not-an-admin-token"))
                #expect(
                    await adminError { _ = try await stranger.createSessionCookie(idToken: ada.idToken, expiresIn: 3_600) } == .insufficientPermission
                )
            }
        }
    }
}

/// What the stand-in token endpoint saw, one entry per exchange.
final class Exchanges: Sendable {
    private let entries = Mutex<[String]>([])

    func withLock<T>(_ body: (inout [String]) -> T) -> T { entries.withLock { body(&$0) } }
}
