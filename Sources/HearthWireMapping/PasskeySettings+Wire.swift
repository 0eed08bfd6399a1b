import HearthCore
import HearthWire

extension PasskeyConfig {
    /// The settings as the project config and a tenant show them.
    public init(_ settings: PasskeySettings) {
        self.init(
            rpId: settings.rpID, expectedOrigins: settings.origins, userVerification: settings.requiresUserVerification ? "REQUIRED" : "PREFERRED")
    }
}

extension PasskeySettings {
    /// An administrator's `passkeyConfig`: `rpId` and `expectedOrigins` required, `userVerification` `REQUIRED` or
    /// `PREFERRED` (the default); the relying party's name is the RP ID. Checked by ``PasskeySettings/checked(_:)``
    /// (`INVALID_CONFIG`).
    public init(_ config: PasskeyConfig) throws {
        guard let rpID = config.rpId else { throw HearthError(.invalidConfig, detail: "passkeyConfig.rpId is required.") }
        guard let origins = config.expectedOrigins else {
            throw HearthError(.invalidConfig, detail: "passkeyConfig.expectedOrigins is required.")
        }
        let verification = config.userVerification ?? "PREFERRED"
        guard ["REQUIRED", "PREFERRED"].contains(verification) else {
            throw HearthError(.invalidConfig, detail: "passkeyConfig.userVerification must be REQUIRED or PREFERRED.")
        }
        self = try PasskeySettings.checked(
            PasskeySettings(rpID: rpID, rpName: rpID, origins: origins, requiresUserVerification: verification == "REQUIRED"))
    }
}
