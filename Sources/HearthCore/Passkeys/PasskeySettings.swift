import Foundation
import HearthWebAuthn

/// A project's or tenant's passkey settings: the relying party its users' passkeys are scoped to and the pages
/// that may use them. Passkeys are off where there are none (``ProjectSettings/passkeys`` `nil`).
public struct PasskeySettings: Codable, Sendable, Equatable {
    /// The RP ID (`example.com`): the origins' registrable domain, which the passkeys are bound to.
    public var rpID: String
    /// The name an authenticator shows beside the account.
    public var rpName: String
    /// The exact origins (`https://example.com`) `clientDataJSON` may name; `http://localhost:*` stands for every
    /// port of `http://localhost` (development mode's default).
    public var origins: [String]
    /// Whether the authenticator must verify the user (PIN, biometrics), not only see them present. A passkey
    /// sign-in with the user verified counts as multi-factor either way (see ``PasskeySignIn``).
    public var requiresUserVerification: Bool

    /// At most this many origins.
    public static let maxOrigins = 20

    public init(rpID: String, rpName: String, origins: [String], requiresUserVerification: Bool = false) {
        self.rpID = rpID
        self.rpName = rpName
        self.origins = origins
        self.requiresUserVerification = requiresUserVerification
    }

    /// Development mode's passkeys: RP ID `localhost`, any `http://localhost` port (the server's own pages and a
    /// development web server's), user verification preferred.
    public static let development = PasskeySettings(rpID: "localhost", rpName: "localhost", origins: ["http://localhost:*"])

    /// The relying party HearthWebAuthn verifies against.
    var relyingParty: RelyingParty {
        RelyingParty(id: rpID, origins: origins, requiresUserVerification: requiresUserVerification)
    }

    /// `settings` when they can be used: the RP ID a lower-case DNS name (not an IP address, no scheme or port); 1 to
    /// ``maxOrigins`` origins, each `scheme://host[:port]` with no path, `https` (or `http` for `localhost`), its host
    /// the RP ID or below it; `:*` for `http://localhost` alone. `INVALID_CONFIG` otherwise, naming what is wrong; its
    /// `reason` is the field (`rpId`, `expectedOrigins`, `rpName`).
    public static func checked(_ settings: PasskeySettings) throws -> PasskeySettings {
        let rpID = settings.rpID
        guard isDomainName(rpID) else {
            throw HearthError(
                .invalidConfig, detail: "passkeyConfig.rpId must be a lower-case domain name such as example.com or localhost.", reason: "rpId")
        }
        guard (1...maxOrigins).contains(settings.origins.count) else {
            throw HearthError(
                .invalidConfig, detail: "passkeyConfig.expectedOrigins must list 1 to \(maxOrigins) origins.", reason: "expectedOrigins")
        }
        for origin in settings.origins {
            guard let host = host(ofOrigin: origin) else {
                throw HearthError(
                    .invalidConfig,
                    detail: "The expected origin \(origin.prefix(100).debugDescription) must be https://host[:port], or http:// for localhost.",
                    reason: "expectedOrigins")
            }
            guard host == rpID || host.hasSuffix("." + rpID) else {
                throw HearthError(
                    .invalidConfig, detail: "The expected origin \(origin.prefix(100).debugDescription) is not on the RP ID \(rpID).",
                    reason: "expectedOrigins")
            }
        }
        let name = settings.rpName.isEmpty ? rpID : settings.rpName
        guard name.count <= 100, !name.unicodeScalars.contains(where: { $0.properties.generalCategory == .control }) else {
            throw HearthError(
                .invalidConfig, detail: "The relying party's name must be at most 100 characters, with no control characters.",
                reason: "rpName")
        }
        var checked = settings
        checked.rpName = name
        return checked
    }

    /// The host of `origin` when it is one HTTPS origin (or HTTP on `localhost`, `http://localhost:*` too).
    private static func host(ofOrigin origin: String) -> String? {
        guard origin.count <= 256, let components = URLComponents(string: origin), let scheme = components.scheme,
            let host = components.host, isDomainName(host), components.path.isEmpty, components.query == nil,
            components.fragment == nil, components.user == nil, components.password == nil
        else {
            return origin == "http://localhost:*" ? "localhost" : nil
        }
        let isLocal = host == "localhost" || host.hasSuffix(".localhost")
        guard scheme == "https" || (scheme == "http" && isLocal) else { return nil }
        guard origin == "\(scheme)://\(host)" + (components.port.map { ":\($0)" } ?? "") else { return nil }
        return host
    }

    /// Whether `name` is a lower-case DNS name of letters, digits and hyphens (`example.com`, `localhost`), not an
    /// IP address.
    private static func isDomainName(_ name: String) -> Bool {
        let labels = name.split(separator: ".", omittingEmptySubsequences: false)
        guard (1...253).contains(name.count), !labels.contains(where: \.isEmpty), let last = labels.last,
            !last.allSatisfy({ $0.isASCII && $0.isNumber })
        else { return false }
        return labels.allSatisfy { label in
            label.count <= 63 && label.first != "-" && label.last != "-"
                && label.unicodeScalars.allSatisfy { ("a"..."z").contains($0) || ("0"..."9").contains($0) || $0 == "-" }
        }
    }
}
