import Foundation
import HearthCore
import HearthProviders

/// What is wrong with the token, and what the rejection must say.
enum BadToken: String, CaseIterable, Sendable {
    case forgedSignature, algNone, hs256WithPublicKey, unknownKid, expired, issuedInFuture, notYetValid, wrongAudience, wrongIssuer
    case missingSubject, malformed, es256WhereRS256, wrongNonce, nonceMissingInRequest, nonceMissingInToken

    var expectedCode: HearthError.Code {
        switch self {
        case .wrongNonce, .nonceMissingInRequest, .nonceMissingInToken: .missingOrInvalidNonce
        default: .invalidIDPResponse
        }
    }

    var expectedDetail: String {
        switch self {
        case .forgedSignature: "the signature does not verify"
        case .algNone: "signing algorithm \"none\" is not accepted"
        case .hs256WithPublicKey: "signing algorithm \"HS256\" is not accepted"
        case .unknownKid: "signed with an unknown key"
        case .expired: "it expired at"
        case .issuedInFuture: "issued in the future"
        case .notYetValid: "not valid before"
        case .wrongAudience: "does not match the expected audience"
        case .wrongIssuer: "issuer"
        case .missingSubject: "no subject"
        case .malformed: "Unable to parse"
        case .es256WhereRS256: "signing algorithm \"ES256\" is not accepted"
        case .wrongNonce: "does not match the SHA256 hash of the raw nonce \"another-raw-nonce\""
        case .nonceMissingInRequest: "Nonce is missing in the request."
        case .nonceMissingInToken: "Nonce is missing in the ID token."
        }
    }

    /// The bad token and the raw nonce sent with it.
    func make(for provider: IDTokenProvider, in environment: FakeEnvironment) -> (token: String, rawNonce: String?) {
        let now = environment.now
        var rawNonce = provider.rawNonce
        let claims: [String: JSONValue]
        switch self {
        case .forgedSignature:
            return (TokenMinter.mint(provider.validClaims(environment), key: .rogue), rawNonce)
        case .algNone:
            return (TokenMinter.unsigned(provider.validClaims(environment), kid: TestKey.primary.kid), rawNonce)
        case .hs256WithPublicKey:
            return (TokenMinter.hmacWithPublicKey(provider.validClaims(environment), key: .primary), rawNonce)
        case .unknownKid:
            return (TokenMinter.mint(provider.validClaims(environment), key: .second), rawNonce)
        case .es256WhereRS256:
            return (TokenMinter.mint(provider.validClaims(environment), key: .elliptic), rawNonce)
        case .malformed:
            return ("eyJhbGciOiJSUzI1NiJ9.not-a-token", rawNonce)
        case .expired: claims = provider.validClaims(environment, ["iat": .number(now - 3700), "exp": .number(now - 100)])
        case .issuedInFuture: claims = provider.validClaims(environment, ["iat": .number(now + 600), "exp": .number(now + 4000)])
        case .notYetValid: claims = provider.validClaims(environment, ["nbf": .number(now + 600)])
        case .wrongAudience: claims = provider.validClaims(environment, ["aud": "someone-elses-client"])
        case .wrongIssuer: claims = provider.validClaims(environment, ["iss": "https://evil.example.com"])
        case .missingSubject: claims = provider.validClaims(environment, ["sub": nil])
        case .wrongNonce:
            claims = provider.validClaims(environment, ["nonce": .string(TokenMinter.nonceHash("the-raw-nonce"))])
            rawNonce = "another-raw-nonce"
        case .nonceMissingInRequest:
            claims = provider.validClaims(environment, ["nonce": .string(TokenMinter.nonceHash("the-raw-nonce"))])
            rawNonce = nil
        case .nonceMissingInToken:
            claims = provider.validClaims(environment, ["nonce": nil])
            rawNonce = "the-raw-nonce"
        }
        return (TokenMinter.mint(claims, key: .primary), rawNonce)
    }
}
