import AsyncHTTPClient
import Foundation
import HearthConfiguration
import HearthCore
import HearthTokens
import HearthWireMapping
import NIOCore
import NIOHTTP1

/// The blocking hooks as Identity Platform calls its blocking functions: `POST functionUri` with
/// `{"data":{"jwt":…}}`, the event signed by Hearth's token keys (a hook checks it at the published JWKS, as an ID
/// token), Firebase's 7-second time-out, no redirect followed, at most ``maximumAnswerBytes`` read back.
///
/// A hook's answer `{"userRecord": {"updateMask": "…", …}}` becomes ``BlockingHookChanges``; an answer other than 200
/// blocks the sign-in with `BLOCKING_FUNCTION_ERROR_RESPONSE` carrying the hook's `error.message`, as do a time-out, a
/// redirect, an oversized or unreadable answer and claims a token could not carry.
struct HTTPBlockingHooks: BlockingHookCalling {
    /// Firebase's limit: a hook answers within 7 seconds or the sign-in fails.
    static let timeout: TimeAmount = .seconds(7)
    /// The largest answer read.
    static let maximumAnswerBytes = 64 * 1024
    /// How long an event's JWT is valid.
    static let eventLifetime: TimeInterval = 300

    /// One client for every hook, following no redirect: a hook's URL is the operator's, and a redirect could send
    /// the person's data anywhere. It lives as long as the process (as the composition's client does).
    static let client = HTTPClient(
        eventLoopGroupProvider: .singleton, configuration: HTTPClient.Configuration(redirectConfiguration: .disallow))

    let tokens: TokenService
    let configuration: ServerConfiguration
    let clock: WallClock

    init(services: HearthServices) {
        tokens = services.tokens
        configuration = services.configuration
        clock = services.clock
    }

    func call(_ uri: String, event: BlockingHookEvent, settings: BlockingHookSettings) async throws -> BlockingHookChanges {
        // Checked again at each call: a setting stored by an older version, or by hand, goes nowhere else either.
        guard BlockingHookSettings.isAllowedURI(uri, development: configuration.mode == .development) else {
            throw Self.failure("((The blocking function's URI is not an allowed HTTPS URL.))", reason: "hook URI refused at call time")
        }
        let jwt = try await tokens.signJWT(payload(uri, event: event, settings: settings))
        var request = HTTPClientRequest(url: uri)
        request.method = .POST
        request.headers.add(name: "Content-Type", value: "application/json")
        request.headers.add(name: "User-Agent", value: "Hearth/\(HearthVersion.current) blocking-hook")
        request.body = .bytes(ByteBuffer(bytes: Data(JSONValue.object(["data": .object(["jwt": .string(jwt)])]).jsonText.utf8)))
        let status: HTTPResponseStatus
        let body: ByteBuffer
        do {
            let response = try await Self.client.execute(request, timeout: Self.timeout)
            status = response.status
            body = try await response.body.collect(upTo: Self.maximumAnswerBytes)
        } catch let error as HTTPClientError where error == .deadlineExceeded || error == .readTimeout || error == .connectTimeout {
            throw Self.failure("((The blocking function did not answer within 7 seconds.))", reason: "hook timed out")
        } catch is NIOTooManyBytesError {
            throw Self.failure("((The blocking function's answer is larger than 64 KiB.))", reason: "hook answer too large")
        } catch let error as HearthError {
            throw error
        } catch {
            throw Self.failure("((HTTP request to \(uri) failed.))", reason: "hook unreachable: \(error)")
        }
        let text = String(decoding: body.readableBytesView, as: UTF8.self)
        guard status == .ok else {
            throw Self.failure("((HTTP request to \(uri) returned HTTP error \(status.code): \(Self.message(in: text))))", reason: "hook refused")
        }
        guard event.kind == .beforeCreate || event.kind == .beforeSignIn else {
            // A message's hook may only let it go or stop it.
            if case .string("BLOCK")? = JSONValue.object(fromJSON: text.isEmpty ? "{}" : text)?["recaptchaActionOverride"] {
                throw Self.failure("((The blocking function stopped the message.))", reason: "hook blocked a message")
            }
            return .none
        }
        return try Self.changes(from: text)
    }

    /// The event's claims, as Identity Platform's blocking functions read them.
    func payload(_ uri: String, event: BlockingHookEvent, settings: BlockingHookSettings) -> [String: JSONValue] {
        let now = Int64(clock.now.timeIntervalSince1970)
        let eventType = "providers/cloud.auth/eventTypes/user.\(event.kind.rawValue)"
        var claims: [String: JSONValue] = [
            "iss": .string(configuration.resolvedIssuer), "aud": .string(uri), "iat": .number(Double(now)),
            "exp": .number(Double(now + Int64(Self.eventLifetime))), "event_id": .string(VerificationCode.makeHandle()),
            "event_type": .string(event.user == nil ? eventType : "\(eventType):\(event.signInMethod)"),
            "auth_type": .string("USER"), "resource": .string("projects/\(configuration.projectID)"),
        ]
        if let user = event.user {
            claims["sign_in_method"] = .string(event.signInMethod)
            claims["user_record"] = .object(Self.userRecord(user, tenantID: event.tenantID))
        }
        switch event.kind {
        case .beforeSendEmail:
            if let recipient = event.recipient { claims["email"] = .string(recipient) }
            if let type = event.messageType { claims["email_type"] = .string(type) }
        case .beforeSendSMS:
            if let recipient = event.recipient { claims["phone_number"] = .string(recipient) }
            if let type = event.messageType { claims["sms_type"] = .string(type) }
        case .beforeCreate, .beforeSignIn:
            break
        }
        if let address = event.origin.address { claims["ip_address"] = .string(address) }
        if let agent = event.origin.userAgent { claims["user_agent"] = .string(agent) }
        if let locale = event.origin.locale { claims["locale"] = .string(locale) }
        if let tenantID = event.tenantID { claims["tenant_id"] = .string(tenantID) }
        if let tokens = event.providerTokens {
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

    /// The hook's answer read: `{}` or `{"userRecord": {…}}`; only the fields `updateMask` names are taken.
    static func changes(from text: String) throws -> BlockingHookChanges {
        let unreadable = failure("((The blocking function's answer is not a blocking function's answer.))", reason: "hook answer unreadable")
        guard let answer = JSONValue.object(fromJSON: text.isEmpty ? "{}" : text) else { throw unreadable }
        guard let recordValue = answer["userRecord"], recordValue != .null else { return .none }
        guard case .object(let record) = recordValue else { throw unreadable }
        let mask: [String]
        switch record["updateMask"] {
        case .string(let text)?: mask = text.split(separator: ",").map { $0.trimmingCharacters(in: .whitespaces) }
        case nil, .null?: mask = []
        default: throw unreadable
        }
        var changes = BlockingHookChanges()
        for field in mask {
            switch (field, record[field]) {
            case ("displayName", .string(let value)?): changes.displayName = .some(try storable(value, limit: 256))
            case ("displayName", nil), ("displayName", .null?): changes.displayName = .some(nil)
            case ("photoUrl", .string(let value)?): changes.photoURL = .some(try storable(value, limit: 2_048))
            case ("photoUrl", nil), ("photoUrl", .null?): changes.photoURL = .some(nil)
            case ("disabled", .bool(let value)?): changes.disabled = value
            case ("emailVerified", .bool(let value)?): changes.emailVerified = value
            case ("customClaims", .object(let claims)?): changes.customClaims = try checkedClaims(claims)
            case ("customClaims", nil), ("customClaims", .null?): changes.customClaims = [:]
            case ("sessionClaims", .object(let claims)?): changes.sessionClaims = try checkedClaims(claims)
            case ("sessionClaims", nil), ("sessionClaims", .null?): changes.sessionClaims = [:]
            default: throw failure("((The blocking function's answer sets \(field.prefix(64)) wrongly.))", reason: "bad field in hook answer")
            }
        }
        return changes
    }

    /// Claims an ID token can carry: at most 1,000 bytes, no reserved name.
    static func checkedClaims(_ claims: [String: JSONValue]) throws -> [String: JSONValue] {
        guard JSONValue.object(claims).jsonText.utf8.count <= CustomClaims.maxBytes else {
            throw failure("((The blocking function's claims are larger than 1000 bytes.))", reason: "hook claims too large")
        }
        if let reserved = claims.keys.sorted().first(where: CustomClaims.reservedNames.contains) {
            throw failure("((The blocking function's claims name the reserved claim \(reserved).))", reason: "hook claims reserved")
        }
        return claims
    }

    static func storable(_ value: String, limit: Int) throws -> String {
        guard value.utf8.count <= limit, UserText.isStorable(value) else {
            throw failure("((The blocking function's answer holds a text Hearth cannot store.))", reason: "hook text refused")
        }
        return value
    }

    /// The hook's own words: `error.message` of Google's error shape, else the start of its answer; printable, short.
    static func message(in text: String) -> String {
        var message = text
        if case .object(let error)? = JSONValue.object(fromJSON: text)?["error"], case .string(let text)? = error["message"] {
            message = text
        }
        let printable = String(String.UnicodeScalarView(message.unicodeScalars.filter { $0.value >= 0x20 && $0.value != 0x7F }))
        return String(printable.prefix(500))
    }

    static func failure(_ detail: String, reason: String) -> HearthError {
        HearthError(.blockingFunctionError, detail: detail, reason: reason)
    }
}
