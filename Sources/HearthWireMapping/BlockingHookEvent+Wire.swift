import Foundation
import HearthCore

extension BlockingHookEvent {
    /// How long an event's JWT is valid.
    public static let lifetime: TimeInterval = 300

    /// The event's claims, as Identity Platform's blocking functions read them (the caller signs them into the JWT of
    /// `{"data":{"jwt":…}}`).
    /// - Parameters:
    ///   - uri: the hook's URL, the JWT's audience.
    ///   - issuer, projectID: the server's token issuer and project.
    public func claims(audience uri: String, settings: BlockingHookSettings, issuer: String, projectID: String, now: Date)
        -> [String: JSONValue]
    {
        let now = Int64(now.timeIntervalSince1970)
        let eventType = "providers/cloud.auth/eventTypes/user.\(kind.rawValue)"
        var claims: [String: JSONValue] = [
            "iss": .string(issuer), "aud": .string(uri), "iat": .number(Double(now)),
            "exp": .number(Double(now + Int64(Self.lifetime))), "event_id": .string(VerificationCode.makeHandle()),
            "event_type": .string(user == nil ? eventType : "\(eventType):\(signInMethod)"),
            "auth_type": .string("USER"), "resource": .string("projects/\(projectID)"),
        ]
        if let user {
            claims["sign_in_method"] = .string(signInMethod)
            claims["user_record"] = .object(Self.userRecord(user, tenantID: tenantID))
        }
        switch kind {
        case .beforeSendEmail:
            if let recipient { claims["email"] = .string(recipient) }
            if let type = messageType { claims["email_type"] = .string(type) }
        case .beforeSendSMS:
            if let recipient { claims["phone_number"] = .string(recipient) }
            if let type = messageType { claims["sms_type"] = .string(type) }
        case .beforeCreate, .beforeSignIn:
            break
        }
        if let address = origin.address { claims["ip_address"] = .string(address) }
        if let agent = origin.userAgent { claims["user_agent"] = .string(agent) }
        if let locale = origin.locale { claims["locale"] = .string(locale) }
        if let tenantID { claims["tenant_id"] = .string(tenantID) }
        if let tokens = providerTokens {
            if settings.forwardIDToken, let token = tokens.idToken { claims["oauth_id_token"] = .string(token) }
            if settings.forwardAccessToken, let token = tokens.accessToken { claims["oauth_access_token"] = .string(token) }
            if settings.forwardRefreshToken, let token = tokens.refreshToken { claims["oauth_refresh_token"] = .string(token) }
        }
        return claims
    }

    /// `user_record`: the account as the Admin SDKs' user record names its fields in an event (no password hash).
    static func userRecord(_ user: UserRecord, tenantID: String?) -> [String: JSONValue] {
        var record: [String: JSONValue] = ["uid": .string(user.uid), "disabled": .bool(user.disabled)]
        if let email = user.email {
            record["email"] = .string(email)
            record["email_verified"] = .bool(user.emailVerified)
        }
        if let value = user.displayName { record["display_name"] = .string(value) }
        if let value = user.photoURL { record["photo_url"] = .string(value) }
        if let value = user.phoneNumber { record["phone_number"] = .string(value) }
        var metadata: [String: JSONValue] = ["creation_time": .number(Double(Int64(user.createdAt.timeIntervalSince1970 * 1000)))]
        if let last = user.lastLoginAt { metadata["last_sign_in_time"] = .number(Double(Int64(last.timeIntervalSince1970 * 1000))) }
        record["metadata"] = .object(metadata)
        record["provider_data"] = .array(
            user.providers.map { link in
                var entry: [String: JSONValue] = ["provider_id": .string(link.providerID), "uid": .string(link.rawID)]
                if let value = link.email { entry["email"] = .string(value) }
                if let value = link.displayName { entry["display_name"] = .string(value) }
                if let value = link.photoURL { entry["photo_url"] = .string(value) }
                if let value = link.phoneNumber { entry["phone_number"] = .string(value) }
                return .object(entry)
            })
        if let claims = user.customAttributes.flatMap(JSONValue.object(fromJSON:)) { record["custom_claims"] = .object(claims) }
        record["tokens_valid_after_time"] = .number(Double(Int64(user.validSince.timeIntervalSince1970)))
        if let tenantID { record["tenant_id"] = .string(tenantID) }
        return record
    }

}

extension BlockingHookChanges {
    /// The hook's answer read: `{}` or `{"userRecord": {…}}`; only the fields `updateMask` names are taken.
    public init(answer text: String) throws {
        let unreadable = Self.failure("((The blocking function's answer is not a blocking function's answer.))", reason: "hook answer unreadable")
        guard let answer = JSONValue.object(fromJSON: text.isEmpty ? "{}" : text) else { throw unreadable }
        self.init()
        guard let recordValue = answer["userRecord"], recordValue != .null else { return }
        guard case .object(let record) = recordValue else { throw unreadable }
        let mask: [String]
        switch record["updateMask"] {
        case .string(let text)?: mask = text.split(separator: ",").map { $0.trimmingCharacters(in: .whitespaces) }
        case nil, .null?: mask = []
        default: throw unreadable
        }
        for field in mask {
            switch (field, record[field]) {
            case ("displayName", .string(let value)?): self.displayName = .some(try Self.storable(value, limit: 256))
            case ("displayName", nil), ("displayName", .null?): self.displayName = .some(nil)
            case ("photoUrl", .string(let value)?): self.photoURL = .some(try Self.storable(value, limit: 2_048))
            case ("photoUrl", nil), ("photoUrl", .null?): self.photoURL = .some(nil)
            case ("disabled", .bool(let value)?): self.disabled = value
            case ("emailVerified", .bool(let value)?): self.emailVerified = value
            case ("customClaims", .object(let claims)?): self.customClaims = try Self.checkedClaims(claims)
            case ("customClaims", nil), ("customClaims", .null?): self.customClaims = [:]
            case ("sessionClaims", .object(let claims)?): self.sessionClaims = try Self.checkedClaims(claims)
            case ("sessionClaims", nil), ("sessionClaims", .null?): self.sessionClaims = [:]
            default: throw Self.failure("((The blocking function's answer sets \(field.prefix(64)) wrongly.))", reason: "bad field in hook answer")
            }
        }
    }

    /// Claims an ID token can carry: at most 1,000 bytes, no reserved name.
    static func checkedClaims(_ claims: [String: JSONValue]) throws -> [String: JSONValue] {
        guard JSONValue.object(claims).jsonText.utf8.count <= CustomClaims.maxBytes else {
            throw Self.failure("((The blocking function's claims are larger than 1000 bytes.))", reason: "hook claims too large")
        }
        if let reserved = claims.keys.sorted().first(where: CustomClaims.reservedNames.contains) {
            throw Self.failure("((The blocking function's claims name the reserved claim \(reserved).))", reason: "hook claims reserved")
        }
        return claims
    }

    static func storable(_ value: String, limit: Int) throws -> String {
        guard value.utf8.count <= limit, UserText.isStorable(value) else {
            throw Self.failure("((The blocking function's answer holds a text Hearth cannot store.))", reason: "hook text refused")
        }
        return value
    }

    /// The hook's own words: `error.message` of Google's error shape, else the start of its answer; printable, short.
    public static func message(in text: String) -> String {
        var message = text
        if case .object(let error)? = JSONValue.object(fromJSON: text)?["error"], case .string(let text)? = error["message"] {
            message = text
        }
        let printable = String(String.UnicodeScalarView(message.unicodeScalars.filter { $0.value >= 0x20 && $0.value != 0x7F }))
        return String(printable.prefix(500))
    }

    public static func failure(_ detail: String, reason: String) -> HearthError {
        HearthError(.blockingFunctionError, detail: detail, reason: reason)
    }
}
