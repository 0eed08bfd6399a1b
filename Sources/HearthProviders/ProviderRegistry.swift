import AsyncHTTPClient
import Foundation
import HearthCore
import HearthTelemetry
import Logging

/// Hearth's ``IdentityVerifier``: dispatches a credential by provider id to the adapters its
/// ``ProviderDescription`` (in ``ProviderCatalogue``) builds.
///
/// | provider id | ID token | access token |
/// |---|---|---|
/// | `apple.com` | Apple | – |
/// | `microsoft.com` | Microsoft v2.0 | – |
/// | `google.com` | Google | `tokeninfo` + `userinfo` |
/// | `facebook.com` | Limited Login | `debug_token` + `/me` |
/// | `twitter.com` | – | OAuth 1.0a `verify_credentials` (with `tokenSecret`) |
/// | `github.com` | – | `/user` + `/user/emails` |
/// | `yahoo.com` | discovery + JWKS (ES256) | – |
/// | `oidc.<name>` | discovery + JWKS | – |
/// | `saml.<name>` | – (the browser sign-in's verified response only) | – |
///
/// When a credential has both, the ID token is used. Errors: ``HearthError/Code/operationNotAllowed`` when the
/// provider is switched off or not configured; ``HearthError/Code/invalidCredentialOrProviderID`` for a
/// provider id Hearth does not know; ``HearthError/Code/invalidIDPResponse`` and
/// ``HearthError/Code/missingOrInvalidNonce`` for credentials that do not verify. Every provider call is
/// bounded by ``ProvidersConfiguration/Network/requestTimeout``.
public final class ProviderRegistry: IdentityVerifier {
    /// The configuration the registry was built from.
    public let configuration: ProvidersConfiguration
    private let adapters: [String: ProviderAdapters]
    private let logger: Logger

    /// Builds the adapters of every configured provider.
    ///
    /// - Parameters:
    ///   - configuration: providers, client ids, secrets and URLs.
    ///   - httpClient: the client for every provider call; owned (and shut down) by the caller.
    ///   - clock: Hearth's clock, for token expiry, OAuth 1.0a timestamps and key-cache lifetimes.
    ///   - logger: receives provider calls (scheme, host and path only) and rejections; never tokens or secrets.
    ///   - telemetry: counts, times and traces every call to a provider.
    ///   - replayGuard: when set, an ID token carrying a nonce is accepted only once
    ///     (`MISSING_OR_INVALID_NONCE : Duplicate credential received…` the second time).
    ///   - discovery: the OpenID discovery documents, shared with the browser sign-in's ``AuthorizationFlows``
    ///     and with the registries built after this one; a cache of its own by default.
    public init(
        configuration: ProvidersConfiguration, httpClient: HTTPClient, clock: WallClock = .system, logger: Logger,
        replayGuard: (any CredentialReplayGuard)? = nil, telemetry: Telemetry = .off, discovery: DiscoveryCache = DiscoveryCache()
    ) {
        self.configuration = configuration
        self.logger = logger
        let http = ProviderHTTP(client: httpClient, network: configuration.network, logger: logger, telemetry: telemetry)
        let keys = JWKSCache(http: http, clock: clock, policy: configuration.keyCaching, logger: logger)
        let discovery = DiscoveryReader(cache: discovery, http: http, clock: clock, policy: configuration.keyCaching, logger: logger)
        let validator = IDTokenValidator(keys: keys, clock: clock, clockSkew: configuration.clockSkew, replayGuard: replayGuard)

        let tools = ProviderTools(http: http, validator: validator, discovery: discovery, clock: clock, clockSkew: configuration.clockSkew)
        var adapters: [String: ProviderAdapters] = [:]
        for description in ProviderCatalogue.all {
            adapters.merge(description.adapters(configuration, tools)) { first, _ in first }
        }
        self.adapters = adapters
    }

    /// The provider ids that are switched on and configured, sorted.
    public var enabledProviderIDs: [String] { adapters.keys.sorted() }

    /// Whether `providerID` is switched on and configured (built-in ids case-insensitively).
    public func isEnabled(_ providerID: String) -> Bool { adapters[canonical(providerID)] != nil }

    /// Verifies the credential with its provider and returns the normalised profile.
    public func verify(_ credential: FederatedCredential) async throws -> FederatedProfile {
        let providerID = canonical(credential.providerID)
        guard let adapter = adapters[providerID] else {
            if ProviderCatalogue.isKnown(providerID) { throw ProviderFailure.notAllowed("\(providerID) is switched off or not configured") }
            throw ProviderFailure.unknownProvider(credential.providerID)
        }
        do {
            var profile: FederatedProfile
            if let idToken = nonEmpty(credential.idToken), let verifier = adapter.idToken {
                profile = try await verifier.verify(idToken: idToken, credential: credential)
            } else if let accessToken = nonEmpty(credential.accessToken), let verifier = adapter.accessToken {
                profile = try await verifier.verify(accessToken: accessToken, credential: credential)
            } else {
                throw ProviderFailure.invalid(Self.missingCredentialDetail(providerID, adapter: adapter))
            }
            profile.providerID = providerID
            guard !profile.rawID.isEmpty, !profile.rawID.utf8.contains(0) else {
                throw ProviderFailure.invalid("The \(providerID) credential names no user.")
            }
            return profile
        } catch let error as HearthError {
            logger.debug(
                "credential rejected",
                metadata: ["provider": "\(providerID)", "code": "\(error.code.rawValue)", "reason": "\(error.reason ?? "")"])
            throw error
        }
    }

    /// The registered id for `providerID`: built-in ids are case-insensitive, `oidc.` names exact, then case-insensitive.
    private func canonical(_ providerID: String) -> String {
        if adapters[providerID] != nil { return providerID }
        let lowered = providerID.lowercased()
        if adapters[lowered] != nil || !lowered.hasPrefix("oidc.") { return lowered }
        return adapters.keys.first { $0.lowercased() == lowered } ?? lowered
    }

    private func nonEmpty(_ text: String?) -> String? { text.flatMap { $0.isEmpty ? nil : $0 } }

    private static func missingCredentialDetail(_ providerID: String, adapter: ProviderAdapters) -> String {
        switch (adapter.idToken != nil, adapter.accessToken != nil) {
        case (true, true): "The \(providerID) credential has neither id_token nor access_token."
        case (true, false): "The \(providerID) credential needs an id_token."
        case (false, true): "The \(providerID) credential needs an access_token."
        // SAML: the posted response, through the browser sign-in, is the only credential.
        case (false, false): "\(providerID) signs in through the browser only (createAuthUri, then the IdP's response)."
        }
    }
}
