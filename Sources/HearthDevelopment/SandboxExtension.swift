import HearthConfiguration
import HearthCore
import HearthProviders
import HearthSandbox
import HearthServer
import Hummingbird
import Logging

/// Development mode's provider sandbox, given to a server as an extension: HearthSandbox served at
/// `/sandbox`, and every provider the configuration does not switch on pointed at it.
///
/// The `hearth` command adds it when ``HearthServer/ServerConfiguration/servesSandbox`` says so; the test
/// harness always does. The verification code stays the production code: only URLs and credentials differ.
public struct SandboxExtension: ServerExtension {
    /// The path the sandbox is served under.
    public static let mountPath = "/sandbox"

    public let sandbox: Sandbox
    /// The verification codes phone sign-in sends, at `/sandbox/sms`.
    public let smsOutbox = SMSOutbox()

    /// - Parameter sandbox: the stand-ins; its ``HearthSandbox/Sandbox/baseURL`` is set from the server's.
    public init(sandbox: Sandbox) {
        self.sandbox = sandbox
    }

    public var verificationCodeSender: (any VerificationCodeSending)? { smsOutbox }

    /// A fresh sandbox on the server's clock.
    public init(clock: WallClock, logger: Logger) {
        self.init(sandbox: Sandbox(clock: { clock.now }, logger: logger))
    }

    public func providers(replacing configured: ProvidersConfiguration, baseURL: String) -> ProvidersConfiguration {
        sandbox.baseURL = baseURL + Self.mountPath
        return configured.fillingDisabled(from: .sandbox(sandbox.endpoints()))
    }

    public func addRoutes(to router: Router<HearthRequestContext>) {
        sandbox.addRoutes(to: router.group(RouterPath(Self.mountPath)))
    }

    /// The sandbox, the mail outbox at `/sandbox/mail` with the emulator's `oobCodes` listing, and the SMS outbox at
    /// `/sandbox/sms` with its `verificationCodes` listing, and the passkey page at `/sandbox/passkeys`.
    public func addRoutes(to router: Router<HearthRequestContext>, services: HearthServices) {
        addRoutes(to: router)
        PasskeyPage().addRoutes(to: router)
        MailOutbox(store: services.store, projectID: services.configuration.projectID).addRoutes(to: router)
        smsOutbox.addRoutes(to: router, projectID: services.configuration.projectID)
    }
}
