import HearthCore
import HearthWire

extension MultiFactorSettings {
    /// The settings of an `mfa` config; `INVALID_CONFIG` for an unknown state or provider, or adjacent intervals out
    /// of 0…10.
    public init(_ config: MultiFactorAuthConfig) throws {
        self.init()
        if let raw = config.state {
            guard let state = State(rawValue: raw) else {
                throw HearthError(.invalidConfig, detail: "mfa.state must be DISABLED, ENABLED or MANDATORY.")
            }
            self.state = state
        }
        for provider in config.enabledProviders ?? [] {
            guard provider == "PHONE_SMS" else { throw HearthError(.invalidConfig, detail: "mfa.enabledProviders takes PHONE_SMS.") }
            phoneEnabled = true
        }
        for provider in config.providerConfigs ?? [] {
            guard let totp = provider.totpProviderConfig else {
                throw HearthError(.invalidConfig, detail: "mfa.providerConfigs takes totpProviderConfig.")
            }
            guard [nil, "ENABLED", "DISABLED"].contains(provider.state) else {
                throw HearthError(.invalidConfig, detail: "mfa.providerConfigs[].state must be ENABLED or DISABLED.")
            }
            totpEnabled = provider.state == "ENABLED"
            totpAdjacentIntervals = totp.adjacentIntervals ?? totpAdjacentIntervals
        }
        recoveryCodesEnabled = config.hearthRecoveryCodesEnabled ?? false
        self = try checked()
    }
}

extension MultiFactorAuthConfig {
    public init(_ settings: MultiFactorSettings) {
        self.init(
            state: settings.state.rawValue, enabledProviders: settings.phoneEnabled ? ["PHONE_SMS"] : [],
            providerConfigs: [
                .init(
                    state: settings.totpEnabled ? "ENABLED" : "DISABLED", totpProviderConfig: .init(adjacentIntervals: settings.totpAdjacentIntervals)
                )
            ],
            hearthRecoveryCodesEnabled: settings.recoveryCodesEnabled)
    }
}
