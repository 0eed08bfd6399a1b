import Crypto
import Foundation
import HearthCore

extension ProviderDescription {
    /// Sign in with Apple (`apple.com`): ID tokens for the bundle and services IDs; browser sign-in with a
    /// client secret Hearth signs with the `.p8` key (`form_post`, the `user` JSON the first time).
    static let apple = ProviderDescription(
        id: "apple.com", name: "Apple", settings: ProvidersConfiguration.Apple.self, settingsKey: "apple",
        keys: [
            .bool("enabled", \.enabled), .strings("bundleIds", \.bundleIDs), .strings("clientIds", \.serviceIDs), .url("jwksURL", \.jwksURL),
            .string("teamId", \.teamID), .string("keyId", \.keyID), .secret("privateKey", \.privateKey),
            // The .p8 key is checked now: a key that is not one would otherwise fail only at the first sign-in.
            SettingKey("privateKeyFile") { source, key, apple in
                guard let path = try source.string(key) else { return }
                apple.privateKey = ProviderSecret(try source.fileText(key, path: path))
                guard isAppleKey(apple.privateKey) else { throw source.problem(key, "\(path) is \(notAppleKey)") }
            },
            SettingKey("clientSecretLifetimeSeconds") { source, key, apple in
                if let seconds = try source.int(key, in: 3_600...15_777_000) { apple.clientSecretLifetime = TimeInterval(seconds) }
            },
            .url("authorizationURL", \.authorizationURL), .url("tokenURL", \.tokenURL), .url("revokeURL", \.revokeURL),
        ],
        check: { apple, source, key in
            if apple.enabled, apple.audiences.isEmpty {
                throw source.problem(key("bundleIds"), "Sign in with Apple needs at least one bundle ID (bundleIds) or services ID (clientIds)")
            }
            if !apple.privateKey.isEmpty, !isAppleKey(apple.privateKey) { throw source.problem(key("privateKey"), notAppleKey) }
            if !apple.privateKey.isEmpty, apple.teamID.isEmpty || apple.keyID.isEmpty {
                throw source.problem(key("keyId"), "the .p8 key needs the team ID and key ID that go with it")
            }
        },
        adapters: { p, tools in
            guard p.apple.isUsable else { return [:] }
            return ["apple.com": ProviderAdapters(idToken: AppleIDTokenVerifier(configuration: p.apple, validator: tools.validator))]
        },
        browserFlow: BrowserFlow(
            supports: { p, _ in p.apple.supportsBrowserSignIn },
            start: { flows, request, custom in
                let apple = flows.configuration.apple
                let nonce = AuthorizationFlows.randomToken()
                var query: [(String, String)] = [
                    ("client_id", apple.webClientID ?? ""), ("redirect_uri", request.redirectURI.absoluteString),
                    ("response_type", "code"), ("response_mode", "form_post"),
                    ("scope", AuthorizationFlows.scopes(["name", "email"], adding: request.scopes).joined(separator: " ")),
                    ("state", request.state), ("nonce", AuthorizationFlows.sha256Hex(nonce)),
                ]
                query += custom.sorted { $0.key < $1.key }.map { ($0.key, $0.value) }
                return AuthorizationStart(url: try flows.url(apple.authorizationURL, query), pendingValues: ["nonce": nonce])
            },
            finish: { flows, callback in
                var credential = try await flows.finishCodeFlow(callback) { code in
                    let apple = flows.configuration.apple
                    let clientID = apple.webClientID ?? ""
                    let secret = try flows.failing {
                        try AppleClientSecretSigner.secret(for: apple, clientID: clientID, now: flows.clock.now)
                    }
                    return try await flows.exchangeCode(
                        code, callback: callback, endpoint: apple.tokenURL, credentials: [("client_id", clientID), ("client_secret", secret)])
                }
                // The person's name, sent once, on the first sign-in only.
                credential.appleUser = callback.fields["user"].flatMap { $0.isEmpty ? nil : $0 }
                return credential
            }),
        apply: { setting, apple in
            apple.enabled = setting.enabled
            apple.bundleIDs = setting.appleBundleIDs ?? []
            apple.serviceIDs = setting.clientIDs
            apple.teamID = setting.appleTeamID ?? ""
            apple.keyID = setting.appleKeyID ?? ""
            apple.privateKey = ProviderSecret(setting.applePrivateKey ?? "")
        },
        validate: { setting in
            try checkAudiences(setting)
            guard setting.enabled else { return }
            guard present(setting.clientID) || !(setting.appleBundleIDs ?? []).isEmpty else {
                throw HearthError(.invalidConfig, detail: "Sign in with Apple needs a services ID (clientId) or appleSignInConfig.bundleIds")
            }
        },
        formerNames: ["clientIds": "serviceIDs", "bundleIds": "bundleIDs", "teamId": "teamID", "keyId": "keyID"],
        acceptsAdditionalClientIDs: true, adminSections: [IdentityProviderSetting.appleSection], revokesTokens: true)
}

extension ProviderDescription {
    /// What a `.p8` key that is not one is, in a configuration error.
    fileprivate static let notAppleKey = "not the .p8 key Apple gives (a PEM P-256 private key, BEGIN PRIVATE KEY)"

    /// Whether `key` is a PEM P-256 private key.
    fileprivate static func isAppleKey(_ key: ProviderSecret) -> Bool { (try? P256.Signing.PrivateKey(pemRepresentation: key.value)) != nil }
}
