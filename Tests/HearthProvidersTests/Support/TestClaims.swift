import Foundation
import HearthCore
import HearthProviders

/// Valid claims for each ID-token provider, at the environment's clock.
extension FakeEnvironment {
    func appleClaims(_ changes: [String: JSONValue?] = [:]) -> [String: JSONValue] {
        apply(
            changes,
            to: [
                "iss": "https://appleid.apple.com", "aud": .string(Self.appleAudience), "sub": "001234.5e201aec537347aeb79d23cbc345170a.1321",
                "iat": .number(now), "exp": .number(now + 600), "email": "Q7x2@PrivateRelay.AppleID.com", "email_verified": "true",
                "is_private_email": "true", "auth_time": .number(now), "nonce_supported": true,
            ])
    }

    func googleClaims(_ changes: [String: JSONValue?] = [:]) -> [String: JSONValue] {
        apply(
            changes,
            to: [
                "iss": "accounts.google.com", "azp": .string(Self.googleClientID), "aud": .string(Self.googleClientID),
                "sub": "115113236566683398301", "email": "Oberyn@gmail.com", "email_verified": true, "at_hash": "W59S8K8cx4cxXbhtbaWbwA",
                "name": "Oberyn Martell", "given_name": "Oberyn", "family_name": "Martell", "picture": "https://lh3.googleusercontent.com/a/x",
                "locale": "en", "iat": .number(now), "exp": .number(now + 3600),
            ])
    }

    func microsoftClaims(
        tenant: String = Self.workTenant, oid: String = "3f2a4b5c-1d2e-4f60-8a9b-0c1d2e3f4a5b", _ changes: [String: JSONValue?] = [:]
    )
        -> [String: JSONValue]
    {
        apply(
            changes,
            to: [
                "ver": "2.0", "iss": .string("https://login.microsoftonline.com/\(tenant)/v2.0"), "aud": .string(Self.microsoftClientID),
                "tid": .string(tenant), "oid": .string(oid), "sub": "AAAAAAAAAAAAAAAAAAAAAIkzqFVrSaSaFHy782bbtaQ", "name": "Abe Lincoln",
                "preferred_username": "AbeLi@contoso.com", "email": "AbeLi@contoso.com", "iat": .number(now), "nbf": .number(now),
                "exp": .number(now + 3600),
                "aio": "Df2UVXL1ix!lMCWMSOJBcFatzcGfvFGhjKv8q5g0x732dR5MB5BisvGQO7YWByjd8iQDLq!eGbIDakyp5mnOrcdqHeYSnltepQmRp6AIZ8jY",
            ])
    }

    func facebookClaims(_ changes: [String: JSONValue?] = [:]) -> [String: JSONValue] {
        apply(
            changes,
            to: [
                "iss": "https://www.facebook.com", "aud": "fb-app", "sub": "10158497624517245", "iat": .number(now), "exp": .number(now + 3600),
                "jti": "8d4c0d1e-7e5a-4f0f-9a65-0c1d2e3f4a5b", "nonce": .string(TokenMinter.nonceHash("fb-raw-nonce")), "name": "Ada Lovelace",
                "given_name": "Ada", "family_name": "Lovelace", "email": "Ada@Example.com",
                "picture": "https://platform-lookaside.fbsbx.com/platform/profilepic/?asid=10158497624517245",
            ])
    }

    func oidcClaims(_ changes: [String: JSONValue?] = [:]) -> [String: JSONValue] {
        apply(
            changes,
            to: [
                "iss": .string(base + "/oidc"), "aud": "corp-client", "sub": "employee-42", "iat": .number(now), "exp": .number(now + 600),
                "email": "Grace@Corp.example", "email_verified": "true", "name": "Grace Hopper", "picture": "https://corp.example/grace.png",
            ])
    }

    private func apply(_ changes: [String: JSONValue?], to claims: [String: JSONValue]) -> [String: JSONValue] {
        var result = claims
        for (key, value) in changes { result[key] = value }
        return result
    }
}

/// Runs `body` and returns the `HearthError` it threw (`nil` if it did not throw one).
func rejection(_ body: () async throws -> FederatedProfile) async -> HearthError? {
    do {
        _ = try await body()
        return nil
    } catch let error as HearthError {
        return error
    } catch {
        return HearthError(.internalError, reason: "unexpected \(error)")
    }
}
