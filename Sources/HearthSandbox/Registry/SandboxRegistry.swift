/// Every provider the sandbox stands in for, one ``SandboxProviderDefinition`` each, declared in the
/// provider's folder. Routes, keys, credentials, endpoints, test accounts and the consent pages' behaviour
/// are read from here; nothing else in the sandbox names a provider (docs/adding-a-provider.md).
enum SandboxRegistry {
    /// The definitions, in the order routes are added and the console lists them.
    static let all: [SandboxProviderDefinition] = [.apple, .microsoft, .twitter, .google, .facebook, .github, .yahoo, .oidc]

    /// The definition of `providerID` (`google.com`, or `oidc.<name>` for the family, whose prefix alone
    /// stands for all its members).
    static func definition(of providerID: String) -> SandboxProviderDefinition? {
        all.first { definition in definition.isFamily ? providerID.hasPrefix(definition.id) : providerID == definition.id }
    }
}
