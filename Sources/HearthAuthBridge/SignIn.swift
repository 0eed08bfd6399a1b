import Foundation
import HearthAuth

public typealias CString = UnsafePointer<CChar>
public typealias CStrings = UnsafePointer<UnsafePointer<CChar>?>

@_cdecl("hearth_auth_sign_in_anonymously")
public func hearthAuthSignInAnonymously(_ app: UnsafeMutableRawPointer, _ done: CompletionFunction?, _ context: UnsafeMutableRawPointer?) {
    let auth = Handle.object(app, as: AppBox.self).auth
    Completion(function: done, context: context).run { ResultBox(try await auth.signInAnonymously()) }
}

@_cdecl("hearth_auth_sign_in_with_email")
public func hearthAuthSignInWithEmail(
    _ app: UnsafeMutableRawPointer, _ email: CString?, _ password: CString?, _ done: CompletionFunction?, _ context: UnsafeMutableRawPointer?
) {
    let auth = Handle.object(app, as: AppBox.self).auth
    let (email, password) = (string(email) ?? "", string(password) ?? "")
    Completion(function: done, context: context).run { ResultBox(try await auth.signIn(withEmail: email, password: password)) }
}

@_cdecl("hearth_auth_create_user")
public func hearthAuthCreateUser(
    _ app: UnsafeMutableRawPointer, _ email: CString?, _ password: CString?, _ done: CompletionFunction?, _ context: UnsafeMutableRawPointer?
) {
    let auth = Handle.object(app, as: AppBox.self).auth
    let (email, password) = (string(email) ?? "", string(password) ?? "")
    Completion(function: done, context: context).run { ResultBox(try await auth.createUser(withEmail: email, password: password)) }
}

@_cdecl("hearth_auth_sign_in_with_custom_token")
public func hearthAuthSignInWithCustomToken(
    _ app: UnsafeMutableRawPointer, _ token: CString?, _ done: CompletionFunction?, _ context: UnsafeMutableRawPointer?
) {
    let auth = Handle.object(app, as: AppBox.self).auth
    let token = string(token) ?? ""
    Completion(function: done, context: context).run { ResultBox(try await auth.signIn(withCustomToken: token)) }
}

@_cdecl("hearth_auth_sign_in_with_credential")
public func hearthAuthSignInWithCredential(
    _ app: UnsafeMutableRawPointer, _ credential: UnsafeMutableRawPointer?, _ done: CompletionFunction?,
    _ context: UnsafeMutableRawPointer?
) {
    let auth = Handle.object(app, as: AppBox.self).auth
    let completion = Completion(function: done, context: context)
    guard let credential = credential.map({ Handle.object($0, as: CredentialBox.self).credential }) else {
        return completion.refuse(CppAuthError.invalidCredential, "The credential is not valid.")
    }
    completion.run { ResultBox(try await auth.signIn(with: credential)) }
}

@_cdecl("hearth_auth_sign_in_with_provider")
public func hearthAuthSignInWithProvider(
    _ app: UnsafeMutableRawPointer, _ providerID: CString?, _ scopes: CStrings?, _ scopeCount: Int, _ names: CStrings?,
    _ values: CStrings?, _ parameterCount: Int, _ done: CompletionFunction?, _ context: UnsafeMutableRawPointer?
) {
    let auth = Handle.object(app, as: AppBox.self).auth
    let completion = Completion(function: done, context: context)
    let request = ProviderRequest(providerID, scopes, scopeCount, names, values, parameterCount)
    guard let provider = request.provider(auth) else {
        return completion.refuse(CppAuthError.invalidProviderID, "The provider id is empty.")
    }
    completion.run {
        let delegate = try Browser.delegate()
        return ResultBox(try await auth.signIn(with: provider, uiDelegate: delegate))
    }
}

// FirebaseAuth deprecates the lookup (e-mail enumeration protection empties its answer); C++ still has it.
@available(*, deprecated, message: "FetchProvidersForEmail")
@_cdecl("hearth_auth_fetch_providers")
public func hearthAuthFetchProviders(
    _ app: UnsafeMutableRawPointer, _ email: CString?, _ done: CompletionFunction?, _ context: UnsafeMutableRawPointer?
) {
    let auth = Handle.object(app, as: AppBox.self).auth
    let email = string(email) ?? ""
    Completion(function: done, context: context).run {
        let result = ResultBox()
        result.list = try await auth.fetchSignInMethods(forEmail: email)
        return result
    }
}

@_cdecl("hearth_auth_send_password_reset")
public func hearthAuthSendPasswordReset(
    _ app: UnsafeMutableRawPointer, _ email: CString?, _ done: CompletionFunction?, _ context: UnsafeMutableRawPointer?
) {
    let auth = Handle.object(app, as: AppBox.self).auth
    let email = string(email) ?? ""
    Completion(function: done, context: context).run {
        try await auth.sendPasswordReset(withEmail: email)
        return ResultBox()
    }
}

/// A `FederatedOAuthProviderData` as the C side passes it.
struct ProviderRequest: Sendable {
    let providerID: String
    let scopes: [String]
    let parameters: [String: String]

    init(_ providerID: CString?, _ scopes: CStrings?, _ scopeCount: Int, _ names: CStrings?, _ values: CStrings?, _ count: Int) {
        self.providerID = string(providerID) ?? ""
        self.scopes = strings(scopes, scopeCount)
        var parameters: [String: String] = [:]
        if let names, let values {
            for index in 0..<max(count, 0) {
                if let name = string(names[index]), let value = string(values[index]) { parameters[name] = value }
            }
        }
        self.parameters = parameters
    }

    func provider(_ auth: Auth) -> OAuthProvider? {
        guard !providerID.isEmpty else { return nil }
        let provider = OAuthProvider(providerID: providerID, auth: auth)
        if !scopes.isEmpty { provider.scopes = scopes }
        if !parameters.isEmpty { provider.customParameters = parameters }
        return provider
    }
}

// MARK: The browser of SignInWithProvider

/// What shows the provider's page: the system browser, or the function the app set with `hearth_set_browser`.
enum Browser {
    struct Hook: @unchecked Sendable {
        let function: @convention(c) (UnsafeMutableRawPointer?, UnsafePointer<CChar>?) -> Void
        let context: UnsafeMutableRawPointer?
    }

    static let setting = Locked<(hook: Hook?, timeout: TimeInterval)>((nil, 300))

    /// A loopback delegate (RFC 8252) that opens the page with the hook or the system browser.
    static func delegate() throws -> BrowserSignInUIDelegate {
        let (hook, timeout) = setting.withLock { ($0.hook, $0.timeout) }
        guard let hook else { return try LoopbackBrowser.delegate(timeout: timeout) }
        return try LoopbackBrowser.delegate(
            openBrowser: { url in url.absoluteString.withCString { hook.function(hook.context, $0) } }, timeout: timeout)
    }
}

@_cdecl("hearth_set_browser")
public func hearthSetBrowser(
    _ browser: (@convention(c) (UnsafeMutableRawPointer?, UnsafePointer<CChar>?) -> Void)?, _ context: UnsafeMutableRawPointer?,
    _ timeout: Double
) {
    let hook = browser.map { Browser.Hook(function: $0, context: context) }
    Browser.setting.withLock { $0 = (hook, timeout > 0 ? timeout : 300) }
}
