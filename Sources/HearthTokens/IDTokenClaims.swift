import Foundation
import HearthCore
import JWTKit

/// The payload of a Firebase ID token. Developer claims sit at the top level beside the reserved ones.
public struct IDTokenClaims: JWTPayload, Equatable {
    public struct Firebase: Codable, Sendable, Equatable {
        public var identities: [String: [String]]
        public var signInProvider: String
        public var tenant: String?
        /// `phone`, `totp` (or Hearth's `recovery_code`) once the sign-in passed a second factor.
        public var signInSecondFactor: String?
        /// The enrolment id of that factor.
        public var secondFactorIdentifier: String?
        /// A SAML sign-in's assertion attributes.
        public var signInAttributes: [String: JSONValue]?

        enum CodingKeys: String, CodingKey {
            case identities
            case signInProvider = "sign_in_provider"
            case tenant
            case signInSecondFactor = "sign_in_second_factor"
            case secondFactorIdentifier = "second_factor_identifier"
            case signInAttributes = "sign_in_attributes"
        }

        public init(
            identities: [String: [String]], signInProvider: String, tenant: String? = nil, signInSecondFactor: String? = nil,
            secondFactorIdentifier: String? = nil, signInAttributes: [String: JSONValue]? = nil
        ) {
            self.signInAttributes = signInAttributes
            self.identities = identities
            self.signInProvider = signInProvider
            self.tenant = tenant
            self.signInSecondFactor = signInSecondFactor
            self.secondFactorIdentifier = secondFactorIdentifier
        }

        /// The second factor the claims name.
        public var secondFactor: SecondFactorUse? {
            guard let signInSecondFactor, let kind = SecondFactorKind(rawValue: signInSecondFactor), let secondFactorIdentifier else { return nil }
            return SecondFactorUse(kind: kind, enrollmentID: secondFactorIdentifier)
        }
    }

    public var issuer: String
    public var audience: String
    public var authTime: Int64
    public var userID: String
    public var subject: String
    public var issuedAt: Int64
    public var expiresAt: Int64
    public var email: String?
    public var emailVerified: Bool?
    public var phoneNumber: String?
    public var name: String?
    public var picture: String?
    /// Only `"anonymous"`, only for anonymous users.
    public var providerID: String?
    public var firebase: Firebase
    /// Developer claims (account custom attributes and custom-token claims).
    public var custom: [String: JSONValue]

    /// Claim names a developer can never set.
    public static let reservedNames = CustomClaims.reservedNames

    public init(
        issuer: String, audience: String, authTime: Int64, userID: String, issuedAt: Int64, expiresAt: Int64,
        email: String? = nil, emailVerified: Bool? = nil, phoneNumber: String? = nil, name: String? = nil,
        picture: String? = nil, providerID: String? = nil, firebase: Firebase, custom: [String: JSONValue] = [:]
    ) {
        self.issuer = issuer
        self.audience = audience
        self.authTime = authTime
        self.userID = userID
        self.subject = userID
        self.issuedAt = issuedAt
        self.expiresAt = expiresAt
        self.email = email
        self.emailVerified = emailVerified
        self.phoneNumber = phoneNumber
        self.name = name
        self.picture = picture
        self.providerID = providerID
        self.firebase = firebase
        self.custom = custom
    }

    private struct Key: CodingKey {
        var stringValue: String
        var intValue: Int? { nil }
        init(_ string: String) { stringValue = string }
        init?(stringValue: String) { self.stringValue = stringValue }
        init?(intValue: Int) { nil }
    }

    public init(from decoder: any Decoder) throws {
        let c = try decoder.container(keyedBy: Key.self)
        issuer = try c.decode(String.self, forKey: Key("iss"))
        audience = try c.decode(String.self, forKey: Key("aud"))
        authTime = try c.decode(Int64.self, forKey: Key("auth_time"))
        subject = try c.decode(String.self, forKey: Key("sub"))
        userID = try c.decodeIfPresent(String.self, forKey: Key("user_id")) ?? subject
        issuedAt = try c.decode(Int64.self, forKey: Key("iat"))
        expiresAt = try c.decode(Int64.self, forKey: Key("exp"))
        email = try c.decodeIfPresent(String.self, forKey: Key("email"))
        emailVerified = try c.decodeIfPresent(Bool.self, forKey: Key("email_verified"))
        phoneNumber = try c.decodeIfPresent(String.self, forKey: Key("phone_number"))
        name = try c.decodeIfPresent(String.self, forKey: Key("name"))
        picture = try c.decodeIfPresent(String.self, forKey: Key("picture"))
        providerID = try c.decodeIfPresent(String.self, forKey: Key("provider_id"))
        firebase = try c.decode(Firebase.self, forKey: Key("firebase"))
        var custom: [String: JSONValue] = [:]
        for key in c.allKeys where !Self.reservedNames.contains(key.stringValue) {
            custom[key.stringValue] = try c.decode(JSONValue.self, forKey: key)
        }
        self.custom = custom
    }

    public func encode(to encoder: any Encoder) throws {
        var c = encoder.container(keyedBy: Key.self)
        // Developer claims first; reserved names can never be overridden by them.
        for (name, value) in custom where !Self.reservedNames.contains(name) {
            try c.encode(value, forKey: Key(name))
        }
        try c.encodeIfPresent(name, forKey: Key("name"))
        try c.encodeIfPresent(picture, forKey: Key("picture"))
        try c.encodeIfPresent(providerID, forKey: Key("provider_id"))
        try c.encode(issuer, forKey: Key("iss"))
        try c.encode(audience, forKey: Key("aud"))
        try c.encode(authTime, forKey: Key("auth_time"))
        try c.encode(userID, forKey: Key("user_id"))
        try c.encode(subject, forKey: Key("sub"))
        try c.encode(issuedAt, forKey: Key("iat"))
        try c.encode(expiresAt, forKey: Key("exp"))
        try c.encodeIfPresent(email, forKey: Key("email"))
        try c.encodeIfPresent(emailVerified, forKey: Key("email_verified"))
        try c.encodeIfPresent(phoneNumber, forKey: Key("phone_number"))
        try c.encode(firebase, forKey: Key("firebase"))
    }

    /// Time-dependent checks are made by ``TokenService`` against its injected clock, not here.
    public func verify(using algorithm: some JWTAlgorithm) async throws {}
}
