import Foundation
import HearthAuth

/// `void (*)(void* context, int error, const char* message, hearth_result result)`
public typealias CompletionFunction = @convention(c) (UnsafeMutableRawPointer?, Int32, UnsafePointer<CChar>?, UnsafeMutableRawPointer?) -> Void

/// What a finished call hands the C side: everything any of the C++ result types reads.
final class ResultBox: @unchecked Sendable {
    var user: User?
    var additionalUserInfo: AdditionalUserInfo?
    var credential: AuthCredential?
    var updatedCredential: AuthCredential?
    var strings: [Int32: String] = [:]
    var list: [String] = []
    lazy var profile: ProfileValue? = additionalUserInfo?.profile.map { ProfileValue(json: $0) }

    init() {}

    init(_ result: AuthDataResult) {
        user = result.user
        additionalUserInfo = result.additionalUserInfo
        credential = result.credential
    }

    init(user: User) { self.user = user }
}

/// A C completion and its context, called once.
struct Completion: @unchecked Sendable {
    let function: CompletionFunction?
    let context: UnsafeMutableRawPointer?

    /// Runs `operation` on the concurrency pool and reports its outcome.
    func run(_ operation: @escaping @Sendable () async throws -> ResultBox) {
        Task.detached {
            do {
                self.finish(try await operation(), error: nil)
            } catch {
                let result = ResultBox()
                let bridged = error as NSError
                if let updated = bridged.userInfo[AuthErrors.userInfoUpdatedCredentialKey] as? AuthCredential {
                    result.updatedCredential = updated
                }
                if let email = bridged.userInfo[AuthErrors.userInfoEmailKey] as? String { result.strings[3] = email }
                self.finish(result, error: error)
            }
        }
    }

    /// Reports an outcome now, on the calling thread (arguments refused before any work).
    func finish(_ result: ResultBox, error: (any Error)?) {
        guard let function else { return }
        let code = error.map(CppAuthError.value(of:)) ?? 0
        let message = error.map { ($0 as NSError).localizedDescription }
        withExtendedLifetime(result) {
            if let message {
                message.withCString { function(context, code, $0, Handle.borrowed(result)) }
            } else {
                function(context, code, nil, Handle.borrowed(result))
            }
        }
    }

    /// Refuses the call at once with `code` (a C++ AuthError value) and `message`.
    func refuse(_ code: Int32, _ message: String) {
        guard let function else { return }
        let result = ResultBox()
        withExtendedLifetime(result) {
            message.withCString { function(context, code, $0, Handle.borrowed(result)) }
        }
    }
}
