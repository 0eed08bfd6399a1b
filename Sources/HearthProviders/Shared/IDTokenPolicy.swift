import Foundation

/// What one provider's ID tokens must satisfy, beyond what every ID token must (see ``IDTokenValidator``).
struct IDTokenPolicy: Sendable {
    /// The provider's name in error details ("Google", "Apple").
    var providerName: String
    /// Accepted `iss` values; `nil` when the adapter checks the issuer itself (Microsoft's tenant rule).
    var issuers: Set<String>?
    /// Client ids: `aud` must contain one of them.
    var audiences: Set<String>
    /// Signing algorithms the provider uses.
    var algorithms: Set<IDTokenAlgorithm>
    /// Where the provider's keys are.
    var jwksURL: URL
    /// Facebook Limited Login: the request must carry a raw nonce even if the token had none.
    var nonceRequired: Bool = false
}
