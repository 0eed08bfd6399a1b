import HearthCore
import HearthWire

extension SMSRegionPolicy {
    /// The policy of a `smsRegionConfig`: exactly one of its two forms, with valid region codes; `INVALID_CONFIG`
    /// otherwise.
    public init(_ config: SmsRegionConfig) throws {
        switch (config.allowByDefault, config.allowlistOnly) {
        case (let deny?, nil): self = try .checked(.allowByDefault(disallowedRegions: Set(deny.disallowedRegions ?? [])))
        case (nil, let allow?): self = try .checked(.allowlistOnly(allowedRegions: Set(allow.allowedRegions ?? [])))
        default: throw HearthError(.invalidConfig, detail: "smsRegionConfig takes one of allowByDefault and allowlistOnly.")
        }
    }
}

extension SmsRegionConfig {
    public init(_ policy: SMSRegionPolicy) {
        switch policy {
        case .allowByDefault(let denied): self.init(allowByDefault: .init(disallowedRegions: denied.sorted()))
        case .allowlistOnly(let allowed): self.init(allowlistOnly: .init(allowedRegions: allowed.sorted()))
        }
    }
}
