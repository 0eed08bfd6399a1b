import Crypto
import Foundation

/// The relying-party credentials the sandbox expects: what a developer would copy from each provider's console.
///
/// ``generate()`` makes fresh random secrets; ids that look like reverse-DNS names are fixed so logs read well.
/// Each provider also has an "other" app, registered with the sandbox but not meant to be configured in Hearth,
/// so that tests can present credentials issued to someone else's app. Each provider's folder declares its
/// app's type and accessor (`credentials.yahoo`); the values are kept by provider id.
public struct SandboxCredentials: Sendable {
    /// The generic OIDC issuer every sandbox has (Firebase provider id `oidc.sandbox`).
    public static let defaultOIDCIssuerName = "sandbox"

    /// A relying party registered at a generic OIDC issuer.
    public struct OIDCClient: Sendable, Hashable {
        public var clientID: String
        public var clientSecret: String

        public init(clientID: String, clientSecret: String) {
            self.clientID = clientID
            self.clientSecret = clientSecret
        }

        /// A fresh random client.
        public static func generate() -> OIDCClient {
            OIDCClient(clientID: "hearth-\(SandboxRandom.alphanumeric(12).lowercased())", clientSecret: SandboxRandom.base64URL(bytes: 32))
        }
    }

    /// Each provider's registered app, by provider id.
    var apps: [String: any Sendable]
    /// Generic OIDC issuers by name, with the client registered at each.
    public var oidc: [String: OIDCClient]

    /// The app registered with `provider`, of the type its folder declares.
    func app<App>(_ provider: SandboxProvider, as type: App.Type) -> App {
        guard let app = apps[provider.firebaseProviderID] as? App else {
            preconditionFailure("no \(App.self) registered for \(provider) (SandboxRegistry.all)")
        }
        return app
    }

    /// Fresh credentials with random secrets and keys.
    public static func generate() -> SandboxCredentials {
        var apps: [String: any Sendable] = [:]
        for definition in SandboxRegistry.all {
            if let make = definition.makeCredentials { apps[definition.id] = make() }
        }
        return SandboxCredentials(apps: apps, oidc: [defaultOIDCIssuerName: .generate()])
    }
}
