import HearthCore

/// WebAuthn's virtual authenticators (DevTools' `WebAuthn` domain), so that a test can enrol and use passkeys in a
/// headless browser without a person touching a security key.
extension BrowserPage {
    /// Switches this page's WebAuthn over to virtual authenticators (DevTools `WebAuthn.enable`); call once, before
    /// ``addVirtualAuthenticator(residentKey:userVerified:)``.
    public func enableVirtualAuthenticators() async throws {
        _ = try await call("WebAuthn.enable", ["enableUI": .bool(false)])
    }

    /// Adds a platform authenticator as a laptop's: CTAP 2, internal transport, discoverable credentials, user
    /// verification (which succeeds when `userVerified`), presence confirmed at once. Returns its id.
    public func addVirtualAuthenticator(residentKey: Bool = true, userVerified: Bool = true) async throws -> String {
        let options: [String: JSONValue] = [
            "protocol": .string("ctap2"), "transport": .string("internal"), "hasResidentKey": .bool(residentKey),
            "hasUserVerification": .bool(true), "isUserVerified": .bool(userVerified), "automaticPresenceSimulation": .bool(true),
        ]
        let result = try await call("WebAuthn.addVirtualAuthenticator", ["options": .object(options)])
        guard case .string(let id)? = result["authenticatorId"] else {
            throw BrowserError.protocolError(method: "WebAuthn.addVirtualAuthenticator", message: "no authenticatorId in \(result)")
        }
        return id
    }

    /// Removes the virtual authenticator `id` with its credentials.
    public func removeVirtualAuthenticator(_ id: String) async throws {
        _ = try await call("WebAuthn.removeVirtualAuthenticator", ["authenticatorId": .string(id)])
    }

    /// How many credentials the virtual authenticator `id` holds.
    public func credentialCount(ofVirtualAuthenticator id: String) async throws -> Int {
        let result = try await call("WebAuthn.getCredentials", ["authenticatorId": .string(id)])
        guard case .array(let credentials)? = result["credentials"] else {
            throw BrowserError.protocolError(method: "WebAuthn.getCredentials", message: "no credentials in \(result)")
        }
        return credentials.count
    }
}
