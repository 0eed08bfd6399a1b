/// A person the sandbox SAML IdP signs in: the NameID it asserts and the attributes it sends.
public struct SandboxSAMLUser: Sendable, Hashable {
    /// The subject's NameID (an e-mail address for the presets).
    public var nameID: String
    /// The NameID's `Format`.
    public var nameIDFormat: String
    /// The attributes, each `Name` with its values.
    public var attributes: [String: [String]]

    /// - Parameters:
    ///   - nameID: the NameID asserted.
    ///   - nameIDFormat: its format; e-mail address by default.
    ///   - attributes: the attributes sent.
    public init(
        nameID: String, nameIDFormat: String = "urn:oasis:names:tc:SAML:1.1:nameid-format:emailAddress", attributes: [String: [String]] = [:]
    ) {
        self.nameID = nameID
        self.nameIDFormat = nameIDFormat
        self.attributes = attributes
    }

    /// The ready-made users: Ada (two groups) and Grace (none).
    public static let presets: [SandboxSAMLUser] = [
        SandboxSAMLUser(
            nameID: "ada@saml.sandbox.test",
            attributes: [
                "email": ["ada@saml.sandbox.test"], "firstName": ["Ada"], "lastName": ["Lovelace"], "groups": ["engineering", "admins"],
            ]),
        SandboxSAMLUser(
            nameID: "grace@saml.sandbox.test",
            attributes: ["email": ["grace@saml.sandbox.test"], "firstName": ["Grace"], "lastName": ["Hopper"]]),
    ]
}
