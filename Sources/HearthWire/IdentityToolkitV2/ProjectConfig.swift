/// `GET/PATCH /v2/projects/{project}/config`: the project's sign-in settings, administrators only. Hearth
/// keeps the parts below (the rest of Google's `Config` is not Hearth's to change).
public struct ProjectConfig: Codable, Sendable, Equatable {
    /// `projects/{project}/config`.
    public var name: String?
    public var signIn: SignInConfig?
    public var emailPrivacyConfig: EmailPrivacyConfig?
    /// Whether anonymous users are deleted once old (Hearth: after `anonymousCleanup.maxAge`, 30 days by default).
    public var autodeleteAnonymousUsers: Bool?
    /// Which regions' phone numbers may get a code by SMS.
    public var smsRegionConfig: SmsRegionConfig?
    /// Second factors: whether users may (`ENABLED`) or must (`MANDATORY`) enrol, and which kinds.
    public var mfa: MultiFactorAuthConfig?
    /// The blocking functions: the operator's hooks asked before an account is made and before a sign-in's tokens.
    public var blockingFunctions: BlockingFunctionsConfig?
    /// The relying party of the project's passkeys.
    public var passkeyConfig: PasskeyConfig?

    public init(
        name: String? = nil, signIn: SignInConfig? = nil, emailPrivacyConfig: EmailPrivacyConfig? = nil, autodeleteAnonymousUsers: Bool? = nil,
        smsRegionConfig: SmsRegionConfig? = nil, mfa: MultiFactorAuthConfig? = nil, blockingFunctions: BlockingFunctionsConfig? = nil
    ) {
        self.blockingFunctions = blockingFunctions
        self.mfa = mfa
        self.name = name
        self.signIn = signIn
        self.emailPrivacyConfig = emailPrivacyConfig
        self.autodeleteAnonymousUsers = autodeleteAnonymousUsers
        self.smsRegionConfig = smsRegionConfig
    }
}

/// `smsRegionConfig`: one of `allowByDefault` (every region but `disallowedRegions`) and `allowlistOnly` (only
/// `allowedRegions`); regions are ISO 3166-1 alpha-2 codes.
public struct SmsRegionConfig: Codable, Sendable, Equatable {
    public struct AllowByDefault: Codable, Sendable, Equatable {
        public var disallowedRegions: [String]?
        public init(disallowedRegions: [String]?) { self.disallowedRegions = disallowedRegions }
    }

    public struct AllowlistOnly: Codable, Sendable, Equatable {
        public var allowedRegions: [String]?
        public init(allowedRegions: [String]?) { self.allowedRegions = allowedRegions }
    }

    public var allowByDefault: AllowByDefault?
    public var allowlistOnly: AllowlistOnly?

    public init(allowByDefault: AllowByDefault? = nil, allowlistOnly: AllowlistOnly? = nil) {
        self.allowByDefault = allowByDefault
        self.allowlistOnly = allowlistOnly
    }
}

public struct SignInConfig: Codable, Sendable, Equatable {
    public var allowDuplicateEmails: Bool?
    public var anonymous: EnabledConfig?
    public var email: EmailSignInConfig?
    public var phoneNumber: PhoneNumberSignInConfig?
    /// How the project hashes passwords (read-only): what an export's hashes need to be imported elsewhere.
    public var hashConfig: HashConfig?

    public init(
        allowDuplicateEmails: Bool? = nil, anonymous: EnabledConfig? = nil, email: EmailSignInConfig? = nil,
        phoneNumber: PhoneNumberSignInConfig? = nil, hashConfig: HashConfig? = nil
    ) {
        self.allowDuplicateEmails = allowDuplicateEmails
        self.anonymous = anonymous
        self.email = email
        self.phoneNumber = phoneNumber
        self.hashConfig = hashConfig
    }
}

/// `signIn.phoneNumber`: phone sign-in on or off, and the test phone numbers with their fixed codes
/// (`{"+16505551234": "123456"}`).
public struct PhoneNumberSignInConfig: Codable, Sendable, Equatable {
    public var enabled: Bool?
    public var testPhoneNumbers: [String: String]?

    public init(enabled: Bool? = nil, testPhoneNumbers: [String: String]? = nil) {
        self.enabled = enabled
        self.testPhoneNumbers = testPhoneNumbers
    }
}

/// A project's password hashing. Hearth's is `STANDARD_SCRYPT` with `memoryCost` = log2 N, `rounds` = the block
/// size r, parallelization 1 and 32-byte keys (the import options `cpuMemCost` = 2^memoryCost, `blockSize` =
/// rounds, `parallelization` 1, `dkLen` 32).
public struct HashConfig: Codable, Sendable, Equatable {
    public var algorithm: String?
    public var signerKey: String?
    public var saltSeparator: String?
    public var rounds: Int?
    public var memoryCost: Int?

    public init(algorithm: String?, rounds: Int? = nil, memoryCost: Int? = nil) {
        self.algorithm = algorithm
        self.rounds = rounds
        self.memoryCost = memoryCost
    }
}

public struct EnabledConfig: Codable, Sendable, Equatable {
    public var enabled: Bool?

    public init(enabled: Bool?) { self.enabled = enabled }
}

public struct EmailSignInConfig: Codable, Sendable, Equatable {
    public var enabled: Bool?
    public var passwordRequired: Bool?

    public init(enabled: Bool? = nil, passwordRequired: Bool? = nil) {
        self.enabled = enabled
        self.passwordRequired = passwordRequired
    }
}

public struct EmailPrivacyConfig: Codable, Sendable, Equatable {
    public var enableImprovedEmailPrivacy: Bool?

    public init(enableImprovedEmailPrivacy: Bool?) { self.enableImprovedEmailPrivacy = enableImprovedEmailPrivacy }
}

/// `mfa`: `state` (`DISABLED`, `ENABLED`, `MANDATORY`), `enabledProviders` (`PHONE_SMS`), and `providerConfigs`
/// (TOTP: `{state, totpProviderConfig: {adjacentIntervals}}`).
/// `passkeyConfig`: the relying party passkeys are registered with and the pages that may use them, for the project
/// or a tenant. An administrator's change applies to new ceremonies; passkeys registered under another RP ID stop
/// working.
public struct PasskeyConfig: Codable, Sendable, Equatable {
    /// The RP ID (`example.com`): a registrable domain that each expected origin's host is or ends in.
    public var rpId: String?
    /// The exact origins (`https://example.com`, `https://accounts.example.com:8443`) whose pages may use passkeys.
    public var expectedOrigins: [String]?
    /// Hearth extension: `REQUIRED` (the authenticator verifies the user: PIN, biometrics) or `PREFERRED` (presence
    /// is enough).
    public var userVerification: String?

    public init(rpId: String? = nil, expectedOrigins: [String]? = nil, userVerification: String? = nil) {
        self.rpId = rpId
        self.expectedOrigins = expectedOrigins
        self.userVerification = userVerification
    }
}

public struct MultiFactorAuthConfig: Codable, Sendable, Equatable {
    public var state: String?
    public var enabledProviders: [String]?
    public var providerConfigs: [ProviderConfig]?
    /// Hearth extension: whether users may generate recovery codes (`/v2/accounts/mfaRecoveryCodes:generate`).
    public var hearthRecoveryCodesEnabled: Bool?

    public struct ProviderConfig: Codable, Sendable, Equatable {
        /// `ENABLED` or `DISABLED`.
        public var state: String?
        public var totpProviderConfig: TOTPProviderConfig?

        public init(state: String?, totpProviderConfig: TOTPProviderConfig?) {
            self.state = state
            self.totpProviderConfig = totpProviderConfig
        }
    }

    public struct TOTPProviderConfig: Codable, Sendable, Equatable {
        /// Periods before and after the current one whose codes are also taken (0 to 10).
        public var adjacentIntervals: Int?

        public init(adjacentIntervals: Int?) { self.adjacentIntervals = adjacentIntervals }
    }

    public init(
        state: String? = nil, enabledProviders: [String]? = nil, providerConfigs: [ProviderConfig]? = nil, hearthRecoveryCodesEnabled: Bool? = nil
    ) {
        self.hearthRecoveryCodesEnabled = hearthRecoveryCodesEnabled
        self.state = state
        self.enabledProviders = enabledProviders
        self.providerConfigs = providerConfigs
    }
}

/// `blockingFunctions`: `triggers` by event (`beforeCreate`, `beforeSignIn`, `beforeSendEmail`, `beforeSendSms`), each
/// `{functionUri, updateTime}`, and which of an identity provider's tokens the events carry.
public struct BlockingFunctionsConfig: Codable, Sendable, Equatable {
    public struct Trigger: Codable, Sendable, Equatable {
        public var functionUri: String?
        /// RFC 3339; answered, ignored when sent.
        public var updateTime: String?

        public init(functionUri: String?, updateTime: String? = nil) {
            self.functionUri = functionUri
            self.updateTime = updateTime
        }
    }

    public struct ForwardInboundCredentials: Codable, Sendable, Equatable {
        public var idToken: Bool?
        public var accessToken: Bool?
        public var refreshToken: Bool?

        public init(idToken: Bool? = nil, accessToken: Bool? = nil, refreshToken: Bool? = nil) {
            self.idToken = idToken
            self.accessToken = accessToken
            self.refreshToken = refreshToken
        }
    }

    public var triggers: [String: Trigger]?
    public var forwardInboundCredentials: ForwardInboundCredentials?

    public init(triggers: [String: Trigger]? = nil, forwardInboundCredentials: ForwardInboundCredentials? = nil) {
        self.triggers = triggers
        self.forwardInboundCredentials = forwardInboundCredentials
    }
}
