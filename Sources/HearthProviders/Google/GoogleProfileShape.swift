import HearthCore

/// Google's profile as Firebase returns it in `rawUserInfo`: the shape of the v2 userinfo endpoint
/// (`id`, `email`, `verified_email`, `name`, `given_name`, `family_name`, `picture`, `locale`, `hd`, and
/// `granted_scopes` when known), built from ID-token claims or OpenID userinfo.
enum GoogleProfileShape {
    static func rawUserInfo(_ claims: ClaimSet, subject: String, grantedScopes: String? = nil) -> [String: JSONValue] {
        var info = claims.picking(["email", "name", "given_name", "family_name", "picture", "locale", "hd"])
        info["id"] = .string(subject)
        if claims.email() != nil { info["verified_email"] = .bool(claims.flag("email_verified") ?? claims.flag("verified_email") ?? false) }
        if let grantedScopes, !grantedScopes.isEmpty { info["granted_scopes"] = .string(grantedScopes) }
        return info
    }

    static func profile(_ claims: ClaimSet, subject: String, grantedScopes: String? = nil) -> FederatedProfile {
        let email = claims.email()
        return FederatedProfile(
            providerID: "google.com", rawID: subject, email: email,
            emailVerified: email != nil && (claims.flag("email_verified") ?? claims.flag("verified_email") ?? false),
            displayName: claims.string("name"), firstName: claims.string("given_name"), lastName: claims.string("family_name"),
            photoURL: claims.string("picture"), rawUserInfo: rawUserInfo(claims, subject: subject, grantedScopes: grantedScopes))
    }
}
