import Foundation
import HearthAuth

/// Apps and their Auth: the C++ `App::Create` and `Auth` calls that answer at once.
enum Apps {
    /// Serialises `hearth_app_create`, whose look-up and configuration must not interleave.
    static let creation = NSLock()
}

@_cdecl("hearth_app_create")
public func hearthAppCreate(
    _ name: UnsafePointer<CChar>?, _ serverURL: UnsafePointer<CChar>?, _ apiKey: UnsafePointer<CChar>?,
    _ projectID: UnsafePointer<CChar>?, _ appID: UnsafePointer<CChar>?, _ errorMessage: UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>?
) -> UnsafeMutableRawPointer? {
    func nonEmpty(_ pointer: UnsafePointer<CChar>?) -> String? { string(pointer).flatMap { $0.isEmpty ? nil : $0 } }
    var options = HearthOptions.defaultOptions()
    if let url = nonEmpty(serverURL) { options = HearthOptions(apiKey: options.apiKey, projectID: options.projectID, serverURL: url) }
    if let key = nonEmpty(apiKey) { options.apiKey = key }
    if let project = nonEmpty(projectID) { options.projectID = project }
    options.appID = nonEmpty(appID)
    let appName = nonEmpty(name) ?? HearthApp.defaultAppName

    Apps.creation.lock()
    defer { Apps.creation.unlock() }
    if let existing = HearthApp.app(name: appName) {
        let same =
            existing.options.serverURL == options.serverURL && existing.options.apiKey == options.apiKey
            && existing.options.projectID == options.projectID
        guard same else {
            errorMessage?.pointee = cString("An app named \(appName) already exists with other options.")
            return nil
        }
        return Handle.retained(AppBox(app: existing))
    }
    HearthApp.configure(name: appName, options: options)
    guard let app = HearthApp.app(name: appName) else { return nil }
    return Handle.retained(AppBox(app: app))
}

@_cdecl("hearth_app_release")
public func hearthAppRelease(_ app: UnsafeMutableRawPointer?) {
    Handle.release(app)
}

@_cdecl("hearth_app_option")
public func hearthAppOption(_ app: UnsafeMutableRawPointer, _ option: Int32) -> UnsafeMutablePointer<CChar>? {
    let options = Handle.object(app, as: AppBox.self).app.options
    switch option {
    case 0: return cString(options.serverURL)
    case 1: return cString(options.apiKey)
    case 2: return cString(options.projectID)
    case 3: return cString(options.appID ?? "")
    default: return nil
    }
}

@_cdecl("hearth_auth_current_user")
public func hearthAuthCurrentUser(_ app: UnsafeMutableRawPointer) -> UnsafeMutableRawPointer? {
    Handle.object(app, as: AppBox.self).auth.currentUser.map { Handle.retained(UserBox($0)) }
}

@_cdecl("hearth_auth_sign_out")
public func hearthAuthSignOut(_ app: UnsafeMutableRawPointer) -> Int32 {
    do {
        try Handle.object(app, as: AppBox.self).auth.signOut()
        return 0
    } catch {
        return CppAuthError.value(of: error)
    }
}

@_cdecl("hearth_auth_language_code")
public func hearthAuthLanguageCode(_ app: UnsafeMutableRawPointer) -> UnsafeMutablePointer<CChar>? {
    cString(Handle.object(app, as: AppBox.self).auth.languageCode)
}

@_cdecl("hearth_auth_set_language_code")
public func hearthAuthSetLanguageCode(_ app: UnsafeMutableRawPointer, _ code: UnsafePointer<CChar>?) {
    let auth = Handle.object(app, as: AppBox.self).auth
    if let code = string(code), !code.isEmpty {
        auth.languageCode = code
    } else {
        auth.useAppLanguage()
    }
}

@_cdecl("hearth_auth_use_emulator")
public func hearthAuthUseEmulator(_ app: UnsafeMutableRawPointer, _ host: UnsafePointer<CChar>?, _ port: UInt32) {
    Handle.object(app, as: AppBox.self).auth.useEmulator(withHost: string(host) ?? "127.0.0.1", port: Int(port))
}

// MARK: Listeners

/// The C++ listeners: called on one serial queue of their own, since a C++ program runs no main loop.
enum Listeners {
    static let queue: DispatchQueue = {
        let queue = DispatchQueue(label: "hearth.cpp.listeners")
        queue.setSpecific(key: onQueue, value: true)
        return queue
    }()
    private static let onQueue = DispatchSpecificKey<Bool>()

    /// One listener. Calls already queued when it is removed find it inactive and do nothing, so that the C++
    /// side may free the listener's context once removal returns, even when it removed it from its own call.
    final class Registration: @unchecked Sendable {
        let auth: Auth
        let idToken: Bool
        var handle: (any NSObjectProtocol)?
        private let active = Locked(true)

        init(auth: Auth, idToken: Bool) {
            self.auth = auth
            self.idToken = idToken
        }

        /// Runs `call` unless the listener was removed; on the listeners' queue, so never during a removal.
        func callIfActive(_ call: () -> Void) {
            if active.withLock({ $0 }) { call() }
        }

        func deactivate() { active.withLock { $0 = false } }
    }

    private static let registrations = Locked<(next: UInt64, byID: [UInt64: Registration])>((1, [:]))

    static func add(_ auth: Auth, idToken: Bool, call: @escaping @Sendable () -> Void) -> UInt64 {
        let registration = Registration(auth: auth, idToken: idToken)
        let id = registrations.withLock { state in
            let id = state.next
            state.next += 1
            state.byID[id] = registration
            return id
        }
        let listener: @Sendable (Auth, User?) -> Void = { _, _ in registration.callIfActive(call) }
        registration.handle =
            idToken
            ? auth.addIDTokenDidChangeListener(queue: queue, listener) : auth.addStateDidChangeListener(queue: queue, listener)
        return id
    }

    /// Removes a listener; once this returns it is not called again, and no call of it is under way (unless
    /// it is removing itself from its own call, which then ends as the caller returns).
    static func remove(_ id: UInt64) {
        guard let registration = registrations.withLock({ $0.byID.removeValue(forKey: id) }) else { return }
        registration.deactivate()
        if let handle = registration.handle {
            if registration.idToken {
                registration.auth.removeIDTokenDidChangeListener(handle)
            } else {
                registration.auth.removeStateDidChangeListener(handle)
            }
        }
        if DispatchQueue.getSpecific(key: onQueue) != true { queue.sync {} }
    }
}

/// A lock around a value (the bridge's own: HearthAuth's is internal).
final class Locked<Value>: @unchecked Sendable {
    private var value: Value
    private let lock = NSLock()
    init(_ value: Value) { self.value = value }
    func withLock<T>(_ body: (inout Value) throws -> T) rethrows -> T {
        lock.lock()
        defer { lock.unlock() }
        return try body(&value)
    }
}

struct ListenerFunction: @unchecked Sendable {
    let function: @convention(c) (UnsafeMutableRawPointer?) -> Void
    let context: UnsafeMutableRawPointer?
}

@_cdecl("hearth_auth_add_listener")
public func hearthAuthAddListener(
    _ app: UnsafeMutableRawPointer, _ idToken: Int32, _ listener: @escaping @convention(c) (UnsafeMutableRawPointer?) -> Void,
    _ context: UnsafeMutableRawPointer?
) -> UInt64 {
    let call = ListenerFunction(function: listener, context: context)
    return Listeners.add(Handle.object(app, as: AppBox.self).auth, idToken: idToken != 0) { call.function(call.context) }
}

@_cdecl("hearth_auth_remove_listener")
public func hearthAuthRemoveListener(_ app: UnsafeMutableRawPointer, _ handle: UInt64) {
    Listeners.remove(handle)
}
