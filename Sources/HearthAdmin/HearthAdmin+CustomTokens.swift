import Foundation

extension HearthAdmin {
    /// The `aud` of custom tokens, Identity Toolkit's service name.
    public static let customTokenAudience = "https://identitytoolkit.googleapis.com/google.identity.identitytoolkit.v1.IdentityToolkit"

    /// A custom token for `uid`, which the app exchanges for an ID token with `signIn(withCustomToken:)`.
    /// Valid for an hour; `claims` ride in every ID token of that session. In a tenant (``tenantID``) it names the
    /// tenant (`tenant_id`), and the app signs in with `auth.tenantID` set to it.
    ///
    /// Signed RS256 with the service account's key (`iss` = `sub` = its `client_email`). With
    /// ``Credential/emulatorOwner`` it is unsigned (`alg: none`), as the Admin SDKs make them for an emulator;
    /// only development mode accepts those.
    /// - Throws: `auth/invalid-uid`, `auth/reserved-claim`, `auth/claims-too-large`, and `auth/invalid-credential`
    ///   with a static bearer token, which has no key to sign with.
    public func createCustomToken(uid: String, claims: [String: ClaimValue] = [:]) throws -> String {
        guard !uid.isEmpty, uid.count <= 128 else { throw HearthAdminError(.invalidUID, "A uid has 1 to 128 characters.") }
        if let reserved = claims.keys.sorted().first(where: DecodedToken.reservedClaimNames.contains) {
            throw HearthAdminError(.reservedClaim, "\"\(reserved)\" is a reserved claim name.")
        }
        if !claims.isEmpty, (try? Self.encoder.encode(ClaimValue.object(claims)).count) ?? .max > 1_000 {
            throw HearthAdminError(.claimsTooLarge, "Custom-token claims take at most 1000 characters of JSON.")
        }
        let issuedAt = Double(Int64(clock().timeIntervalSince1970))
        var payload: [String: ClaimValue] = [
            "aud": .string(Self.customTokenAudience), "uid": .string(uid), "iat": .number(issuedAt), "exp": .number(issuedAt + 3_600),
        ]
        if !claims.isEmpty { payload["claims"] = .object(claims) }
        // In a tenant the token signs in to that tenant alone, as firebase-admin's tenant-aware tokens do.
        if let tenantID { payload["tenant_id"] = .string(tenantID) }
        switch credential {
        case .serviceAccount:
            guard let serviceAccount else { throw HearthAdminError(.invalidCredential, "No service account is loaded.") }
            payload["iss"] = .string(serviceAccount.clientEmail)
            payload["sub"] = .string(serviceAccount.clientEmail)
            return try serviceAccount.sign(payload)
        case .emulatorOwner:
            payload["iss"] = "firebase-auth-emulator@example.com"
            payload["sub"] = "firebase-auth-emulator@example.com"
            return try CompactJWT.encode(header: ["alg": "none", "typ": "JWT"], payload: payload) { _ in Data() }
        case .bearer:
            throw HearthAdminError(.invalidCredential, "Custom tokens need a service account's key; a bearer token cannot sign them.")
        }
    }
}
