/// An identity provider the sandbox stands in for, by its Firebase provider id: `apple.com`, …, `yahoo.com`,
/// or a generic OpenID Connect issuer `oidc.<name>`.
///
/// Each provider's folder declares its value (`SandboxProvider.yahoo`) beside its
/// ``SandboxProviderDefinition``; ``SandboxRegistry`` lists the definitions.
public struct SandboxProvider: Sendable, Hashable, CustomStringConvertible {
    /// The Firebase provider id: `apple.com`, `microsoft.com`, `google.com`, `facebook.com`, `github.com`,
    /// `twitter.com`, `yahoo.com` or `oidc.<name>`.
    public let firebaseProviderID: String

    init(id: String) { firebaseProviderID = id }

    /// The provider with this Firebase provider id, if the sandbox stands in for it.
    public init?(firebaseProviderID: String) {
        guard let definition = SandboxRegistry.definition(of: firebaseProviderID), !(definition.isFamily && firebaseProviderID == definition.id)
        else {
            return nil
        }
        self.init(id: firebaseProviderID)
    }

    /// A family member's name (`<name>` of `oidc.<name>`); `nil` for the other providers.
    var memberName: String? {
        let definition = definition
        return definition.isFamily ? String(firebaseProviderID.dropFirst(definition.id.count)) : nil
    }

    /// What the sandbox knows of the provider.
    var definition: SandboxProviderDefinition {
        guard let definition = SandboxRegistry.definition(of: firebaseProviderID) else {
            preconditionFailure("\(firebaseProviderID) is not in SandboxRegistry.all")
        }
        return definition
    }

    /// The path segment the provider is served under, e.g. `apple` or `oidc/<name>`.
    public var pathPrefix: String {
        memberName.map { "\(definition.pathPrefix)/\($0)" } ?? definition.pathPrefix
    }

    public var description: String { firebaseProviderID }
}
