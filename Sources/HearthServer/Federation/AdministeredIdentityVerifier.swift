import Foundation
import HearthCore
import HearthProviders
import Synchronization

/// The identity providers of a running server: the configuration's (in development, the sandbox's for
/// those the configuration leaves off), with the settings administrators stored through the admin API
/// laid over them.
///
/// ``refresh()`` re-reads the stored settings (one small query) and rebuilds the verifiers only when they
/// changed, so a change made through any replica takes effect on every replica's next federated sign-in.
final class AdministeredIdentityVerifier: IdentityVerifier {
    private struct State {
        var base: ProvidersConfiguration
        var stored: [String: String]
        var verifier: any IdentityVerifier
    }

    private let store: any SettingStore
    private let makeVerifier: @Sendable (ProvidersConfiguration) -> any IdentityVerifier
    private let state: Mutex<State>

    init(
        base: ProvidersConfiguration, store: any SettingStore,
        makeVerifier: @escaping @Sendable (ProvidersConfiguration) -> any IdentityVerifier
    ) {
        self.store = store
        self.makeVerifier = makeVerifier
        state = Mutex(State(base: base, stored: [:], verifier: makeVerifier(base)))
    }

    private var verifier: any IdentityVerifier { state.withLock { $0.verifier } }

    /// The providers in effect: the base configuration with the stored settings laid over it (what the
    /// browser sign-in flows use).
    var providers: ProvidersConfiguration {
        state.withLock { $0.base.applying(Self.settings($0.stored)) }
    }

    func isEnabled(_ providerID: String) -> Bool { verifier.isEnabled(providerID) }

    func verify(_ credential: FederatedCredential) async throws -> FederatedProfile {
        try await verifier.verify(credential)
    }

    func refresh() async throws {
        let stored = try await store.settings(withPrefix: IdentityProviderSetting.storagePrefix)
        // Built under the lock from the base in effect then: a rebase meanwhile is never undone.
        state.withLock { state in
            guard stored != state.stored else { return }
            state.stored = stored
            state.verifier = makeVerifier(state.base.applying(Self.settings(stored)))
        }
    }

    /// Replaces the configuration the stored settings are laid over (the sandbox's URLs once the port is
    /// known), keeping the settings last read: it reads nothing, so it cannot fail (a failure here once
    /// left a development server pointing at port 0 when its database was slow to answer at start).
    func rebase(_ base: ProvidersConfiguration) {
        state.withLock { state in
            state.base = base
            state.verifier = makeVerifier(base.applying(Self.settings(state.stored)))
        }
    }

    private static func settings(_ stored: [String: String]) -> [IdentityProviderSetting] {
        stored.values.compactMap { try? JSONDecoder().decode(IdentityProviderSetting.self, from: Data($0.utf8)) }
    }
}

extension ProvidersConfiguration {
    /// This configuration with each stored setting taking the place of its provider's switch and credentials:
    /// client ids, client secrets, Apple's bundle ids, team id, key id and private key, an OIDC issuer.
    /// Endpoints, caching and network limits stay as configured. Microsoft's tenant rule is replaced only by a
    /// setting that has one, so storing a client id never widens the tenants the configuration allows.
    func applying(_ settings: [IdentityProviderSetting]) -> ProvidersConfiguration {
        var p = self
        for setting in settings.sorted(by: { $0.providerID < $1.providerID }) {
            let clientIDs = setting.clientID.map { [$0] } ?? []
            let clientSecret = ProviderSecret(setting.clientSecret ?? "")
            switch setting.providerID {
            case "apple.com":
                p.apple.enabled = setting.enabled
                p.apple.bundleIDs = setting.appleBundleIDs ?? []
                p.apple.serviceIDs = clientIDs
                p.apple.teamID = setting.appleTeamID ?? ""
                p.apple.keyID = setting.appleKeyID ?? ""
                p.apple.privateKey = ProviderSecret(setting.applePrivateKey ?? "")
            case "microsoft.com":
                p.microsoft.enabled = setting.enabled
                p.microsoft.clientIDs = clientIDs
                p.microsoft.clientSecret = clientSecret
                if let tenant = setting.microsoftTenant { p.microsoft.tenant = tenant }
                if let allowed = setting.microsoftAllowedTenantIDs { p.microsoft.allowedTenantIDs = allowed }
            case "twitter.com":
                p.twitter.enabled = setting.enabled
                p.twitter.consumerKey = setting.clientID ?? ""
                p.twitter.consumerSecret = clientSecret
            case "google.com":
                p.google.enabled = setting.enabled
                p.google.clientIDs = clientIDs
                p.google.clientSecret = clientSecret
            case "facebook.com":
                p.facebook.enabled = setting.enabled
                p.facebook.appID = setting.clientID ?? ""
                p.facebook.appSecret = clientSecret
            case "github.com":
                p.gitHub.enabled = setting.enabled
                p.gitHub.clientID = setting.clientID
                p.gitHub.clientSecret = setting.clientSecret.map { ProviderSecret($0) }
            default:
                guard setting.providerID.hasPrefix("oidc.") else { continue }
                let name = String(setting.providerID.dropFirst("oidc.".count))
                var oidc = p.oidc[name] ?? OIDC(issuer: setting.issuer ?? "", clientIDs: clientIDs)
                oidc.enabled = setting.enabled
                oidc.clientIDs = clientIDs
                oidc.clientSecret = clientSecret
                if let issuer = setting.issuer, issuer != oidc.issuer {
                    oidc.issuer = issuer
                    oidc.discoveryURL = nil
                }
                p.oidc[name] = oidc
            }
        }
        return p
    }
}
