import Foundation
import HearthFormEncoding
import Hummingbird

/// The OAuth 1.0a parameters of a signed request (RFC 5849 §3.4.1.3 and §3.5): the protocol parameters, taken
/// from the one transmission method the client used, and every parameter the signature covers.
///
/// The protocol parameters may travel in the `Authorization: OAuth …` header, the form body or the query, but
/// all in the same one (§3.5); a request that spreads its `oauth_*` parameters over two of them, or repeats one,
/// is refused with Twitter's 400 "Bad Authentication data." (code 215).
struct OAuth1Request: Sendable {
    /// Where the protocol parameters were found.
    enum Transmission: String, Sendable {
        case header = "the Authorization header"
        case form = "the form body"
        case query = "the query"
    }

    let transmission: Transmission
    /// The `oauth_*` parameters, `oauth_signature` included, by name.
    let protocolParameters: [String: String]
    /// What the signature covers (§3.4.1.3.1): the query's, the form body's and the header's parameters, without
    /// `oauth_signature` and the header's `realm`.
    let signedParameters: [(name: String, value: String)]

    subscript(name: String) -> String? { protocolParameters[name] }

    /// Reads the request's parameters; `form` is its `application/x-www-form-urlencoded` body (empty when it has
    /// none, `nil` when it is malformed).
    static func parse(_ request: Request, form: [(name: String, value: String)]?) -> Result<OAuth1Request, TwitterRoutes.Failure> {
        guard let query = FormEncoding.pairs(request.uri.query ?? "") else { return .failure(.badAuthenticationData("malformed query")) }
        guard let form else { return .failure(.badAuthenticationData("malformed form body")) }
        var header: [(name: String, value: String)] = []
        if let value = request.headers[.authorization] {
            guard let parsed = OAuth1AuthorizationHeader(value) else {
                return .failure(.badAuthenticationData("malformed or repeated Authorization header parameters"))
            }
            header = parsed.parameters
        }
        let sources: [(Transmission, [(name: String, value: String)])] = [
            (.header, header), (.form, form.filter { $0.name.hasPrefix("oauth_") }), (.query, query.filter { $0.name.hasPrefix("oauth_") }),
        ]
        let used = sources.filter { !$0.1.isEmpty }
        guard let (transmission, parameters) = used.first else { return .failure(.badAuthenticationData("no oauth_* parameters")) }
        guard used.count == 1 else {
            return .failure(.badAuthenticationData("oauth_* parameters in \(used.map(\.0.rawValue).joined(separator: " and "))"))
        }
        var protocolParameters: [String: String] = [:]
        for parameter in parameters {
            guard protocolParameters.updateValue(parameter.value, forKey: parameter.name) == nil else {
                return .failure(.badAuthenticationData("\(parameter.name) repeated"))
            }
        }
        let signed = (query + form + header).filter { $0.name != "oauth_signature" }
        return .success(OAuth1Request(transmission: transmission, protocolParameters: protocolParameters, signedParameters: signed))
    }

    /// The request's form body as pairs: empty when it is not `application/x-www-form-urlencoded`, `nil` when it
    /// is too large or malformed.
    static func form(_ request: Request) async -> [(name: String, value: String)]? {
        guard SandboxHTTP.isForm(request) else { return [] }
        guard let text = await SandboxHTTP.bodyText(request) else { return nil }
        return FormEncoding.pairs(text)
    }
}
