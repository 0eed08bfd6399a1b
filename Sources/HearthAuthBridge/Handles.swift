import Foundation
import HearthAuth

/// The C side's opaque handles are retained Swift objects: `Unmanaged` turns one into a pointer and back.
/// A handle the bridge returns holds one retain, which the C side gives back with the matching `_release`.
enum Handle {
    static func retained(_ object: AnyObject) -> UnsafeMutableRawPointer { Unmanaged.passRetained(object).toOpaque() }

    static func borrowed(_ object: AnyObject) -> UnsafeMutableRawPointer { Unmanaged.passUnretained(object).toOpaque() }

    static func object<T: AnyObject>(_ pointer: UnsafeMutableRawPointer, as type: T.Type = T.self) -> T {
        Unmanaged<T>.fromOpaque(pointer).takeUnretainedValue()
    }

    static func release(_ pointer: UnsafeMutableRawPointer?) {
        guard let pointer else { return }
        Unmanaged<AnyObject>.fromOpaque(pointer).release()
    }
}

/// An app of the C++ API: the HearthApp it configured.
final class AppBox: Sendable {
    let app: HearthApp
    var auth: Auth { Auth.auth(app: app) }
    init(app: HearthApp) { self.app = app }
}

/// A user handle: the SDK's live `User`.
final class UserBox: Sendable {
    let user: User
    init(_ user: User) { self.user = user }
}

/// A credential handle.
final class CredentialBox: Sendable {
    let credential: AuthCredential
    init(_ credential: AuthCredential) { self.credential = credential }
}

/// A C string in malloc'd memory, for the caller to free with `hearth_free`; nil stays NULL.
func cString(_ text: String?) -> UnsafeMutablePointer<CChar>? {
    guard let text else { return nil }
    return strdup(text)
}

/// A UTF-8 C string argument; NULL is nil.
func string(_ pointer: UnsafePointer<CChar>?) -> String? {
    pointer.map { String(cString: $0) }
}

/// `count` C strings.
func strings(_ pointers: UnsafePointer<UnsafePointer<CChar>?>?, _ count: Int) -> [String] {
    guard let pointers, count > 0 else { return [] }
    return (0..<count).compactMap { string(pointers[$0]) }
}

@_cdecl("hearth_free")
public func hearthFree(_ text: UnsafeMutablePointer<CChar>?) {
    free(text)
}
