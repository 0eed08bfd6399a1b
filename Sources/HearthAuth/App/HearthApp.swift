import Foundation

/// A configured app: the counterpart of `FirebaseApp`. Each app has its own ``Auth``.
///
/// The one configuration line of a Firebase snippet changes like this:
///
/// ```swift
/// FirebaseApp.configure()                       // FirebaseAuth
/// HearthApp.configure()                         // HearthAuth: options from the environment
/// HearthApp.configure(options: options)         // or explicit options
/// ```
public final class HearthApp: Sendable {
    /// The name of the default app, as FirebaseCore names it.
    public static let defaultAppName = "__FIRAPP_DEFAULT"

    private static let registry = Locked<[String: HearthApp]>([:])

    /// The app's name; ``defaultAppName`` for the default app.
    public let name: String
    /// The options the app was configured with.
    public let options: HearthOptions
    let engine: AuthEngine
    /// The ``Auth`` that `Auth.auth(app:)` returns.
    let auth: Auth

    private init(name: String, options: HearthOptions) {
        self.name = name
        self.options = options
        engine = AuthEngine(appName: name, options: options)
        auth = Auth(engine: engine)
    }

    /// Configures the default app with ``HearthOptions/defaultOptions()`` (the environment, or a local
    /// development server). Does nothing if the default app is already configured.
    public static func configure() {
        if app() == nil { configure(options: .defaultOptions()) }
    }

    /// Configures the default app.
    /// - Precondition: the default app is not configured yet (as in FirebaseCore, configuring twice is a
    ///   programming error).
    public static func configure(options: HearthOptions) {
        configure(name: defaultAppName, options: options)
    }

    /// Configures an app with a name, for a second project or server.
    /// - Precondition: no app of that name is configured yet.
    public static func configure(name: String, options: HearthOptions) {
        precondition(!name.isEmpty, "An app name must not be empty.")
        registry.withLock { apps in
            precondition(apps[name] == nil, "An app named \(name) is already configured.")
            apps[name] = HearthApp(name: name, options: options)
        }
    }

    /// The default app, or nil before ``configure(options:)``.
    public static func app() -> HearthApp? { app(name: defaultAppName) }

    /// The app of a name, or nil.
    public static func app(name: String) -> HearthApp? { registry.withLock { $0[name] } }

    /// Every configured app by name, or nil when there is none (as in FirebaseCore).
    public static var allApps: [String: HearthApp]? {
        let apps = registry.withLock { $0 }
        return apps.isEmpty ? nil : apps
    }

    /// Removes the app. Its persisted user stays persisted: configuring an app of the same name with the same
    /// store again signs that user back in (FirebaseCore removes it; see "Coming from FirebaseAuth").
    public func delete(_ completion: (@MainActor @Sendable (Bool) -> Void)? = nil) {
        let removed = HearthApp.registry.withLock { apps -> Bool in
            guard apps[name] === self else { return false }
            apps[name] = nil
            return true
        }
        if let completion { MainQueue.deliver { completion(removed) } }
    }

    /// Removes the app; see ``delete(_:)``.
    @discardableResult
    public func delete() async -> Bool {
        HearthApp.registry.withLock { apps -> Bool in
            guard apps[name] === self else { return false }
            apps[name] = nil
            return true
        }
    }

    /// Whether this is the default app.
    public var isDefaultApp: Bool { name == Self.defaultAppName }
}
