import HearthCore
import HearthProviders
import Hummingbird

/// Routes and identity providers a server is given from outside: development mode's provider sandbox is
/// one (the `hearth` command and the test harness compose it; HearthServer never knows of it).
///
/// The server asks an extension for its providers twice: when the services open, with the configured
/// base URL, and, when it listens on port 0, again once the port is known.
public protocol ServerExtension: Sendable {
    /// The providers to use in place of `configured`, for a server reached at `baseURL`
    /// (`http://127.0.0.1:9099`).
    func providers(replacing configured: ProvidersConfiguration, baseURL: String) -> ProvidersConfiguration

    /// Adds the extension's routes.
    func addRoutes(to router: Router<HearthRequestContext>)

    /// Adds the extension's routes, some of which read the server's own state (development mode's mail
    /// outbox). The default adds ``addRoutes(to:)``'s.
    func addRoutes(to router: Router<HearthRequestContext>, services: HearthServices)

    /// Where the extension delivers verification codes (development mode's SMS outbox); `nil` by default.
    var verificationCodeSender: (any VerificationCodeSending)? { get }
}

extension ServerExtension {
    public var verificationCodeSender: (any VerificationCodeSending)? { nil }

    public func addRoutes(to router: Router<HearthRequestContext>, services: HearthServices) {
        addRoutes(to: router)
    }
}
