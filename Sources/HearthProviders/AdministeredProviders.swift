import Foundation
import HearthCore
import Synchronization

/// The identity providers of a running server: the configuration's (in development, the sandbox's for
/// those the configuration leaves off), with the settings administrators stored through the admin API
/// laid over them.
///
/// ``refresh()`` re-reads the stored settings (one small query) and rebuilds the verifiers only when they
/// changed, so a change made through any replica takes effect on every replica's next federated sign-in.
public final class AdministeredProviders: IdentityVerifier {
    private struct State {
        var base: ProvidersConfiguration
        var stored: [String: String]
        var verifier: any IdentityVerifier
    }

    private let store: any SettingStore
    private let makeVerifier: @Sendable (ProvidersConfiguration) -> any IdentityVerifier
    private let state: Mutex<State>

    public init(
        base: ProvidersConfiguration, store: any SettingStore,
        makeVerifier: @escaping @Sendable (ProvidersConfiguration) -> any IdentityVerifier
    ) {
        self.store = store
        self.makeVerifier = makeVerifier
        state = Mutex(State(base: base, stored: [:], verifier: makeVerifier(base)))
    }

    private var verifier: any IdentityVerifier { state.withLock { $0.verifier } }

    /// The configuration the stored settings are laid over.
    public var base: ProvidersConfiguration { state.withLock { $0.base } }

    /// The same providers for the settings `store` holds (a tenant's, through a store scoped to it), over `base`.
    public func reading(_ store: any SettingStore, over base: ProvidersConfiguration) -> AdministeredProviders {
        AdministeredProviders(base: base, store: store, makeVerifier: makeVerifier)
    }

    /// The providers in effect: the base configuration with the stored settings laid over it (what the
    /// browser sign-in flows use).
    public var providers: ProvidersConfiguration {
        state.withLock { $0.base.applying(Self.settings($0.stored)) }
    }

    public func isEnabled(_ providerID: String) -> Bool { verifier.isEnabled(providerID) }

    public func verify(_ credential: FederatedCredential) async throws -> FederatedProfile {
        try await verifier.verify(credential)
    }

    public func refresh() async throws {
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
    public func rebase(_ base: ProvidersConfiguration) {
        state.withLock { state in
            state.base = base
            state.verifier = makeVerifier(base.applying(Self.settings(state.stored)))
        }
    }

    private static func settings(_ stored: [String: String]) -> [IdentityProviderSetting] {
        stored.values.compactMap { try? JSONDecoder().decode(IdentityProviderSetting.self, from: Data($0.utf8)) }
    }
}
