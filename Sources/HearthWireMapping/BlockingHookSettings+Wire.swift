import HearthCore
import HearthWire

extension BlockingHookSettings {
    /// The trigger names of the wire, in the order they are shown.
    static let triggerNames = ["beforeCreate", "beforeSignIn", "beforeSendEmail", "beforeSendSms"]

    /// The hooks of a `blockingFunctions` config. `INVALID_CONFIG` for an unknown trigger or a URI that may not be a
    /// hook's (``isAllowedURI(_:development:)``: HTTPS, or in development http to loopback).
    public init(_ config: BlockingFunctionsConfig, development: Bool) throws {
        self.init()
        for (name, trigger) in (config.triggers ?? [:]).sorted(by: { $0.key < $1.key }) {
            let uri = trigger.functionUri.flatMap { $0.isEmpty ? nil : $0 }
            if let uri, !Self.isAllowedURI(uri, development: development) {
                throw HearthError(
                    .invalidConfig,
                    detail:
                        "blockingFunctions.triggers.\(name.prefix(40)).functionUri must be an https URL\(development ? " (or http to localhost)" : "")."
                )
            }
            switch name {
            case "beforeCreate": beforeCreate = uri
            case "beforeSignIn": beforeSignIn = uri
            case "beforeSendEmail": beforeSendEmail = uri
            case "beforeSendSms": beforeSendSMS = uri
            default: throw HearthError(.invalidConfig, detail: "blockingFunctions.triggers takes \(Self.triggerNames.joined(separator: ", ")).")
            }
        }
        forwardIDToken = config.forwardInboundCredentials?.idToken ?? false
        forwardAccessToken = config.forwardInboundCredentials?.accessToken ?? false
        forwardRefreshToken = config.forwardInboundCredentials?.refreshToken ?? false
    }
}

extension BlockingFunctionsConfig {
    /// The wire form of `settings`.
    public init(_ settings: BlockingHookSettings) {
        var triggers: [String: Trigger] = [:]
        for (name, uri) in zip(
            BlockingHookSettings.triggerNames, [settings.beforeCreate, settings.beforeSignIn, settings.beforeSendEmail, settings.beforeSendSMS])
        {
            if let uri { triggers[name] = Trigger(functionUri: uri) }
        }
        self.init(
            triggers: triggers.isEmpty ? nil : triggers,
            forwardInboundCredentials: ForwardInboundCredentials(
                idToken: settings.forwardIDToken, accessToken: settings.forwardAccessToken, refreshToken: settings.forwardRefreshToken))
    }
}
