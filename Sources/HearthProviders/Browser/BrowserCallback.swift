import Foundation
import HearthCore
import HearthFormEncoding

/// What the browser sign-in reads from the requests that reach it: a provider's callback (query and posted form), the
/// key that names the started sign-in, the tenant a `state` names, a provider id as the app wrote it.
public enum BrowserCallback {
    /// The fields of a callback: the request URI's query, then the posted form (which wins).
    public static func fields(requestURI: String, postBody: String?) -> [String: String] {
        var query = Substring(requestURI)
        if let start = query.firstIndex(of: "?") { query = query[query.index(after: start)...] } else { query = "" }
        if let end = query.firstIndex(of: "#") { query = query[..<end] }
        var fields = formFields(query)
        fields.merge(formFields(postBody ?? "")) { _, posted in posted }
        return fields
    }

    /// What names the started sign-in in a callback: the `state` of an OAuth 2.0 answer (a code or an error), the
    /// `RelayState` of a SAML response, or the key of Twitter's request token; `nil` when the fields are not a
    /// provider's callback.
    public static func key(_ fields: [String: String]) -> String? {
        if let state = fields["state"], fields["code"] != nil || fields["error"] != nil { return state }
        if fields["SAMLResponse"] != nil { return fields["RelayState"] ?? "" }
        if let token = fields["denied"] ?? (fields["oauth_verifier"] != nil ? fields["oauth_token"] : nil) {
            return AuthSessionRecord.id(forRequestToken: token)
        }
        return nil
    }

    /// The tenant a handler's `state` names after its random part (`nil`: the project's).
    public static func tenantID(ofState state: String) -> String? {
        guard state.utf8.count > 44, state.utf8.dropFirst(43).first == UInt8(ascii: ".") else { return nil }
        return String(state.dropFirst(44))
    }

    /// Form-decoded pairs, read leniently, the first value of a name winning.
    public static func formFields(_ text: some StringProtocol) -> [String: String] {
        FormEncoding.firstValues(FormEncoding.lenientPairs(text))
    }

    /// Built-in ids lower-cased; `oidc.` and `saml.` names as given.
    public static func canonicalProviderID(_ text: String) -> String {
        let trimmed = text.trimmingCharacters(in: .whitespaces)
        for family in ["oidc.", "saml."] where trimmed.lowercased().hasPrefix(family) { return family + trimmed.dropFirst(5) }
        return trimmed.lowercased()
    }
}

extension AuthorizationFailure {
    /// `{"code":"auth/…","message":"…"}`, what Firebase's handler puts in `firebaseError`.
    public var firebaseErrorJSON: String {
        JSONValue.object(["code": .string(firebaseCode), "message": .string(message)]).jsonText
    }
}
