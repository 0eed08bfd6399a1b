import AsyncHTTPClient
import Crypto
import CryptoExtras
import Foundation
import HearthWire
import NIOHTTP1

/// The Swift backend SDK of a Hearth project: verifies ID tokens and session cookies, mints custom tokens and
/// manages users over the admin API, as the Firebase Admin SDKs do.
///
/// ```swift
/// let admin = try HearthAdmin(projectID: "my-project", server: URL(string: "https://auth.example.com")!,
///                             credential: .serviceAccount(file: URL(fileURLWithPath: "hearth-admin.json")))
/// let token = try await admin.verifyIDToken(bearer, checkRevoked: true)
/// // token.uid decides what the caller may read.
/// ```
///
/// One instance is meant to live as long as the backend: it caches the server's public keys (for their
/// `Cache-Control: max-age`) and a service account's access token.
public final class HearthAdmin: Sendable {
    public let projectID: String
    /// The Hearth server: its admin API and its public keys.
    public let server: URL
    /// How far the token's times may be off the local clock, in seconds (issued "in the future", expired just now).
    public let clockSkew: TimeInterval
    /// The tenant whose users this instance manages and whose tokens it verifies (from
    /// ``TenantManager/auth(forTenant:)``, firebase-admin's `TenantAwareAuth.tenantId`); `nil`: the project's own.
    public let tenantID: String?

    let credential: Credential
    let serviceAccount: ServiceAccountKey?
    let accessTokens: AccessTokenSource?
    let http: AdminHTTP
    let clock: @Sendable () -> Date
    let idTokenKeys: PublicKeyCache
    let sessionCookieKeys: PublicKeyCache
    let idTokenIssuer: String

    /// - Parameters:
    ///   - server: the server's base URL, e.g. `https://auth.example.com` or `http://127.0.0.1:9099`.
    ///   - idTokenIssuer: the `iss` of the server's ID tokens when it is configured with its own `issuer`;
    ///     Firebase's `https://securetoken.google.com/<project>` by default.
    ///   - clock: the time tokens are checked against.
    ///   - httpClient: the client for every call; the shared one by default.
    /// - Throws: ``HearthAdminError/Code/invalidCredential`` for a service-account file that cannot be read.
    public init(
        projectID: String, server: URL, credential: Credential, idTokenIssuer: String? = nil, clockSkew: TimeInterval = 60,
        clock: @escaping @Sendable () -> Date = { Date() }, httpClient: HTTPClient = .shared, timeout: TimeInterval = 30
    ) throws {
        guard !projectID.isEmpty else { throw HearthAdminError(.argumentError, "The project ID must not be empty.") }
        self.projectID = projectID
        var base = server.absoluteString
        while base.hasSuffix("/") { base.removeLast() }
        guard let normalized = URL(string: base), normalized.scheme == "http" || normalized.scheme == "https" else {
            throw HearthAdminError(.argumentError, "The server URL must be http or https.")
        }
        self.server = normalized
        self.tenantID = nil
        self.credential = credential
        self.clockSkew = max(0, clockSkew)
        self.clock = clock
        self.idTokenIssuer = idTokenIssuer ?? "https://securetoken.google.com/\(projectID)"
        let http = AdminHTTP(client: httpClient, timeout: timeout)
        self.http = http
        if case .serviceAccount(let file) = credential {
            let key = try ServiceAccountKey(file: file)
            serviceAccount = key
            accessTokens = AccessTokenSource(key: key, http: http, clock: clock)
        } else {
            serviceAccount = nil
            accessTokens = nil
        }
        idTokenKeys = PublicKeyCache(
            url: normalized.appendingPathComponent("www.googleapis.com/robot/v1/metadata/x509/securetoken@system.gserviceaccount.com"),
            http: http, clock: clock)
        sessionCookieKeys = PublicKeyCache(
            url: normalized.appendingPathComponent("identitytoolkit/v3/relyingparty/publicKeys"), http: http, clock: clock)
    }

    /// `base` working in `tenantID`: the same server, credential, key caches and access tokens.
    init(scoping base: HearthAdmin, toTenant tenantID: String) {
        projectID = base.projectID
        server = base.server
        clockSkew = base.clockSkew
        self.tenantID = tenantID
        credential = base.credential
        serviceAccount = base.serviceAccount
        accessTokens = base.accessTokens
        http = base.http
        clock = base.clock
        idTokenKeys = base.idTokenKeys
        sessionCookieKeys = base.sessionCookieKeys
        idTokenIssuer = base.idTokenIssuer
    }

    // MARK: The admin API

    /// `Authorization: Bearer …` for the admin API.
    func authorization() async throws -> String {
        switch credential {
        case .emulatorOwner: return "Bearer owner"
        case .bearer(let token): return "Bearer \(token)"
        case .serviceAccount:
            guard let accessTokens else { throw HearthAdminError(.invalidCredential, "No service account is loaded.") }
            return "Bearer \(try await accessTokens.token())"
        }
    }

    /// The encoder of request bodies: no escaped slashes, as the server writes.
    static let encoder: JSONEncoder = {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.withoutEscapingSlashes]
        return encoder
    }()

    /// `POST`s `body` to `path` (under the server's URL) as an administrator and decodes the answer; a Google
    /// error envelope becomes a ``HearthAdminError`` with the matching Admin SDK code.
    func call<Response: Decodable>(_ path: String, _ body: some Encodable, as: Response.Type, method: HTTPMethod = .POST) async throws -> Response {
        let url = server.appendingPathComponent(path)
        let data = try Self.encoder.encode(body)
        let reply = try await http.send(
            method, url, headers: [("Authorization", try await authorization()), ("Content-Type", "application/json")],
            body: method == .GET ? nil : data)
        guard (200..<300).contains(reply.status) else { throw Self.error(from: reply) }
        do {
            return try JSONDecoder().decode(Response.self, from: reply.body)
        } catch {
            throw HearthAdminError(.internalError, "The server's answer to \(path) could not be read.")
        }
    }

    /// The path of a project-scoped admin route, `v1/projects/<project>/<rest>`, or in this instance's tenant
    /// `v1/projects/<project>/tenants/<tenant>/<rest>`.
    func projectPath(_ rest: String) -> String { "\(scopePath(version: "v1"))/\(rest)" }

    /// `<version>/projects/<project>`, or in this instance's tenant `<version>/projects/<project>/tenants/<tenant>`.
    func scopePath(version: String) -> String {
        "\(version)/projects/\(projectID)" + (tenantID.map { "/tenants/\($0)" } ?? "")
    }

    /// Sends `body` (none for `GET` and `DELETE`) to `pathAndQuery` (under the server's URL, its query already encoded)
    /// as an administrator and decodes the answer, as ``call(_:_:as:method:)`` does.
    func send<Response: Decodable>(_ method: HTTPMethod, _ pathAndQuery: String, body: Data? = nil, as: Response.Type) async throws -> Response {
        guard let url = URL(string: server.absoluteString + "/" + pathAndQuery) else {
            throw HearthAdminError(.argumentError, "The request could not be formed.")
        }
        var headers = [("Authorization", try await authorization())]
        if body != nil { headers.append(("Content-Type", "application/json")) }
        let reply = try await http.send(method, url, headers: headers, body: body)
        guard (200..<300).contains(reply.status) else { throw Self.error(from: reply) }
        guard let decoded = try? JSONDecoder().decode(Response.self, from: reply.body) else {
            throw HearthAdminError(.internalError, "The server's answer could not be read.")
        }
        return decoded
    }

    static func error(from reply: AdminHTTP.Reply) -> HearthAdminError {
        guard let envelope = try? JSONDecoder().decode(WireErrorResponse.self, from: reply.body) else {
            return HearthAdminError(.internalError, "The server answered HTTP \(reply.status).")
        }
        let message = envelope.error.message
        if reply.status == 401 || reply.status == 403 {
            return HearthAdminError(.insufficientPermission, "The server refused the credential: \(message)", serverMessage: message)
        }
        // Google's INVALID_ARGUMENT (a bad query parameter or body) carries prose, not a code, in its message.
        if envelope.error.status == "INVALID_ARGUMENT" { return HearthAdminError(.argumentError, message, serverMessage: message) }
        return HearthAdminError(code(forServerMessage: message), message, serverMessage: message)
    }

    private static func code(forServerMessage message: String) -> HearthAdminError.Code {
        HearthAdminError.code(forServerMessage: message)
    }
}
