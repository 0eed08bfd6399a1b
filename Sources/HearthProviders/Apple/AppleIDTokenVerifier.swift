import Foundation
import HearthCore

/// `apple.com`: an RS256 ID token from Apple's keys, `aud` a bundle id or services id; the e-mail flags may be
/// strings or booleans; private-relay addresses are kept and flagged; the name only from the first-sign-in
/// `user` JSON; never a photo.
struct AppleIDTokenVerifier: IDTokenVerifier {
    static let providerID = "apple.com"
    static let privateRelayDomain = "@privaterelay.appleid.com"

    let configuration: ProvidersConfiguration.Apple
    let validator: IDTokenValidator

    var policy: IDTokenPolicy {
        IDTokenPolicy(
            providerName: "Apple", issuers: Set(configuration.issuers), audiences: Set(configuration.audiences),
            algorithms: [.rs256], jwksURL: configuration.jwksURL)
    }

    func verify(idToken: String, credential: FederatedCredential) async throws -> FederatedProfile {
        let claims = try await validator.validate(idToken, policy: policy, rawNonce: credential.rawNonce, providerID: Self.providerID)
        let email = claims.email()
        let isPrivate = claims.flag("is_private_email") ?? (email?.hasSuffix(Self.privateRelayDomain) ?? false)
        let name = AppleUserName(json: credential.appleUser)
        return FederatedProfile(
            providerID: Self.providerID, rawID: claims.string("sub") ?? "",
            email: email, emailVerified: email != nil && (claims.flag("email_verified") ?? false),
            displayName: name?.displayName, firstName: name?.firstName, lastName: name?.lastName, photoURL: nil,
            isPrivateEmail: email != nil && isPrivate, rawUserInfo: claims.values)
    }
}
