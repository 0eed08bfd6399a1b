import Foundation
import HearthBase64URL
import HearthWire
import NIOHTTP1

extension HearthAdmin {
    // MARK: Reading

    /// The user with this uid. Throws `auth/user-not-found`.
    public func user(uid: String) async throws -> UserRecord {
        guard !uid.isEmpty, uid.count <= 128 else { throw HearthAdminError(.invalidUID, "A uid has 1 to 128 characters.") }
        return try await lookupOne(["localId": .array([.string(uid)])], describing: "uid")
    }

    /// The user with this e-mail address. Throws `auth/user-not-found`.
    public func user(email: String) async throws -> UserRecord {
        guard !email.isEmpty else { throw HearthAdminError(.invalidEmail, "The e-mail address is empty.") }
        return try await lookupOne(["email": .array([.string(email)])], describing: "e-mail address")
    }

    /// The user with this phone number (E.164: `+` and 2 to 15 digits, the first not 0). Throws
    /// `auth/invalid-phone-number` for anything else, before any call, and `auth/user-not-found`.
    public func user(phoneNumber: String) async throws -> UserRecord {
        guard Self.isE164(phoneNumber) else {
            throw HearthAdminError(.invalidPhoneNumber, "The phone number must be a non-empty E.164 standard compliant identifier string.")
        }
        return try await lookupOne(["phoneNumber": .array([.string(phoneNumber)])], describing: "phone number")
    }

    /// The server's test of a phone number: `+`, then 2 to 15 ASCII digits, the first not 0.
    static func isE164(_ text: String) -> Bool {
        let digits = text.utf8.dropFirst()
        return text.utf8.first == UInt8(ascii: "+") && (2...15).contains(digits.count) && digits.first != UInt8(ascii: "0")
            && digits.allSatisfy { (UInt8(ascii: "0")...UInt8(ascii: "9")).contains($0) }
    }

    private func lookupOne(_ body: [String: ClaimValue], describing: String) async throws -> UserRecord {
        let response = try await call(projectPath("accounts:lookup"), body, as: LookupResponse.self)
        guard let info = response.users?.first else { throw HearthAdminError(.userNotFound, "No user has this \(describing).") }
        return UserRecord(info)
    }

    /// One page of users in uid order, at most `pageSize` (1…1000).
    public func listUsers(pageSize: Int = 1_000, pageToken: String? = nil) async throws -> UserPage {
        guard (1...1_000).contains(pageSize) else { throw HearthAdminError(.argumentError, "pageSize must be between 1 and 1000.") }
        var components = URLComponents()
        components.queryItems = [URLQueryItem(name: "maxResults", value: String(pageSize))]
        if let pageToken { components.queryItems?.append(URLQueryItem(name: "nextPageToken", value: pageToken)) }
        let query = (components.percentEncodedQuery ?? "").replacingOccurrences(of: "+", with: "%2B")
        let response = try await get(projectPath("accounts:batchGet") + "?" + query, as: BatchGetReply.self)
        let token = response.nextPageToken.flatMap { $0.isEmpty ? nil : $0 }
        return UserPage(users: (response.users ?? []).map(UserRecord.init), nextPageToken: token)
    }

    private struct BatchGetReply: Decodable {
        let users: [UserInfo]?
        let nextPageToken: String?
    }

    /// `GET` of an admin path that carries its own query.
    func get<Response: Decodable>(_ pathAndQuery: String, as: Response.Type) async throws -> Response {
        try await send(.GET, pathAndQuery, as: Response.self)
    }

    // MARK: Writing

    /// Creates a user and returns it as stored. Throws `auth/uid-already-exists`, `auth/email-already-exists`,
    /// `auth/phone-number-already-exists`, `auth/invalid-email`, `auth/invalid-password`, `auth/invalid-phone-number`
    /// (also for a second factor's number), and `auth/unsupported-second-factor` for a second factor that is not a
    /// phone factor, before any call.
    @discardableResult
    public func createUser(_ user: NewUser = NewUser()) async throws -> UserRecord {
        var body: [String: ClaimValue] = [:]
        body["localId"] = user.uid.map(ClaimValue.string)
        body["email"] = user.email.map(ClaimValue.string)
        body["emailVerified"] = user.emailVerified.map(ClaimValue.bool)
        body["password"] = user.password.map(ClaimValue.string)
        body["displayName"] = user.displayName.map(ClaimValue.string)
        body["photoUrl"] = user.photoURL.map(ClaimValue.string)
        body["phoneNumber"] = user.phoneNumber.map(ClaimValue.string)
        body["disabled"] = user.disabled.map(ClaimValue.bool)
        if let factors = user.multiFactor?.enrolledFactors, !factors.isEmpty {
            body["mfaInfo"] = .array(try factors.map { try Self.wire($0, allowingTOTP: false) })
        }
        let created = try await call(projectPath("accounts"), body, as: LocalIDReply.self)
        return try await self.user(uid: created.localId)
    }

    private struct LocalIDReply: Decodable {
        let localId: String
    }

    /// Changes a user and returns it as stored. `phoneNumber: .remove` unlinks the `phone` provider; `multiFactor`
    /// replaces the second factors (an empty list removes them). Throws `auth/user-not-found`,
    /// `auth/email-already-exists`, `auth/phone-number-already-exists`, `auth/invalid-phone-number` (also for a
    /// second factor's number), `auth/second-factor-uid-already-exists`, `auth/second-factor-limit-exceeded`,
    /// `auth/multi-factor-info-not-found` (a TOTP factor the user does not have), `auth/unsupported-second-factor`.
    @discardableResult
    public func updateUser(uid: String, _ update: UserUpdate) async throws -> UserRecord {
        var body: [String: ClaimValue] = ["localId": .string(uid)]
        var removed: [ClaimValue] = []
        body["email"] = update.email.map(ClaimValue.string)
        body["emailVerified"] = update.emailVerified.map(ClaimValue.bool)
        body["password"] = update.password.map(ClaimValue.string)
        body["disableUser"] = update.disabled.map(ClaimValue.bool)
        switch update.displayName {
        case .set(let name)?: body["displayName"] = .string(name)
        case .remove?: removed.append("DISPLAY_NAME")
        case nil: break
        }
        switch update.photoURL {
        case .set(let url)?: body["photoUrl"] = .string(url)
        case .remove?: removed.append("PHOTO_URL")
        case nil: break
        }
        switch update.phoneNumber {
        case .set(let number)?: body["phoneNumber"] = .string(number)
        case .remove?: body["deleteProvider"] = .array(["phone"])
        case nil: break
        }
        if !removed.isEmpty { body["deleteAttribute"] = .array(removed) }
        if let factors = update.multiFactor?.enrolledFactors {
            // No `enrollments` (not an empty list) removes them all, as firebase-admin sends it.
            body["mfa"] = .object(factors.isEmpty ? [:] : ["enrollments": .array(try factors.map { try Self.wire($0, allowingTOTP: true) })])
        }
        try await sendUpdate(body)
        return try await user(uid: uid)
    }

    /// Replaces the user's custom claims (at most 1000 characters of JSON, no reserved names); `nil` or an empty
    /// dictionary removes them. They reach the user's ID tokens on the next refresh.
    public func setCustomUserClaims(uid: String, claims: [String: ClaimValue]?) async throws {
        let claims = claims ?? [:]
        if let reserved = claims.keys.sorted().first(where: DecodedToken.reservedClaimNames.contains) {
            throw HearthAdminError(.reservedClaim, "\"\(reserved)\" is a reserved claim name.")
        }
        let text = String(decoding: try Self.encoder.encode(ClaimValue.object(claims)), as: UTF8.self)
        guard text.count <= 1_000 else { throw HearthAdminError(.claimsTooLarge, "Custom claims take at most 1000 characters of JSON.") }
        try await sendUpdate(["localId": .string(uid), "customAttributes": .string(text)])
    }

    /// Revokes the user's refresh tokens and every ID token and session cookie of an earlier sign-in: the
    /// server's `validSince` becomes now (in whole seconds).
    public func revokeRefreshTokens(uid: String) async throws {
        let seconds = Int64(clock().timeIntervalSince1970)
        try await sendUpdate(["localId": .string(uid), "validSince": .string(String(seconds))])
    }

    /// A second factor as the admin API takes it (`mfaInfo`, `mfa.enrollments`).
    static func wire(_ factor: MultiFactorInfoRequest, allowingTOTP: Bool) throws -> ClaimValue {
        var entry: [String: ClaimValue] = [:]
        entry["mfaEnrollmentId"] = factor.uid.map(ClaimValue.string)
        entry["displayName"] = factor.displayName.map(ClaimValue.string)
        entry["enrolledAt"] = factor.enrollmentTime.map { .string($0.formatted(Date.ISO8601FormatStyle(includingFractionalSeconds: true))) }
        switch factor.factorID {
        case "phone":
            guard let number = factor.phoneNumber else { throw HearthAdminError(.invalidPhoneNumber, "A phone second factor needs a phoneNumber.") }
            entry["phoneInfo"] = .string(number)
        case "totp" where allowingTOTP:
            guard factor.uid != nil else { throw HearthAdminError(.argumentError, "A TOTP second factor is kept by its uid.") }
            entry["totpInfo"] = .object([:])
        default:
            throw HearthAdminError(
                .unsupportedSecondFactor, "Unsupported second factor \"\(factor.factorID)\": an administrator gives phone factors only.")
        }
        return .object(entry)
    }

    private func sendUpdate(_ body: [String: ClaimValue]) async throws {
        _ = try await call(projectPath("accounts:update"), body, as: LocalIDReply.self)
    }

    /// Deletes a user. Throws `auth/user-not-found`.
    public func deleteUser(uid: String) async throws {
        _ = try await call(projectPath("accounts:delete"), ["localId": ClaimValue.string(uid)], as: ClaimValue.self)
    }

    /// Deletes up to 1000 users, disabled or not; uids without a user count as deleted.
    public func deleteUsers(_ uids: [String]) async throws -> BatchResult {
        guard uids.count <= 1_000 else { throw HearthAdminError(.maximumUserCountExceeded, "At most 1000 users at once.") }
        guard !uids.isEmpty else { return BatchResult(successCount: 0, errors: []) }
        let body: [String: ClaimValue] = ["localIds": .array(uids.map(ClaimValue.string)), "force": true]
        let reply = try await call(projectPath("accounts:batchDelete"), body, as: BatchReply.self)
        let errors = (reply.errors ?? []).map { BatchResult.Failure(index: $0.index, message: $0.message ?? "") }
        return BatchResult(successCount: uids.count - errors.count, errors: errors)
    }

    /// Imports up to 1000 users with their password hashes; the server stores the hashes and rehashes each
    /// password on the user's first sign-in. Failures come back by index; the other users are imported.
    public func importUsers(_ users: [ImportedUser], hash: PasswordHashOptions? = nil) async throws -> BatchResult {
        guard users.count <= 1_000 else { throw HearthAdminError(.maximumUserCountExceeded, "At most 1000 users at once.") }
        guard !users.isEmpty else { return BatchResult(successCount: 0, errors: []) }
        if users.contains(where: { $0.passwordHash != nil }), hash == nil {
            throw HearthAdminError(.argumentError, "Users with password hashes need the hash options.")
        }
        func base64(_ data: Data?) -> ClaimValue? { data.map { .string(Base64URL.encode($0)) } }
        var body: [String: ClaimValue] = [:]
        body["users"] = .array(
            try users.map { user in
                var entry: [String: ClaimValue] = ["localId": .string(user.uid)]
                entry["email"] = user.email.map(ClaimValue.string)
                entry["emailVerified"] = user.emailVerified.map(ClaimValue.bool)
                entry["displayName"] = user.displayName.map(ClaimValue.string)
                entry["photoUrl"] = user.photoURL.map(ClaimValue.string)
                entry["phoneNumber"] = user.phoneNumber.map(ClaimValue.string)
                entry["disabled"] = user.disabled.map(ClaimValue.bool)
                entry["passwordHash"] = base64(user.passwordHash)
                entry["salt"] = base64(user.passwordSalt)
                if let claims = user.customClaims {
                    entry["customAttributes"] = .string(String(decoding: try Self.encoder.encode(ClaimValue.object(claims)), as: UTF8.self))
                }
                if let factors = user.multiFactor?.enrolledFactors, !factors.isEmpty {
                    entry["mfaInfo"] = .array(try factors.map { try Self.wire($0, allowingTOTP: false) })
                }
                return .object(entry)
            })
        if let hash {
            body["hashAlgorithm"] = .string(hash.algorithm)
            body["signerKey"] = base64(hash.key)
            body["saltSeparator"] = base64(hash.saltSeparator)
            body["rounds"] = hash.rounds.map { .number(Double($0)) }
            // STANDARD_SCRYPT names its N `cpuMemCost`; Firebase's scrypt takes `memoryCost`.
            body[hash.algorithm == "STANDARD_SCRYPT" ? "cpuMemCost" : "memoryCost"] = hash.memoryCost.map { .number(Double($0)) }
            body["blockSize"] = hash.blockSize.map { .number(Double($0)) }
            body["parallelization"] = hash.parallelization.map { .number(Double($0)) }
            body["dkLen"] = hash.derivedKeyLength.map { .number(Double($0)) }
        }
        let reply = try await call(projectPath("accounts:batchCreate"), body, as: ImportReply.self)
        let errors = (reply.error ?? []).map { BatchResult.Failure(index: $0.index, message: $0.message ?? "") }
        return BatchResult(successCount: users.count - errors.count, errors: errors)
    }

    private struct BatchItemError: Decodable {
        let index: Int
        let message: String?
    }

    private struct BatchReply: Decodable {
        let errors: [BatchItemError]?
    }

    private struct ImportReply: Decodable {
        let error: [BatchItemError]?
    }

    // MARK: Session cookies

    /// A session cookie for a fresh ID token, valid for `expiresIn` seconds (five minutes to two weeks).
    /// Throws `auth/invalid-session-cookie-duration`, and the ID token's errors.
    public func createSessionCookie(idToken: String, expiresIn: TimeInterval) async throws -> String {
        guard (300...1_209_600).contains(expiresIn) else {
            throw HearthAdminError(.invalidSessionCookieDuration, "A session cookie lasts from 5 minutes to 2 weeks.")
        }
        let request = CreateSessionCookieRequest(idToken: idToken, validDuration: String(Int64(expiresIn)))
        return try await call("\(scopePath(version: "v1")):createSessionCookie", request, as: CreateSessionCookieResponse.self).sessionCookie
    }
}
