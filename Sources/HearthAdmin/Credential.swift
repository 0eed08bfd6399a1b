import Crypto
import CryptoExtras
import Foundation
import NIOHTTP1

/// How ``HearthAdmin`` proves to the server that it is an administrator.
public enum Credential: Sendable {
    /// Development mode's `Authorization: Bearer owner`, as the Firebase Admin SDKs send to an emulator.
    /// Custom tokens are then unsigned (`alg: none`), which only development mode accepts.
    case emulatorOwner
    /// A static administrator token, one of the server's `admin.tokens`.
    case bearer(String)
    /// A service-account key file in Google's JSON format (`private_key`, `client_email`, `private_key_id`,
    /// `token_uri`), as `hearth admin create-key` writes: exchanged for short-lived access tokens at
    /// `token_uri`, and the key that signs custom tokens.
    case serviceAccount(file: URL)
}

/// A service account's key, read from Google's JSON key file.
struct ServiceAccountKey: Sendable {
    let clientEmail: String
    let privateKeyID: String?
    let privateKey: _RSA.Signing.PrivateKey
    let tokenURI: URL

    private struct File: Decodable {
        let type: String?
        let private_key: String?
        let private_key_id: String?
        let client_email: String?
        let token_uri: String?
    }

    init(file: URL) throws {
        let data: Data
        do {
            data = try Data(contentsOf: file)
        } catch {
            throw HearthAdminError(.invalidCredential, "The service-account file \(file.path) cannot be read.")
        }
        try self.init(json: data, source: file.path)
    }

    init(json data: Data, source: String) throws {
        guard let file = try? JSONDecoder().decode(File.self, from: data) else {
            throw HearthAdminError(.invalidCredential, "\(source) is not a service-account JSON key file.")
        }
        if let type = file.type, type != "service_account" {
            throw HearthAdminError(.invalidCredential, "\(source) has type \"\(type)\", expected \"service_account\".")
        }
        guard let email = file.client_email, !email.isEmpty else {
            throw HearthAdminError(.invalidCredential, "\(source) has no client_email.")
        }
        guard let pem = file.private_key, let key = try? _RSA.Signing.PrivateKey(pemRepresentation: pem) else {
            throw HearthAdminError(.invalidCredential, "\(source) has no readable RSA private_key.")
        }
        guard let uri = file.token_uri, let tokenURI = URL(string: uri), tokenURI.scheme == "https" || tokenURI.scheme == "http" else {
            throw HearthAdminError(.invalidCredential, "\(source) has no token_uri.")
        }
        clientEmail = email
        privateKeyID = file.private_key_id
        privateKey = key
        self.tokenURI = tokenURI
    }

    /// An RS256 JWT signed with this key; `kid` is the key's id when the file names one.
    func sign(_ payload: [String: ClaimValue]) throws -> String {
        var header: [String: ClaimValue] = ["alg": "RS256", "typ": "JWT"]
        if let privateKeyID { header["kid"] = .string(privateKeyID) }
        return try CompactJWT.encode(header: header, payload: payload) { input in
            try privateKey.signature(for: SHA256.hash(data: input), padding: .insecurePKCS1v1_5).rawRepresentation
        }
    }
}

/// Access tokens for a service account (RFC 7523's JWT-bearer grant at the key file's `token_uri`), kept until
/// shortly before they expire. Concurrent callers share one exchange.
actor AccessTokenSource {
    /// How long before its expiry a token is replaced.
    static let renewalMargin: TimeInterval = 300
    static let scope = "https://www.googleapis.com/auth/cloud-platform https://www.googleapis.com/auth/identitytoolkit"

    private let key: ServiceAccountKey
    private let http: AdminHTTP
    private let clock: @Sendable () -> Date
    private var current: (token: String, expiresAt: Date)?
    private var exchanging: Task<(String, Date), any Error>?

    init(key: ServiceAccountKey, http: AdminHTTP, clock: @escaping @Sendable () -> Date) {
        self.key = key
        self.http = http
        self.clock = clock
    }

    func token() async throws -> String {
        if let current, clock() < current.expiresAt.addingTimeInterval(-Self.renewalMargin) { return current.token }
        if let exchanging { return try await exchanging.value.0 }
        let task = Task { try await self.exchange() }
        exchanging = task
        defer { exchanging = nil }
        let (token, expiresAt) = try await task.value
        current = (token, expiresAt)
        return token
    }

    private struct TokenReply: Decodable {
        let access_token: String?
        let expires_in: ClaimValue?
        let error: String?
        let error_description: String?
    }

    private func exchange() async throws -> (String, Date) {
        let now = clock()
        let issuedAt = Double(Int64(now.timeIntervalSince1970))
        let assertion = try key.sign([
            "iss": .string(key.clientEmail), "sub": .string(key.clientEmail), "aud": .string(key.tokenURI.absoluteString),
            "scope": .string(Self.scope), "iat": .number(issuedAt), "exp": .number(issuedAt + 3_600),
        ])
        var form = URLComponents()
        form.queryItems = [
            URLQueryItem(name: "grant_type", value: "urn:ietf:params:oauth:grant-type:jwt-bearer"),
            URLQueryItem(name: "assertion", value: assertion),
        ]
        // URLComponents leaves `+` alone, which a form would read as a space.
        let body = (form.percentEncodedQuery ?? "").replacingOccurrences(of: "+", with: "%2B")
        let reply = try await http.send(
            .POST, key.tokenURI, headers: [("Content-Type", "application/x-www-form-urlencoded")], body: Data(body.utf8))
        let decoded = try? JSONDecoder().decode(TokenReply.self, from: reply.body)
        guard reply.status == 200, let token = decoded?.access_token, !token.isEmpty else {
            let reason = decoded?.error.map { ": \($0)" } ?? ""
            throw HearthAdminError(
                .invalidCredential,
                "The token endpoint \(AdminHTTP.redacted(key.tokenURI)) refused the service account (HTTP \(reply.status)\(reason)).")
        }
        let lifetime: TimeInterval
        switch decoded?.expires_in {
        case .number(let seconds)?: lifetime = seconds
        case .string(let text)?: lifetime = TimeInterval(text) ?? 3_600
        default: lifetime = 3_600
        }
        return (token, now.addingTimeInterval(lifetime))
    }
}
