import Foundation

extension ProvidersConfiguration {
    /// The browser sign-in (`createAuthUri` → provider → `/__/auth/handler` → app): where providers send the
    /// browser back, which app return URLs are accepted, and how long a started sign-in may take.
    public struct BrowserSignIn: Sendable, Equatable, CustomStringConvertible {
        /// The redirect URI registered with every provider: Hearth's `/__/auth/handler` as the browser reaches it
        /// (`https://auth.example.com/__/auth/handler`). `nil`: `<server base URL>/__/auth/handler`, which is
        /// right for development mode and a server reached directly.
        public var handlerURL: URL?
        /// The app return URLs (`continueUri` of `createAuthUri`) the handler may send the browser back to:
        /// `com.example.app:/oauth`, `com.googleusercontent.apps.123:/`, `https://app.example.com/auth`. A return URL
        /// matches one when scheme, host and port are the same and its path is the same or below it on a segment
        /// boundary (see ``ReturnURL``). Loopback addresses (`http://127.0.0.1:PORT/…`, `http://[::1]:PORT/…`,
        /// `http://localhost:PORT/…`) are always accepted, on any port, for desktop and command-line apps (RFC 8252 §7.3).
        public var returnURLs: [String]
        /// The app's own redirect URIs, registered with the providers by the operator (Firebase's mode: the
        /// provider sends the browser to the app, which hands the callback to `signInWithIdp`). A `continueUri`
        /// that is one of these, compared as parsed URLs (scheme, host, port and path; the query aside), becomes
        /// the `redirect_uri` sent to the provider instead of Hearth's handler.
        public var callbackURLs: [String]
        /// Whether any app scheme (reverse-domain `com.example.app:`, or Firebase's `app-1-…-ios-…:`) is accepted
        /// without being listed. Development mode turns it on; schemes browsers handle themselves never are.
        public var acceptsAnyCustomScheme: Bool
        /// How long a started sign-in (the `state`) and a finished one (the `requestUri` the app receives) stay
        /// usable, in seconds.
        public var sessionLifetime: TimeInterval

        /// Defaults: handler at the server's base URL, loopback return URLs only, ten minutes.
        public init(
            handlerURL: URL? = nil, returnURLs: [String] = [], callbackURLs: [String] = [], acceptsAnyCustomScheme: Bool = false,
            sessionLifetime: TimeInterval = 600
        ) {
            self.handlerURL = handlerURL
            self.returnURLs = returnURLs
            self.callbackURLs = callbackURLs
            self.acceptsAnyCustomScheme = acceptsAnyCustomScheme
            self.sessionLifetime = sessionLifetime
        }

        /// Whether the handler may send the browser to `continueUri` (see ``returnURLs``).
        public func acceptsReturnURL(_ continueUri: String) -> Bool {
            guard let candidate = ReturnURL(continueUri) else { return false }
            if candidate.isLoopback { return true }
            if returnURLs.contains(where: { ReturnURL($0)?.admits(candidate) == true }) { return true }
            return acceptsAnyCustomScheme && candidate.hasAppScheme
        }

        /// Whether `continueUri` is one of the app's own redirect URIs (``callbackURLs``).
        public func isCallbackURL(_ continueUri: String) -> Bool {
            guard let candidate = ReturnURL(continueUri) else { return false }
            return callbackURLs.contains { ReturnURL($0) == candidate }
        }

        /// The settings.
        public var description: String {
            "BrowserSignIn(handlerURL: \(handlerURL?.absoluteString ?? "<server>/__/auth/handler"), returnURLs: \(returnURLs), callbackURLs: \(callbackURLs), "
                + "acceptsAnyCustomScheme: \(acceptsAnyCustomScheme), sessionLifetime: \(sessionLifetime)s)"
        }
    }
}
