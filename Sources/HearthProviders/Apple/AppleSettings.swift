import HearthCore

/// Sign in with Apple's own admin settings: the `appleSignInConfig` section (`bundleIds`, and the
/// `codeFlowConfig` whose `.p8` key is never answered), and the first-sign-in `user` field of a credential.
extension IdentityProviderSetting {
    static let appleSection = AdminSection(
        name: "appleSignInConfig",
        fields: [["bundleIds"], ["codeFlowConfig", "teamId"], ["codeFlowConfig", "keyId"], ["codeFlowConfig", "privateKey"]],
        secretFields: [["codeFlowConfig", "privateKey"]], alwaysShown: true,
        legacyKeys: [
            ["bundleIds"]: "appleBundleIDs", ["codeFlowConfig", "teamId"]: "appleTeamID", ["codeFlowConfig", "keyId"]: "appleKeyID",
            ["codeFlowConfig", "privateKey"]: "applePrivateKey",
        ])

    /// The app bundle IDs (`appleSignInConfig.bundleIds`).
    public var appleBundleIDs: [String]? {
        get { specificStrings(["appleSignInConfig", "bundleIds"], legacyKey: "appleBundleIDs") }
        set { setSpecific(["appleSignInConfig", "bundleIds"], newValue?.json, replacing: "appleBundleIDs") }
    }

    /// The team ID (`appleSignInConfig.codeFlowConfig.teamId`).
    public var appleTeamID: String? {
        get { specificString(["appleSignInConfig", "codeFlowConfig", "teamId"], legacyKey: "appleTeamID") }
        set { setSpecific(["appleSignInConfig", "codeFlowConfig", "teamId"], newValue.map(JSONValue.string), replacing: "appleTeamID") }
    }

    /// The key ID of the `.p8` key (`appleSignInConfig.codeFlowConfig.keyId`).
    public var appleKeyID: String? {
        get { specificString(["appleSignInConfig", "codeFlowConfig", "keyId"], legacyKey: "appleKeyID") }
        set { setSpecific(["appleSignInConfig", "codeFlowConfig", "keyId"], newValue.map(JSONValue.string), replacing: "appleKeyID") }
    }

    /// The `.p8` private key, PEM (`appleSignInConfig.codeFlowConfig.privateKey`).
    public var applePrivateKey: String? {
        get { specificString(["appleSignInConfig", "codeFlowConfig", "privateKey"], legacyKey: "applePrivateKey") }
        set { setSpecific(["appleSignInConfig", "codeFlowConfig", "privateKey"], newValue.map(JSONValue.string), replacing: "applePrivateKey") }
    }
}

extension FederatedCredential {
    /// Apple's first-sign-in `user` JSON (`{"name":{"firstName":…,"lastName":…},"email":…}`).
    public var appleUser: String? {
        get { providerFields["user"] }
        set { providerFields["user"] = newValue.flatMap { $0.isEmpty ? nil : $0 } }
    }

    /// A credential with Apple's first-sign-in `user` JSON.
    public init(
        providerID: String, idToken: String? = nil, accessToken: String? = nil, tokenSecret: String? = nil, rawNonce: String? = nil,
        appleUser: String?
    ) {
        self.init(providerID: providerID, idToken: idToken, accessToken: accessToken, tokenSecret: tokenSecret, rawNonce: rawNonce)
        self.appleUser = appleUser
    }
}
