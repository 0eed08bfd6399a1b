import Crypto
import Foundation
import HearthCore

extension ProviderDescription {
    /// Sign in with Apple (`apple.com`): ID tokens for the bundle and services IDs; browser sign-in with a
    /// client secret Hearth signs with the `.p8` key (`form_post`, the `user` JSON the first time).
    static let apple = ProviderDescription(
        id: "apple.com", name: "Apple", isFamily: false, settingsKey: "apple", adminCollection: .defaultSupported,
        read: { source, p in
            p.apple.enabled = try source.bool("providers.apple.enabled") ?? p.apple.enabled
            p.apple.bundleIDs = try source.stringArray("providers.apple.bundleIds") ?? p.apple.bundleIDs
            p.apple.serviceIDs = try source.stringArray("providers.apple.clientIds") ?? p.apple.serviceIDs
            p.apple.jwksURL = try source.url("providers.apple.jwksURL") ?? p.apple.jwksURL
            if p.apple.enabled, p.apple.audiences.isEmpty {
                throw source.problem(
                    "providers.apple.bundleIds", "Sign in with Apple needs at least one bundle ID (bundleIds) or services ID (clientIds)")
            }
            p.apple.teamID = try source.string("providers.apple.teamId") ?? p.apple.teamID
            p.apple.keyID = try source.string("providers.apple.keyId") ?? p.apple.keyID
            if let pem = try source.secret("providers.apple.privateKey") { p.apple.privateKey = pem }
            // The .p8 key is checked now: a key that is not one would otherwise fail only at the first sign-in.
            let notAppleKey = "not the .p8 key Apple gives (a PEM P-256 private key, BEGIN PRIVATE KEY)"
            if let path = try source.string("providers.apple.privateKeyFile") {
                p.apple.privateKey = ProviderSecret(try source.fileText("providers.apple.privateKeyFile", path: path))
                guard (try? P256.Signing.PrivateKey(pemRepresentation: p.apple.privateKey.value)) != nil else {
                    throw source.problem("providers.apple.privateKeyFile", "\(path) is \(notAppleKey)")
                }
            } else if !p.apple.privateKey.isEmpty, (try? P256.Signing.PrivateKey(pemRepresentation: p.apple.privateKey.value)) == nil {
                throw source.problem("providers.apple.privateKey", notAppleKey)
            }
            if let seconds = try source.int("providers.apple.clientSecretLifetimeSeconds", in: 3_600...15_777_000) {
                p.apple.clientSecretLifetime = TimeInterval(seconds)
            }
            p.apple.authorizationURL = try source.url("providers.apple.authorizationURL") ?? p.apple.authorizationURL
            p.apple.tokenURL = try source.url("providers.apple.tokenURL") ?? p.apple.tokenURL
            p.apple.revokeURL = try source.url("providers.apple.revokeURL") ?? p.apple.revokeURL
            if !p.apple.privateKey.isEmpty, p.apple.teamID.isEmpty || p.apple.keyID.isEmpty {
                throw source.problem("providers.apple.keyId", "the .p8 key needs the team ID and key ID that go with it")
            }
        },
        isSwitchedOn: { $0.apple.enabled },
        adopt: { p, other in p.apple = other.apple },
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
        apply: { setting, p in
            p.apple.enabled = setting.enabled
            p.apple.bundleIDs = setting.appleBundleIDs ?? []
            p.apple.serviceIDs = setting.clientIDs
            p.apple.teamID = setting.appleTeamID ?? ""
            p.apple.keyID = setting.appleKeyID ?? ""
            p.apple.privateKey = ProviderSecret(setting.applePrivateKey ?? "")
        },
        validate: { setting in
            try refuseMicrosoftSettings(setting)
            try checkAudiences(setting)
            guard setting.enabled else { return }
            guard present(setting.clientID) || !(setting.appleBundleIDs ?? []).isEmpty else {
                throw HearthError(.invalidConfig, detail: "Sign in with Apple needs a services ID (clientId) or appleSignInConfig.bundleIds")
            }
        },
        formerNames: ["clientIds": "serviceIDs", "bundleIds": "bundleIDs", "teamId": "teamID", "keyId": "keyID"])
}
