import Foundation
import HearthCore

/// The parts of an OpenID Provider's discovery document (`/.well-known/openid-configuration`) Hearth uses.
struct DiscoveryDocument: Sendable, Equatable {
    var issuer: String
    var jwksURI: URL
    /// `id_token_signing_alg_values_supported`, if the document lists it.
    var signingAlgorithms: [String]?

    init(issuer: String, jwksURI: URL, signingAlgorithms: [String]?) {
        self.issuer = issuer
        self.jwksURI = jwksURI
        self.signingAlgorithms = signingAlgorithms
    }

    /// Reads the document; `nil` when `issuer` or `jwks_uri` is missing or malformed.
    init?(_ object: [String: JSONValue]) {
        guard case .string(let issuer)? = object["issuer"], !issuer.isEmpty,
            case .string(let jwks)? = object["jwks_uri"], let jwksURI = URL(string: jwks), jwksURI.scheme != nil
        else { return nil }
        var algorithms: [String]?
        if case .array(let values)? = object["id_token_signing_alg_values_supported"] {
            algorithms = values.compactMap { if case .string(let s) = $0 { s } else { nil } }
        }
        self.init(issuer: issuer, jwksURI: jwksURI, signingAlgorithms: algorithms)
    }
}
