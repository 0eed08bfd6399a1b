import HearthCore

/// The errors adapters throw, in one place so the wire details stay consistent.
///
/// Details go to the client after `INVALID_IDP_RESPONSE : ` (or the nonce code); they never contain a
/// token, a secret or a URL's query. Reasons are for logs and carry the same guarantee.
enum ProviderFailure {
    static let timeoutDetail = "The identity provider did not answer in time."
    static let unreachableDetail = "The identity provider could not be reached."

    /// `INVALID_IDP_RESPONSE : <detail>`.
    static func invalid(_ detail: String, reason: String? = nil, underlying: (any Error)? = nil, file: String = #fileID, line: Int = #line)
        -> HearthError
    {
        HearthError(.invalidIDPResponse, detail: detail, reason: reason ?? detail, underlying: underlying, file: file, line: line)
    }

    /// `MISSING_OR_INVALID_NONCE : <detail>`.
    static func nonce(_ detail: String, file: String = #fileID, line: Int = #line) -> HearthError {
        HearthError(.missingOrInvalidNonce, detail: detail, reason: detail, file: file, line: line)
    }

    /// `OPERATION_NOT_ALLOWED`: the provider is switched off or not configured.
    static func notAllowed(_ reason: String, file: String = #fileID, line: Int = #line) -> HearthError {
        HearthError(.operationNotAllowed, reason: reason, file: file, line: line)
    }

    /// `INVALID_CREDENTIAL_OR_PROVIDER_ID : Invalid IdP response/credential: …`.
    static func unknownProvider(_ providerID: String, file: String = #fileID, line: Int = #line) -> HearthError {
        HearthError(
            .invalidCredentialOrProviderID, detail: "Invalid IdP response/credential: providerId=\(providerID)",
            reason: "no identity provider is called \"\(providerID)\"", file: file, line: line)
    }
}
