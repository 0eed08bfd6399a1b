import HearthCore

/// A provider adapter that proves an identity by calling the provider with an access token
/// (OAuth 2.0 bearer token, or Twitter's OAuth 1.0a token with `credential.tokenSecret`).
protocol AccessTokenVerifier: Sendable {
    /// Asks the provider whose `accessToken` it is, checking it was issued to this app where the provider allows.
    func verify(accessToken: String, credential: FederatedCredential) async throws -> FederatedProfile
}
