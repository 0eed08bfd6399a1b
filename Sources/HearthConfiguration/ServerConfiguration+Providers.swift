import Configuration
import Foundation
import HearthProviders

extension ServerConfiguration {
    /// Reads `providers.*`: each provider's section as its ``ProviderDescription`` in ``ProviderCatalogue``
    /// defines it (switch, client IDs, secrets, endpoints with the real URLs by default), the network limits,
    /// and browser sign-in.
    static func readProviders(_ r: ConfigValues) throws -> ProvidersConfiguration {
        var p = try ProvidersConfiguration.reading(r)
        if let timeout = try r.int("providers.requestTimeoutSeconds", in: 1...120) { p.network.requestTimeout = TimeInterval(timeout) }
        try readBrowserSignIn(r, into: &p)
        return p
    }
}

extension ConfigValues: ProviderSettingsSource {
    func problem(_ key: String, _ problem: String) -> any Error { ConfigurationError(key: key, problem: problem) }
}
