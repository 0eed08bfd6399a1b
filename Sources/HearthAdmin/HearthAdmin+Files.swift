import Foundation
import HearthBase64URL
import HearthWire
import NIOHTTP1

/// Users as the Firebase CLI's `auth:export` files hold them (``AuthExportFile``): what `hearth users export`
/// and `import` move, links, claims, times and password hashes included.
extension HearthAdmin {
    /// One page of users in uid order, at most `pageSize` (1…1000), each as an export file holds it. A password
    /// hash made by the server's own scrypt comes with its salt (import it with ``exportHashOptions``); any
    /// other (one imported and not yet redone at the user's sign-in) is left out.
    public func exportUsers(pageSize: Int = 1_000, pageToken: String? = nil) async throws -> (users: [ExportedUser], nextPageToken: String?) {
        guard (1...1_000).contains(pageSize) else { throw HearthAdminError(.argumentError, "pageSize must be between 1 and 1000.") }
        if tenantID != nil {
            // `downloadAccount` is the project's; a tenant's users come from its `accounts:batchGet`, the same page.
            var components = URLComponents()
            components.queryItems = [URLQueryItem(name: "maxResults", value: String(pageSize))]
            if let pageToken { components.queryItems?.append(URLQueryItem(name: "nextPageToken", value: pageToken)) }
            let query = (components.percentEncodedQuery ?? "").replacingOccurrences(of: "+", with: "%2B")
            let page = try await get(projectPath("accounts:batchGet") + "?" + query, as: BatchGetResponse.self)
            return ((page.users ?? []).map(ExportedUser.init), page.nextPageToken.flatMap { $0.isEmpty ? nil : $0 })
        }
        var request = DownloadAccountRequest(maxResults: WireInt32(Int32(pageSize)), nextPageToken: pageToken)
        request.targetProjectId = projectID
        let page = try await call("identitytoolkit/v3/relyingparty/downloadAccount", request, as: BatchGetResponse.self)
        return ((page.users ?? []).map(ExportedUser.init), page.nextPageToken.flatMap { $0.isEmpty ? nil : $0 })
    }

    /// The options that import the hashes ``exportUsers(pageSize:pageToken:)`` gives: the server's scrypt as
    /// `STANDARD_SCRYPT`, read from its project config.
    public func exportHashOptions() async throws -> PasswordHashOptions {
        let config = try await call("\(scopePath(version: "v2"))/config", EmptyBody(), as: ProjectConfig.self, method: .GET)
        guard let hash = config.signIn?.hashConfig, hash.algorithm == "STANDARD_SCRYPT", let logN = hash.memoryCost, (1...20).contains(logN) else {
            throw HearthAdminError(.internalError, "The server did not say how it hashes passwords.")
        }
        return PasswordHashOptions(
            algorithm: "STANDARD_SCRYPT", memoryCost: 1 << logN, blockSize: hash.rounds ?? 8, parallelization: 1, derivedKeyLength: 32)
    }

    private struct EmptyBody: Encodable {}

    /// Imports up to 1000 users of an export file. `hash` describes the file's password hashes (Firebase's
    /// `--hash-algo` and its parameters); users with a hash need it. Failures come back by index, the other
    /// users are imported.
    public func importUsers(
        _ users: [ExportedUser], hash: PasswordHashOptions?, passwordHashOrder: String? = nil
    ) async throws -> BatchResult {
        guard users.count <= 1_000 else { throw HearthAdminError(.maximumUserCountExceeded, "At most 1000 users at once.") }
        guard !users.isEmpty else { return BatchResult(successCount: 0, errors: []) }
        var request = BatchCreateRequest(users: users.map(\.userInfo), hashAlgorithm: hash?.algorithm)
        if let hash {
            request.signerKey = hash.key.map { Base64URL.encode($0) }
            request.saltSeparator = hash.saltSeparator.map { Base64URL.encode($0) }
            request.rounds = hash.rounds.map { WireInt32(Int32(clamping: $0)) }
            let memory = hash.memoryCost.map { WireInt32(Int32(clamping: $0)) }
            if hash.algorithm == "STANDARD_SCRYPT" { request.cpuMemCost = memory } else { request.memoryCost = memory }
            request.blockSize = hash.blockSize.map { WireInt32(Int32(clamping: $0)) }
            request.parallelization = hash.parallelization.map { WireInt32(Int32(clamping: $0)) }
            request.dkLen = hash.derivedKeyLength.map { WireInt32(Int32(clamping: $0)) }
        }
        request.passwordHashOrder = passwordHashOrder.map { WireEnum($0) }
        let reply = try await call(projectPath("accounts:batchCreate"), request, as: BatchCreateResponse.self)
        let errors = (reply.error ?? []).map { BatchResult.Failure(index: $0.index, message: $0.message) }
        return BatchResult(successCount: users.count - errors.count, errors: errors)
    }
}
