import Foundation
import HearthCore

/// The parts of an OpenID Provider's discovery document (`/.well-known/openid-configuration`) Hearth uses.
struct DiscoveryDocument: Sendable, Equatable {
    var issuer: String
    var jwksURI: URL
    /// `id_token_signing_alg_values_supported`, if the document lists it.
    var signingAlgorithms: [String]?
    /// `authorization_endpoint` and `token_endpoint`, for the browser sign-in, if the document names them.
    var authorizationEndpoint: URL?
    var tokenEndpoint: URL?

    init(issuer: String, jwksURI: URL, signingAlgorithms: [String]?, authorizationEndpoint: URL? = nil, tokenEndpoint: URL? = nil) {
        self.issuer = issuer
        self.jwksURI = jwksURI
        self.signingAlgorithms = signingAlgorithms
        self.authorizationEndpoint = authorizationEndpoint
        self.tokenEndpoint = tokenEndpoint
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
        func url(_ name: String) -> URL? {
            guard case .string(let text)? = object[name], let url = URL(string: text), url.scheme != nil else { return nil }
            return url
        }
        self.init(
            issuer: issuer, jwksURI: jwksURI, signingAlgorithms: algorithms, authorizationEndpoint: url("authorization_endpoint"),
            tokenEndpoint: url("token_endpoint"))
    }
}
