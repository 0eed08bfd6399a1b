import Foundation
import HearthCore

/// One identity provider as the rest of Hearth sees it: its id, where its settings are, how its
/// credentials are verified, how its browser sign-in runs, and how an administrator's stored settings
/// apply to it. Each provider's folder defines its description; ``ProviderCatalogue`` lists them, and
/// the configuration reader, ``ProviderRegistry``, ``AuthorizationFlows``, the admin API and development
/// mode's sandbox read them instead of switching on provider ids.
///
/// A description either names one provider (`google.com`) or a family (`oidc.`, whose members are
/// `oidc.<name>`, one per configured issuer; `saml.`, one per `inboundSamlConfig`).
public struct ProviderDescription: Sendable {
    /// Which admin API collection an administrator stores the provider's settings in.
    public enum AdminCollection: Sendable {
        /// `defaultSupportedIdpConfigs/{providerId}`: Firebase's built-in providers.
        case defaultSupported
        /// `oauthIdpConfigs/oidc.{name}`: generic OpenID Connect providers.
        case oauth
        /// `inboundSamlConfigs/saml.{name}`: SAML 2.0 providers.
        case inboundSaml
    }

    /// Firebase's provider id (`google.com`), or a family's prefix (`oidc.`).
    public let id: String
    /// The provider's name in messages ("Google").
    public let name: String
    /// Whether ``id`` is a family's prefix.
    public let isFamily: Bool
    /// The configuration section: `providers.<settingsKey>.…` (`HEARTH_PROVIDERS_<KEY>_…`).
    public let settingsKey: String
    /// Where the admin API keeps the provider's stored settings.
    public let adminCollection: AdminCollection

    /// Reads `providers.<settingsKey>.…` into the configuration, checking what an enabled provider needs.
    let read: @Sendable (any ProviderSettingsSource, inout ProvidersConfiguration) throws -> Void
    /// Whether the configuration switches the provider on. A family answers `false` and adopts member by
    /// member.
    let isSwitchedOn: @Sendable (ProvidersConfiguration) -> Bool
    /// Replaces the provider's settings in the first configuration with the second's (a family: adds the
    /// second's members the first does not have).
    let adopt: @Sendable (inout ProvidersConfiguration, ProvidersConfiguration) -> Void
    /// The credential verifiers of every usable member, by provider id.
    let adapters: @Sendable (ProvidersConfiguration, ProviderTools) -> [String: ProviderAdapters]
    /// The browser sign-in, if the provider has one.
    let browserFlow: BrowserFlow?
    /// Lays a stored setting over the configuration (switch, client ids, secrets; endpoints stay).
    let apply: @Sendable (IdentityProviderSetting, inout ProvidersConfiguration) -> Void
    /// What an administrator's setting must hold (`INVALID_CONFIG`, `INVALID_OAUTH_CLIENT_ID`).
    let validate: @Sendable (IdentityProviderSetting) throws -> Void
    /// What comes before the raw id in `signInWithIdp`'s `federatedId` (Google's is a URL; the others, nothing).
    public var federatedIDPrefix = ""
    /// Settings renamed to Firebase's names, by last key component: the name (`clientId`) and the former
    /// name (`appID`) it replaces. A former name is still read when the name is absent (the name wins when
    /// both are set); the command line warns about every use.
    public var formerNames: [String: String] = [:]
    /// The provider's own sections of its admin settings (``AdminSection``), if it has any.
    public var adminSections: [AdminSection] = []
    /// Whether the provider accepts client ids besides the first (the admin API's `whitelistedAudiences`).
    public var acceptsAdditionalClientIDs = false
    /// Whether `accounts:revokeToken` can revoke the provider's tokens (``AppleTokenRevoker``).
    public var revokesTokens = false
    /// The provider's settings in ``ProvidersConfiguration/description`` (secrets redacted).
    var settingsText: @Sendable (ProvidersConfiguration) -> String = { _ in "" }

    /// `signInWithIdp`'s `federatedId` of the user `rawID` of `providerID`, as Firebase answers it.
    public static func federatedID(providerID: String, rawID: String) -> String {
        (ProviderCatalogue.description(of: providerID)?.federatedIDPrefix ?? "") + rawID
    }

    /// Whether `providerID` is this provider or a member of this family.
    public func describes(_ providerID: String) -> Bool {
        isFamily ? providerID.hasPrefix(id) && providerID.count > id.count : providerID == id
    }
}

/// The shared parts a provider's verifiers are built from.
struct ProviderTools: Sendable {
    let http: ProviderHTTP
    let validator: IDTokenValidator
    let discovery: DiscoveryReader
    let clock: WallClock
    let clockSkew: TimeInterval
}

/// How a provider's browser sign-in runs (``AuthorizationFlows``).
struct BrowserFlow: Sendable {
    /// Whether the flow can run with this configuration: switched on, with the secrets the exchange needs.
    let supports: @Sendable (ProvidersConfiguration, _ providerID: String) -> Bool
    /// The provider's authorization URL and the values to keep until it answers; `custom` holds the app's
    /// parameters without the reserved names.
    let start: @Sendable (AuthorizationFlows, AuthorizationRequest, _ custom: [String: String]) async throws -> AuthorizationStart
    /// Turns what the provider sent to the redirect handler into a credential.
    let finish: @Sendable (AuthorizationFlows, AuthorizationCallback) async throws -> FederatedCredential
}

/// What the provider sent to Hearth's redirect handler, with what the start kept.
struct AuthorizationCallback: Sendable {
    var providerID: String
    /// The query and form fields.
    var fields: [String: String]
    /// ``AuthorizationStart/pendingValues``.
    var pending: [String: String]
    /// The `redirect_uri` the start registered, repeated in the code exchange.
    var redirectURI: URL
}
