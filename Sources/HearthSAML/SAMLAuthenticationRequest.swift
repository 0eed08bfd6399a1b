import Foundation

/// An AuthnRequest ready for the HTTP-Redirect binding (``SAMLServiceProvider/authenticationRequest(relayState:now:)``).
public struct SAMLAuthenticationRequest: Sendable, Equatable {
    /// The request's `ID`: keep it with the browser's session and pass it to
    /// ``SAMLServiceProvider/verifyResponse(_:expectedRequestID:now:replayGuard:)`` as `expectedRequestID`, so
    /// that only a response to this request, in this browser, signs in.
    public let id: String
    /// When it was issued (its `IssueInstant`).
    public let issueInstant: Date
    /// The URL to redirect the browser to: the SSO URL with `SAMLRequest`, `RelayState` and, when signed,
    /// `SigAlg` and `Signature`.
    public let url: String
    /// The AuthnRequest's XML, before DEFLATE and base64.
    public let xml: String
}
